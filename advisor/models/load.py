"""Reading a saved JSON report back, with a clear error for anything that is not one this version can read."""

from __future__ import annotations

import json

from pydantic import ValidationError

from advisor.formatting import plural
from advisor.models.report import SCHEMA_VERSION, Report

#: Schema versions this version of gpu-advisor can read (older ones are upgraded on load).
READABLE_SCHEMA_VERSIONS = (1,)


class ReportLoadError(ValueError):
    pass


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def load_report_json(text: str, source: str = "report") -> Report:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportLoadError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                              "was the file truncated?") from None
    if not isinstance(data, dict) or "schema_version" not in data or "meta" not in data:
        raise ReportLoadError(f"{source}: JSON but not a gpu-advisor report (no schema_version/meta); "
                              "create one with `gpu-advisor diagnose --format json`")
    version = data["schema_version"]
    if version not in READABLE_SCHEMA_VERSIONS:
        newer = isinstance(version, int) and version > SCHEMA_VERSION
        hint = "upgrade gpu-advisor to read it" if newer else "regenerate it with this version"
        raise ReportLoadError(f"{source}: report schema version {version!r} is not one this gpu-advisor reads "
                              f"({', '.join(map(str, READABLE_SCHEMA_VERSIONS))}); {hint}")
    try:
        return Report.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise ReportLoadError(f"{source}: malformed report at {where}: {error['msg']} "
                              f"({plural(exc.error_count(), 'problem')} in all)") from None
