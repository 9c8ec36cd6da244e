"""Every table a report shows, in order. Reporters render these; they decide nothing about content."""

from __future__ import annotations

from advisor.models.report import Report
from advisor.report.fact_sections import Section, fact_sections


def report_sections(report: Report) -> list[Section]:
    if report.profile is not None:  # a profiled program: its own sections (the machine facts were not probed)
        from advisor.report.profile_sections import profile_sections

        return profile_sections(report.profile)
    from advisor.report.fleet_sections import fleet_sections
    from advisor.report.measurement_sections import measurement_sections
    from advisor.report.recommendation_sections import recommendation_sections

    return [*fleet_sections(report.fleet), *recommendation_sections(report.recommendations),
            *measurement_sections(report.measurements), *fact_sections(report.facts, report.meta.sources)]
