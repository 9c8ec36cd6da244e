"""`gpu-advisor env`: facts and compatibility verdicts, no measurement, fast."""

import time

import typer

from advisor.cli.options import FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption
from advisor.cli.options import FailOn


def env(
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
) -> None:
    """Probe this machine (OS, CPU, torch build, driver, every GPU) and check driver/CUDA/torch/GPU compatibility."""
    from advisor.cli.output import exit_code_for, prepare_renderer, write_report
    from advisor.cli.pipeline import build_report, prepare_rules
    from advisor.probe import collect_facts

    started = time.perf_counter()
    # The torch child (started by cli/entry.py) is importing torch now, for seconds: everything that does not
    # need the facts is done meanwhile, so that after they arrive only evaluating and rendering remain.
    rule_set = prepare_rules(rules_dir)
    prepare_renderer(fmt, output)
    facts = collect_facts()
    report = build_report("env", facts, sources=["probe"], rules_dirs=rules_dir, rule_set=rule_set)
    report.meta.wall_s = round(time.perf_counter() - started, 3)
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("env")(env)
