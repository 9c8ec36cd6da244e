"""Every table a report shows, in order. Reporters render these; they decide nothing about content."""

from __future__ import annotations

import functools

from advisor.models.report import Report
from advisor.report.fact_sections import Section, fact_sections


def report_sections(report: Report) -> list[Section]:
    if report.profile is not None:  # a profiled program: its own sections (the machine facts were not probed)
        from advisor.report.profile_sections import profile_sections

        return profile_sections(report.profile)
    from advisor.report.fleet_sections import fleet_sections
    from advisor.report.measurement_sections import measurement_sections
    from advisor.report.recommendation_sections import recommendation_sections

    # A report with no facts at all (an OOM message explained offline) shows no tables of "not collected".
    facts = [] if not has_facts(report) else fact_sections(report.facts, report.meta.sources)
    from advisor.report.tidy import tidy_sections

    return tidy_sections([*fleet_sections(report.fleet), *recommendation_sections(report.recommendations),
                          *measurement_sections(report.measurements), *facts])


@functools.lru_cache(maxsize=1)
def _no_facts() -> str:
    from advisor.models.facts import Facts

    return Facts().model_dump_json()


def has_facts(report: Report) -> bool:
    """Whether anything about a machine was collected (a probe, a paste, a saved report), rather than none."""
    return report.facts.model_dump_json() != _no_facts()
