"""The memory and batch-size commands' error paths and exit codes, on a machine with no GPU."""

from __future__ import annotations

import sys
import textwrap

import pytest
import typer
from typer.testing import CliRunner

from advisor.cli import batch_size_cmd, memory_cmd
from advisor.cli.errors import CliError

HAS_CUDA = False
try:
    import torch

    HAS_CUDA = torch.cuda.is_available()
except ImportError:  # pragma: no cover
    pass


def make_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """test app"""

    batch_size_cmd.register(app)
    memory_cmd.register(app)
    return app


def invoke(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """(exit code as cli.main.run would give it, stdout, the one-line error)."""
    result = CliRunner().invoke(make_app(), args, input=stdin)
    if isinstance(result.exception, CliError):
        return result.exception.exit_code, result.stdout, result.exception.message
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, ""


@pytest.fixture
def user_models(tmp_path, monkeypatch):
    (tmp_path / "cli_nets.py").write_text(textwrap.dedent('''
        from torch import nn
        def good():
            return nn.Linear(10, 2)
        def not_module():
            return [1, 2]
        def raises():
            raise OSError("checkpoint.pt not found")
    '''))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("cli_nets", None)


@pytest.mark.parametrize("args, words", [
    (["--model", "no_such_module_xyz:build", "--input-shape", "3"], "no module named 'no_such_module_xyz'"),
    (["--model", "cli_nets:not_module", "--input-shape", "10"], "the factory returned a list"),
    (["--model", "cli_nets:raises", "--input-shape", "10"], "raised OSError: checkpoint.pt not found"),
    (["--model", "cli_nets:good"], "--input-shape is required"),
    (["--model", "cli_nets:good", "--input-shape", "3,x"], "--input-shape: shape '3,x'"),
    (["--model", "mlp", "--target", "fast"], "--target 'fast'"),
    (["--model", "mlp", "--input-dtype", "uint4"], "--input-dtype 'uint4'"),
])
def test_batch_size_bad_input_exits_2(user_models, args, words):
    code, _, message = invoke(["batch-size", *args])
    assert code == 2 and words in message


@pytest.mark.skipif(HAS_CUDA, reason="checks the no-GPU path")
def test_batch_size_without_cuda_exits_3(user_models):
    code, _, message = invoke(["batch-size", "--model", "cli_nets:good", "--input-shape", "10"])
    assert code == 3 and message.startswith("no usable CUDA device")


@pytest.mark.skipif(HAS_CUDA, reason="checks the no-GPU path")
def test_memory_without_cuda_exits_3():
    code, _, message = invoke(["memory"])
    assert code == 3 and "no usable CUDA device" in message


@pytest.mark.parametrize("args, words", [
    (["--op", "conv"], "--op 'conv'"), (["--dtype", "float7"], "--dtype 'float7'"),
    (["--shape", "10,20,30,40"], "matmul takes --shape M,K or M,K,N"), (["--shape", "0"], "positive"),
    (["--explain-oom", "RuntimeError: shapes do not match"], "not a CUDA out-of-memory message"),
])
def test_memory_bad_input_exits_2(args, words):
    code, _, message = invoke(["memory", *args])
    assert code == 2 and words in message


OOM = ("CUDA out of memory. Tried to allocate 764.00 MiB. GPU 0 has a total capacity of 47.37 GiB of which 442.88 MiB "
       "is free. Including non-PyTorch memory, this process has 46.92 GiB memory in use. Of the allocated memory "
       "42.40 GiB is allocated by PyTorch, and 3.24 GiB is reserved by PyTorch but unallocated.")


@pytest.mark.parametrize("how", ["text", "file", "stdin"])
def test_explain_oom_needs_no_gpu(tmp_path, how):
    if how == "file":
        path = tmp_path / "oom.txt"
        path.write_text("Traceback ...\ntorch.OutOfMemoryError: " + OOM + "\n")
        args, stdin = ["--explain-oom", str(path)], None
    elif how == "stdin":
        args, stdin = ["--explain-oom", "-"], OOM
    else:
        args, stdin = ["--explain-oom", OOM], None
    code, out, message = invoke(["memory", *args, "--format", "markdown"], stdin)
    if HAS_CUDA:
        pytest.skip("on a GPU machine the command also measures")
    assert code == 0, message
    assert "Out of memory, explained" in out and "fragmentation" in out and "expandable_segments" in out


def test_help_imports_no_torch():
    import subprocess

    code = ("import sys, typer\n"
            "from advisor.cli import batch_size_cmd, memory_cmd\n"
            "app = typer.Typer()\n"
            "batch_size_cmd.register(app); memory_cmd.register(app)\n"
            "assert 'torch' not in sys.modules, 'torch imported at module level'\n")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).returncode == 0
