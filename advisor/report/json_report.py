"""JSON: the Report model itself, loadable again with ``gpu-advisor explain``."""

from __future__ import annotations

from advisor.models.report import Report


def render_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"
