"""Reading a saved JSON report back, with a clear error for anything that is not one this version can read."""

from __future__ import annotations

import json
import math

from pydantic import ValidationError

from advisor.formatting import plural
from advisor.models.report import SCHEMA_VERSION, Report

#: Schema versions this version of gpu-advisor can read (older ones are upgraded on load).
READABLE_SCHEMA_VERSIONS = (1,)


class ReportLoadError(ValueError):
    pass


def _refuse_constant(name: str) -> float:
    # NaN and Infinity are not JSON; our reports never hold them, and every number downstream trusts finiteness.
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 parses as inf
        raise ValueError(f"number {text[:40]} is out of range")
    return value


#: No count, size or id in a report comes near 2**64; a larger integer only overflows the float conversions
#: of the readers (human_bytes of a 400-digit memory size).
_MAX_INT = 2**64


def _sane_int(text: str) -> int:
    if len(text) > 40:
        raise ValueError(f"integer of {len(text)} digits is out of range")
    value = int(text)
    if abs(value) > _MAX_INT:
        raise ValueError(f"integer {text[:24]}... is out of range")
    return value


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def load_report_json(text: str, source: str = "report") -> Report:
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float,
                          parse_int=_sane_int)
    except json.JSONDecodeError as exc:
        raise ReportLoadError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                              "was the file truncated?") from None
    except RecursionError:
        raise ReportLoadError(f"{source}: JSON nested too deeply to be a gpu-advisor report") from None
    except ValueError as exc:  # an integer past Python's 4300-digit limit, NaN/Infinity
        raise ReportLoadError(f"{source}: not a gpu-advisor report ({str(exc).split(';')[0]})") from None
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
    except RecursionError:
        raise ReportLoadError(f"{source}: malformed report (nested too deeply)") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise ReportLoadError(f"{source}: malformed report at {where}: {error['msg']} "
                              f"({plural(exc.error_count(), 'problem')} in all)") from None
