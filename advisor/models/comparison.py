"""Comparison: two reports side by side (two machines, or one machine before and after an upgrade).

Produced by ``advisor.compare.compare_reports`` and only read by the compare renderers. "A" is the baseline
(before, or the reference machine) and "B" the one judged against it: ratios are B over A, "appeared" means
in B and not in A, "worse" means B is worse than A.
"""

from typing import Any, Literal, Optional

from pydantic import Field

from advisor.models.common import Severity, StrictModel

Side = Literal["a", "b"]


class ReportSide(StrictModel):
    """Where one side came from and what it holds, so a reader knows what was compared with what."""

    label: str  # "A" / "B"
    source: str  # the path given on the command line, or "<stdin>"
    #: "report" for a gpu-advisor JSON report, "text" for pasted collect_env / nvidia-smi -q output.
    origin: Literal["report", "text"]
    command: str  # the command that made the report: diagnose / env / explain ...
    created_utc: str
    tool_version: str
    sources: list[str] = Field(default_factory=list)
    #: One line naming the machine: "torch 2.11.0+cu130 · driver 580.159.04 · NVIDIA H200".
    summary: str = ""
    redacted: bool = False
    #: True when the rules were run again on this side's facts by this gpu-advisor (its saved findings replaced).
    re_evaluated: bool = False
    #: Findings the saved report carried before re-evaluation (None for pasted text, which carries none).
    saved_findings: Optional[int] = None
    findings: int = 0
    skipped_rules: int = 0
    #: Whether this side holds measurements at all (env reports and pasted text do not).
    measured: bool = False
    #: The measurement run's own notes ("GPU measurements skipped: ..."): why numbers are missing.
    measurement_notes: list[str] = Field(default_factory=list)


class FactDifference(StrictModel):
    """A fact both sides recorded, with different values."""

    path: str  # dotted fact path; list items by index: "gpus[0].name", "env.CUDA_VISIBLE_DEVICES"
    a: Any = None
    b: Any = None
    #: For list-valued facts (cpu_flags, arch_list): items only in B, and items only in A.
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    note: str = ""


class FactOnOneSide(StrictModel):
    """A fact recorded on one side only: not a difference in value, and never counted as one."""

    path: str
    side: Side  # the side that has a value
    value: Any = None
    #: Why the other side has none: its Unavailable reason, or "not listed".
    missing_reason: str


class FactNotCompared(StrictModel):
    """A fact whose value is a redaction placeholder on one side and plain text on the other."""

    path: str
    reason: str


class FactsComparison(StrictModel):
    differences: list[FactDifference] = Field(default_factory=list)
    one_sided: list[FactOnOneSide] = Field(default_factory=list)
    not_compared: list[FactNotCompared] = Field(default_factory=list)
    #: The fact paths left out of the comparison and why (``advisor.compare.ignored``), so the output says so.
    ignored: dict[str, str] = Field(default_factory=dict)


Verdict = Literal["better", "worse", "similar", "changed", "unclear", "only_a", "only_b"]


class MeasurementChange(StrictModel):
    """One measured number on both sides (or on one, with why the other has none)."""

    group: str  # "Overheads", "Peak throughput", "Host<->device bandwidth", "Crossover sizes", ...
    name: str  # "launch of a tiny op (host)", "matmul float32 (resident)"
    unit: str
    #: True: a larger number is better (bandwidth); False: smaller is better (latency, crossover size);
    #: None: neither (a demonstration factor), so the verdict can only be "changed" or "similar".
    higher_is_better: Optional[bool] = None
    a: Optional[float] = None
    b: Optional[float] = None
    a_text: str = ""
    b_text: str = ""
    #: B over A, when both are numbers.
    ratio: Optional[float] = None
    #: How much worse B is than A, as a fraction of A (negative: better). Bounds give the least it can be.
    worse_by: Optional[float] = None
    verdict: Verdict = "similar"
    #: A timing that did not settle (stats.stable False) or was observed only once, on either side.
    noisy: bool = False
    note: str = ""
    #: Worse by more than the threshold and the measured spread, and not noisy: what --fail-on counts.
    regression: bool = False


FindingChangeKind = Literal["appeared", "disappeared", "persists"]


class FindingChange(StrictModel):
    rule_id: str
    gpu_index: Optional[int] = None
    #: "path:line" for lint findings, so two findings of one check in different places stay apart.
    location: Optional[str] = None
    title: str
    change: FindingChangeKind
    severity_a: Optional[Severity] = None
    severity_b: Optional[Severity] = None
    #: The message of the side that has the finding (B's when both do).
    message: str = ""
    #: Set when the side without the finding could not evaluate the rule: absent there is "undecided", not "fixed".
    undecided_reason: Optional[str] = None
    regression: bool = False


class Comparison(StrictModel):
    a: ReportSide
    b: ReportSide
    #: The relative change that counts as better or worse (and, with --fail-on, as a regression).
    threshold: float
    #: Findings at or above this severity appearing in B count as regressions.
    regression_severity: Severity = Severity.medium
    facts: FactsComparison = Field(default_factory=FactsComparison)
    measurements: list[MeasurementChange] = Field(default_factory=list)
    #: Why measurements were not compared at all (a side holds none), when that is the case.
    measurements_note: str = ""
    findings: list[FindingChange] = Field(default_factory=list)
    #: One line per regression, in words; empty when B is no worse than A.
    regressions: list[str] = Field(default_factory=list)
