"""`gpu-advisor memory`: what is free, what the context costs, what fits, and what an OOM message means."""

from typing import Annotated, Optional

import typer

from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, VerboseOption


def read_oom_text(value: str) -> str:
    """--explain-oom takes the message itself, a file holding it, or - for stdin."""
    from advisor.cli.errors import CliError
    from advisor.safe_io import InputRefused, read_capped, read_stdin_capped

    limit = 20 * 2**20  # read capped and never blocking: a FIFO or /dev/zero is refused, not waited on
    if value == "-":
        try:
            return read_stdin_capped(limit).decode("utf-8", errors="replace")
        except InputRefused as error:
            raise CliError(f"--explain-oom -: {error}") from None
    if "out of memory" in value.lower():  # the message itself (also too long to be a file name)
        return value
    try:
        return read_capped(value, limit).decode("utf-8", errors="replace")
    except InputRefused as error:
        if str(error) == "no such file" or "too long" in str(error) or "\0" in value:
            if any(c.isspace() for c in value):  # words, not a file name: the parser judges the message
                return value
            raise CliError(f"--explain-oom {value[:200]}: no such file (give the message itself in quotes, a "
                           "file holding it, or - to read it from stdin)") from None
        raise CliError(f"--explain-oom {value[:200]}: {error}") from None
    except ValueError:  # a NUL byte in the "path"
        return value


def memory(
    shape: Annotated[Optional[str], typer.Option(
        "--shape", metavar="SHAPE", help="Will this fit? matmul: M,K or M,K,N (A is MxK, B is KxN, N defaults to M); add/alloc: "
                        "any shape. Answers yes/no and the largest shape of the same proportions that fits.")] = None,
    dtype: Annotated[str, typer.Option("--dtype", metavar="DTYPE", help="float64, float32, bfloat16, float16 or int8.")] = "float32",
    op: Annotated[str, typer.Option("--op", metavar="OP", help="matmul (A, B and the output alive), add (a, b, out) or "
                                                  "alloc (one tensor).")] = "matmul",
    noncontiguous: Annotated[bool, typer.Option(
        "--noncontiguous", help="Count one extra full copy of the largest operand (a strided view made "
                                "contiguous, or a dtype change on the way to the GPU).")] = False,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Also run the --shape op for real (when it is predicted to fit) and report its peak.")] = False,
    explain_oom: Annotated[Optional[str], typer.Option(
        "--explain-oom", metavar="TEXT|FILE|-", help="A CUDA out-of-memory message to explain: the text, a file holding it, or - "
                              "for stdin. Needs no GPU.")] = None,
    device: Annotated[int, typer.Option("--device", min=0, metavar="N", help="torch index of the GPU.")] = 0,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
    fail_on: FailOnOption = FailOn.never,
) -> None:
    """GPU memory headroom: free, used by others, the CUDA context's cost, what torch holds, what fits."""
    from advisor.app.memory_service import explain_oom_report, memory_report
    from advisor.cli.errors import CliError
    from advisor.cli.output import exit_code_for, write_report

    if explain_oom is not None:
        # Offline: the message is usually someone else's; nothing of this machine belongs next to it.
        mixed = [flag for flag, given in (("--shape", shape is not None), ("--verify", verify),
                                          ("--noncontiguous", noncontiguous)) if given]
        if mixed:
            raise CliError(f"--explain-oom explains a message offline and measures nothing; run {mixed[0]} "
                           "in a separate call")
        report = explain_oom_report(read_oom_text(explain_oom))
    else:
        report = memory_report(op=op.lower(), dtype=dtype.lower(), shape=shape, noncontiguous=noncontiguous,
                               verify=verify, device=device)
    write_report(report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("memory")(memory)
