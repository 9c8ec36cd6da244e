"""Pydantic models of the report. Importing this package never imports torch or pynvml."""

from advisor.models.common import Confidence, Fact, Severity, Unavailable, is_missing, missing
from advisor.models.facts import (
    DriverFacts,
    EnvFacts,
    Facts,
    GpuFacts,
    GpuProcess,
    HostFacts,
    TorchDevice,
    TorchFacts,
    TorchSettings,
)
from advisor.models.findings import Finding, SkippedRule, SourceLocation
from advisor.models.measurements import Measurements
from advisor.models.recommendations import Recommendation
from advisor.models.report import SCHEMA_VERSION, Report, ReportMeta

__all__ = [
    "Confidence", "DriverFacts", "EnvFacts", "Fact", "Facts", "Finding", "GpuFacts", "GpuProcess",
    "HostFacts", "Measurements", "Recommendation", "Report", "ReportMeta", "SCHEMA_VERSION", "Severity",
    "SkippedRule", "SourceLocation", "TorchDevice", "TorchFacts", "TorchSettings", "Unavailable",
    "is_missing", "missing",
]
