"""Shared test helpers. GPU tests (marked `gpu`) are skipped where no CUDA device exists."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


def _cuda_available() -> bool:
    try:
        import torch
    except Exception:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config, items):
    if any("gpu" in item.keywords for item in items) and not _cuda_available():
        skip = pytest.mark.skip(reason="needs a CUDA GPU (none on this machine)")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


@pytest.fixture
def runner():
    """typer's CliRunner with stderr kept apart from stdout (the report goes to stdout, errors to stderr)."""
    from typer.testing import CliRunner

    try:
        return CliRunner(mix_stderr=False)
    except TypeError:  # newer click keeps stderr apart already
        return CliRunner()


@pytest.fixture(scope="session")
def poisoned_torch(tmp_path_factory) -> Path:
    """A folder holding a `torch` that fails loudly on import (see tests/no_torch.py)."""
    from tests.no_torch import make_poisoned_torch

    return make_poisoned_torch(tmp_path_factory.mktemp("poisoned"))


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="tests/fuzz: run the long fuzzing profile (thousands of cases per input surface)")
