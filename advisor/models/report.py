"""The Report: one model every producer fills and every reporter only reads."""

from typing import Optional

from pydantic import Field

from advisor.models.common import StrictModel
from advisor.models.facts import Facts
from advisor.models.findings import Finding, SkippedRule
from advisor.models.fleet import Fleet
from advisor.models.measurements import Measurements
from advisor.models.profile import ProfileFacts
from advisor.models.recommendations import Recommendation

#: Bump on any change a reader of an older report must know about; ``advisor.models.load`` lists readable ones.
SCHEMA_VERSION = 1


class ReportMeta(StrictModel):
    tool_version: str
    command: str  # env / diagnose / explain ...
    created_utc: str  # ISO 8601
    #: Where the facts came from: "probe", "collect_env text", "nvidia-smi -q text", "report.json".
    sources: list[str] = Field(default_factory=list)
    redacted: bool = False
    wall_s: Optional[float] = None


class Report(StrictModel):
    schema_version: int = SCHEMA_VERSION
    meta: ReportMeta
    facts: Facts = Field(default_factory=Facts)
    measurements: Measurements = Field(default_factory=Measurements)
    findings: list[Finding] = Field(default_factory=list)
    skipped: list[SkippedRule] = Field(default_factory=list)
    recommendations: list[Recommendation] = Field(default_factory=list)
    #: A whole torch.distributed job (``gpu-advisor cluster``): every rank's summary, gathered on rank 0.
    fleet: Optional[Fleet] = None
    #: Set by `gpu-advisor profile`: the user's own program, summarised from its trace.
    profile: Optional[ProfileFacts] = None
