"""Classes of session 13 (issue 12), each with its must-not twin: the result of a base class's abstract step
(`loss = self.train_step(batch)`, a subclass computes it) handed a CUDA batch is on the GPU."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "a base class's fit reads the loss of its abstract train_step (a subclass computes it on the CUDA "
     "batch) every step; a step that returns a plain number is no read", """
import torch
class Algorithm:
    def train_step(self, batch):
        raise NotImplementedError
    def count_step(self, batch):
        return 1
    def fit(self, loader):
        self.model.to("cuda")
        for batch in loader:
            batch = batch.to("cuda")
            loss = self.train_step(batch)
            loss.backward()
            print(loss.item())
            n = self.count_step(batch)
            print(float(n))
""", [13]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s13_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
