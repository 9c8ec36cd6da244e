"""Helpers for the lint unit tests: lint a snippet, get (line, id) pairs back."""

from __future__ import annotations

import textwrap

from advisor.lint import lint_text


def context_of(code: str, path: str = "snippet.py"):
    """The FileContext the checks read for a snippet: the flow analyses' answers, for tests of one of them."""
    import ast

    from advisor.lint.context import FileContext
    from advisor.lint.source import SourceUnit

    text = textwrap.dedent(code).lstrip("\n")
    return FileContext(SourceUnit(path=path, text=text), ast.parse(text))


def lines_of(code: str, select=None, path: str = "snippet.py") -> list[tuple[int, str]]:
    findings = lint_text(textwrap.dedent(code).lstrip("\n"), path=path, select=select)
    return [(f.line, f.check_id) for f in findings]


# A generator's preview helper (samples drawn, detached, plotted): the class tests of sessions 17 and 18 call it from
# different places.
GENERATOR_PREVIEW = """
import torch
netG = Generator().cuda()
def show_generated_img():
    noise = torch.randn(1, 100, 1, 1, device="cuda")
    image = netG(noise).to("cpu").clone().detach()
    plot(image)
"""
