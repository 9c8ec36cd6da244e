"""The measurements of a report as titled tables (filled in as measurements are added)."""

from __future__ import annotations

from advisor.models.measurements import Measurements
from advisor.report.fact_sections import Section


def measurement_sections(measurements: Measurements) -> list[Section]:
    return []
