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


def _gpu_facts(facts, device: int):
    """(memory used before this process touched the GPU, memory of other processes) from the probe's NVML view."""
    from advisor.models.common import Unavailable

    if isinstance(facts.gpus, Unavailable):
        return None, None
    gpu = next((g for g in facts.gpus if g.torch_index == device), None)
    if gpu is None:
        return None, None
    used = gpu.memory_used_bytes if isinstance(gpu.memory_used_bytes, int) else None
    others = gpu.other_processes_memory_bytes if isinstance(gpu.other_processes_memory_bytes, int) else None
    return used, others


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
    from advisor.cli.errors import EXIT_FAILURE, CliError
    from advisor.recommend.memory_fit import DTYPE_BYTES, OPS, footprint, parse_shape

    if op not in OPS:
        raise CliError(f"--op {op!r}: expected one of {', '.join(OPS)}")
    if dtype not in DTYPE_BYTES:
        raise CliError(f"--dtype {dtype!r}: expected one of {', '.join(DTYPE_BYTES)}")
    wanted_shape = None
    if shape is not None:
        try:
            wanted_shape = parse_shape(shape)
            footprint(op, wanted_shape, dtype)
        except ValueError as error:
            raise CliError(f"--shape: {error}") from None
    explanation = None
    if explain_oom is not None:
        from advisor.recommend.oom_explain import explain_oom as explain

        explanation = explain(read_oom_text(explain_oom))
        if explanation is None:
            raise CliError("--explain-oom: this is not a CUDA out-of-memory message (no 'out of memory' in it)")

    from advisor.cli.measure_setup import gpu_unusable_reason
    from advisor.cli.output import write_report
    from advisor.cli.pipeline import build_report
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts
    from advisor.recommend.memory_report import oom_recommendation

    watch = Stopwatch()
    facts = collect_facts()
    reason = gpu_unusable_reason(facts)
    recommendations = []
    if reason is None:
        count = facts.torch.device_count
        if isinstance(count, int) and device >= count:
            raise CliError(f"--device {device}: torch sees {count} GPU(s) (0..{count - 1})")
        recommendations += _measure(facts, device, op, wanted_shape, dtype, noncontiguous, verify)
    elif explanation is None:
        raise CliError(f"no usable CUDA device: {reason}", EXIT_FAILURE)
    if explanation is not None:
        recommendations.append(oom_recommendation(explanation))
    sources = ["probe"] + (["memory probe"] if reason is None else []) + (["OOM message"] if explanation else [])
    report = build_report("memory", facts, sources=sources, rules_dirs=None)
    report.recommendations.extend(recommendations)
    report.meta.wall_s = round(watch.elapsed(), 2)
    write_report(report, fmt=fmt, output=output, redact=not no_redact)


def _measure(facts, device, op, shape, dtype, noncontiguous, verify):
    from advisor.cli.errors import EXIT_FAILURE, CliError
    from advisor.recommend.memory_fit import footprint
    from advisor.recommend.memory_probe import probe_headroom, verify_op
    from advisor.recommend.memory_report import fit_recommendation, headroom_recommendation

    used_before, others = _gpu_facts(facts, device)
    try:
        headroom = probe_headroom(device, used_before_bytes=used_before, other_processes_bytes=others)
    except RuntimeError as error:
        raise CliError(f"measuring GPU {device} failed: {str(error).strip().splitlines()[0]}", EXIT_FAILURE) from None
    recommendations = [headroom_recommendation(headroom)]
    if shape is not None:
        check = None
        copies = 1 if noncontiguous else 0
        if verify and footprint(op, shape, dtype, extra_copies=copies).total_bytes <= headroom.usable_bytes:
            check = verify_op(device, op, shape, dtype, noncontiguous=noncontiguous)
        recommendations.append(fit_recommendation(op, shape, dtype, headroom.usable_bytes,
                                                  noncontiguous=noncontiguous, check=check))
    return recommendations


def register(app: typer.Typer) -> None:
    app.command("memory")(memory)
