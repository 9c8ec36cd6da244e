"""`gpu-advisor cluster`: every rank of a torch.distributed job diagnoses itself; rank 0 writes one report.

    torchrun --nnodes N --nproc-per-node G -m advisor cluster -o fleet.md
    srun --ntasks-per-node G python -m advisor cluster      (with MASTER_ADDR / MASTER_PORT exported)
"""

from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_FAILURE
from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption

QuickOption = Annotated[bool, typer.Option(
    "--quick", help="Under a minute: two message sizes, smaller copies. The report lists what it did not test.")]
TimeoutOption = Annotated[float, typer.Option(
    "--timeout", min=1.0, help="Seconds without progress before a rank counts as dead or hung; the report then "
                               "names it and the job ends (exit 3) instead of hanging.")]
BackendOption = Annotated[Optional[str], typer.Option(
    "--backend", help="nccl or gloo (default: nccl when this rank has a GPU, gloo otherwise).")]


def cluster(
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
    quick: QuickOption = False,
    timeout: TimeoutOption = 60.0,
    backend: BackendOption = None,
) -> None:
    """Diagnose a whole training job's GPUs and interconnect: run under torchrun, srun or any env:// launcher."""
    from advisor.app.cluster_service import pseudonymise_nodes, run_cluster
    from advisor.cli.output import exit_code_for, write_report
    from advisor.distributed.runner import hard_exit

    result = run_cluster(quick=quick, timeout_s=timeout, backend=backend, rules_dirs=rules_dir)
    code = 0
    if result.report is not None:
        report = result.report if no_redact else pseudonymise_nodes(result.report)
        write_report(report, fmt=fmt, output=output, redact=not no_redact)
        code = exit_code_for(report, fail_on)
    if not result.complete:
        import sys

        print(f"gpu-advisor: rank {result.rank}: the fleet run did not complete: {result.error}", file=sys.stderr)
        code = EXIT_FAILURE
    # A collective stuck in another thread cannot be joined: end the process here, output flushed.
    hard_exit(code)


def register(app: typer.Typer) -> None:
    app.command("cluster")(cluster)
