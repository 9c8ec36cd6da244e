"""`gpu-advisor cluster`: run this rank's part of the fleet diagnosis; on rank 0, assemble the one report.

The command (cli/cluster_cmd.py) parses flags and renders; everything between is here: the distributed run,
the rules, and the node names turned into stable placeholders before the report is redacted.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from advisor.app.errors import AdvisorError
from advisor.app.reports import apply_rules, load_rule_set, new_meta
from advisor.models.facts import Facts
from advisor.models.report import Report
from advisor.redact import mark


@dataclass
class ClusterResult:
    rank: int
    world_size: int
    #: Every rank reported in time; False: a rank died, hung or was stopped (the report names it).
    complete: bool
    report: Optional[Report] = None  # rank 0 only
    error: Optional[str] = None


def run_cluster(*, quick: bool, timeout_s: float, backend: Optional[str], rules_dirs: Optional[Iterable[Path]],
                command: str = "cluster") -> ClusterResult:
    from advisor.distributed.launch import NotLaunched
    from advisor.distributed.runner import FleetOptions, run_fleet

    started = time.monotonic()
    if timeout_s <= 0:
        raise AdvisorError("--timeout must be positive")
    if backend not in (None, "nccl", "gloo"):
        raise AdvisorError(f"--backend {backend!r}: choose nccl or gloo")
    rule_set = load_rule_set(rules_dirs)  # a bad rule is a usage error before any rank starts measuring
    try:
        outcome = run_fleet(FleetOptions(tier="quick" if quick else "standard", timeout_s=timeout_s, backend=backend))
    except NotLaunched as exc:
        raise AdvisorError(str(exc)) from None
    info = outcome.info
    result = ClusterResult(rank=info.rank, world_size=info.world_size, complete=outcome.complete, error=outcome.error)
    if info.rank != 0 or outcome.fleet is None:
        return result
    meta = new_meta(f"{command} --quick" if quick else command,
                    ["probe", "measurements", f"torch.distributed ({info.launcher})"])
    meta.wall_s = round(time.monotonic() - started, 2)
    report = Report(meta=meta, facts=outcome.facts or Facts(), fleet=outcome.fleet)
    result.report = apply_rules(report, rule_set)
    return result


def node_placeholders(report: Report) -> dict[str, str]:
    """Each node's name -> "{host-N}" (the redactor's placeholder spelling), numbered by the lowest rank on it
    (rank 0's node is {host-1})."""
    if report.fleet is None:
        return {}
    names: dict[str, str] = {}
    for rank in sorted(report.fleet.ranks, key=lambda r: r.rank):
        if rank.node and rank.node not in names:
            names[rank.node] = mark("host", len(names) + 1)
    return names


def pseudonymise_nodes(report: Report) -> Report:
    """Node names replaced by stable placeholders everywhere (the redactor then scrubs the rest).

    The generic redactor only knows this machine's name; a fleet report names every node, so they are
    replaced here first, with one placeholder per node so "rank 9 on {host-2}" still says which node.
    """
    names = node_placeholders(report)
    for name in list(names):
        short = name.split(".")[0]
        if short != name and len(short) >= 3:
            names.setdefault(short, names[name])
    if not names:
        return report
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in sorted(names, key=len, reverse=True)))

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda m: names[m.group(0)], value)
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    data = scrub(report.model_dump(mode="json"))
    if isinstance(data["facts"]["host"].get("hostname"), str):
        data["facts"]["host"]["hostname"] = names.get(report.facts.host.hostname, "<host>")  # type: ignore[arg-type]
    return Report.model_validate(data)
