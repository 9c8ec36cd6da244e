"""`gpu-advisor profile [OPTIONS] -- python train.py ARGS`: why is *this* program slow, from its own trace.

Also `profile train.py ARGS` and `profile -m package.module ARGS`; under torchrun
(`torchrun --nproc-per-node N -m advisor profile -- train.py`) every rank profiles its own process and rank 0
writes one report with each rank's step time and the skew between them. The program runs unmodified in a child
process; its output passes through (--quiet sends it to a file), Ctrl-C reaches it, and it is stopped once
the window is recorded (--no-stop-after lets it finish). Exit codes: 0 ok, 1 findings at or above
--fail-on, 2 the program cannot be profiled (missing, crashed or hung before a window, bad options),
3 the profiler itself failed (torch missing or too old in the program's interpreter, unreadable trace).
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption

_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def profile(
    ctx: typer.Context,
    command: Annotated[Optional[list[str]], typer.Argument(
        help="The program: script.py ARGS or python script.py ARGS (put -- before it when it has options of its own).",
        show_default=False)] = None,
    module: Annotated[Optional[str], typer.Option("-m", "--module", help="Run a module, like python -m.")] = None,
    warmup_steps: Annotated[int, typer.Option(help="Steps to skip first (warm-up, compilation, autotuning).")] = 3,
    steps: Annotated[int, typer.Option(help="Steps to record.")] = 5,
    baseline_steps: Annotated[int, typer.Option(
        help="Steps timed without the profiler just before the window, to measure its overhead.")] = 5,
    seconds: Annotated[float, typer.Option(help="Longest wall-clock window when no steps are found (cut to ~30k trace events).")] = 0.5,
    wait_seconds: Annotated[float, typer.Option(
        help="Without an optimizer.step() by then, record a wall-clock window instead.")] = 15.0,
    stop_after: Annotated[bool, typer.Option(
        "--stop-after/--no-stop-after", help="Stop the program once the window is recorded.")] = True,
    timeout: Annotated[Optional[float], typer.Option(
        help="Stop the program after this many seconds (default 600, none with --no-stop-after).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Send the program's output to --log instead.")] = False,
    log: Annotated[Path, typer.Option(help="Where --quiet writes the program's output.")] = Path("gpu-advisor-profile.log"),
    no_stack: Annotated[bool, typer.Option(
        "--no-stack", help="Record no Python stacks (less overhead; lines come from sampling only).")] = False,
    max_overhead: Annotated[float, typer.Option(
        help="Refuse conclusions when profiling slows the steps by more than this fraction.")] = 0.25,
    trace_out: Annotated[Optional[Path], typer.Option(
        help="Keep the raw trace here (gzip Chrome trace; Perfetto and TensorBoard open it).")] = None,
    plot: Annotated[Optional[Path], typer.Option(help="Draw the step timeline to this PNG (matplotlib).")] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    rank_timeout: Annotated[float, typer.Option(
        help="Under torchrun: how long rank 0 waits for the other ranks' summaries after its own window.")] = 120.0,
    rules_dir: RulesDirOption = None,
) -> None:
    """Run your program under torch.profiler and explain why it is slow: ms per step, at your lines."""
    from advisor.app.profile_service import ProfileRequest, profile_ranks_program
    from advisor.cli.errors import CliError
    from advisor.cli.output import exit_code_for, write_report

    program = [*(command or []), *ctx.args]
    if module:
        program = ["-m", module, *program]
    if timeout is None:
        timeout = 600.0 if stop_after else None
    if steps < 1 or warmup_steps < 0 or baseline_steps < 0 or seconds <= 0 or wait_seconds < 0 or (
            timeout is not None and timeout <= 0) or rank_timeout <= 0:
        raise CliError("--steps must be >= 1; --warmup-steps and --baseline-steps >= 0; --seconds, --timeout, --rank-timeout > 0")
    request = ProfileRequest(
        command=program, warmup_steps=warmup_steps, steps=steps, baseline_steps=baseline_steps,
        wait_seconds=wait_seconds, seconds=seconds, stop_after=stop_after, with_stack=not no_stack,
        timeout_s=timeout, max_overhead=max_overhead, quiet_log=log if quiet else None, trace_out=trace_out,
        rules_dirs=list(rules_dir or []), rank_timeout_s=rank_timeout)
    report = profile_ranks_program(request)  # a ProfileFailure is an AdvisorError: one line, its exit code
    if report is None:  # under torchrun, a rank other than 0: its summary went to rank 0's report
        raise typer.Exit(0)
    if plot is not None and report.profile is not None:
        try:
            from advisor.report.profile_sections import plot_steps

            plot_steps(report.profile, plot)
        except ImportError:
            typer.echo("gpu-advisor: note: --plot needs matplotlib; no PNG written", err=True)
        except OSError as exc:
            raise CliError(f"cannot write {plot}: {exc.strerror or exc}") from None
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("profile", context_settings=_SETTINGS)(profile)
