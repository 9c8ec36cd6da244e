"""`gpu-advisor memory`: what is free, what the context costs, what fits, and what an OOM message means."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import FormatOption, NoRedactOption, OutputOption


def read_oom_text(value: str) -> str:
    """--explain-oom takes the message itself, a file holding it, or - for stdin."""
    from advisor.cli.errors import CliError
    from advisor.safe_io import InputRefused, read_capped, read_stdin_capped

    limit = 20 * 2**20
    try:
        if value == "-":
            return read_stdin_capped(limit).decode("utf-8", errors="replace")
        if "out of memory" in value.lower():  # the message itself (also too long to be a file name)
            return value
        if not Path(value).exists() and not Path(value).is_symlink():
            return value  # not a file: treat it as the message, which the parser will judge
        return read_capped(value, limit).decode("utf-8", errors="replace")
    except InputRefused as error:
        raise CliError(f"--explain-oom {value[:200]}: {error}") from None
    except (OSError, ValueError):  # a "path" too long or with a NUL byte: it is the message
        return value


def memory(
    shape: Annotated[Optional[str], typer.Option(
        "--shape", help="Will this fit? matmul: M,K or M,K,N (A is MxK, B is KxN, N defaults to M); add/alloc: "
                        "any shape. Answers yes/no and the largest shape of the same proportions that fits.")] = None,
    dtype: Annotated[str, typer.Option("--dtype", help="float64, float32, bfloat16, float16 or int8.")] = "float32",
    op: Annotated[str, typer.Option("--op", help="matmul (A, B and the output alive), add (a, b, out) or "
                                                  "alloc (one tensor).")] = "matmul",
    noncontiguous: Annotated[bool, typer.Option(
        "--noncontiguous", help="Count one extra full copy of the largest operand (a strided view made "
                                "contiguous, or a dtype change on the way to the GPU).")] = False,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Also run the --shape op for real (when it is predicted to fit) and report its peak.")] = False,
    explain_oom: Annotated[Optional[str], typer.Option(
        "--explain-oom", help="A CUDA out-of-memory message to explain: the text, a file holding it, or - "
                              "for stdin. Needs no GPU.")] = None,
    device: Annotated[int, typer.Option("--device", min=0, help="torch index of the GPU.")] = 0,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
) -> None:
    """GPU memory headroom: free, used by others, the CUDA context's cost, what torch holds, what fits."""
    from advisor.app.memory_service import memory_report
    from advisor.cli.output import write_report

    report = memory_report(op=op, dtype=dtype, shape=shape, noncontiguous=noncontiguous, verify=verify,
                           device=device, oom_text=read_oom_text(explain_oom) if explain_oom is not None else None)
    write_report(report, fmt=fmt, output=output, redact=not no_redact)


def register(app: typer.Typer) -> None:
    app.command("memory")(memory)
