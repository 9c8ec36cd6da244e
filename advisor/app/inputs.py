"""Reading what a user hands in: a saved JSON report, or pasted collect_env / nvidia-smi -q text. No torch."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.app.errors import AdvisorError
from advisor.models.report import Report

MAX_INPUT_BYTES = 20 * 2**20


def read_input(path: str) -> tuple[str, str]:
    """(the text, its name for messages) of a file, or of stdin for ``-``."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    file = Path(path)
    try:
        if file.stat().st_size > MAX_INPUT_BYTES:
            raise AdvisorError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB; not a report")
        raw = file.read_bytes()
    except FileNotFoundError:
        raise AdvisorError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AdvisorError(f"{path}: is a directory, expected a report file") from None
    except OSError as exc:
        raise AdvisorError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8-sig"), path
    except UnicodeDecodeError:
        # Windows PowerShell's `>` writes UTF-16; anything else undecodable is not text.
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return raw.decode("utf-16"), path
        raise AdvisorError(
            f"{path}: not a text file (expected a JSON report, collect_env or nvidia-smi -q output)") from None


def load_any_report(path: str) -> Report:
    """A Report from a gpu-advisor JSON report, collect_env text, nvidia-smi -q text, or both texts together."""
    from advisor.models.load import ReportLoadError, load_report_json, looks_like_json

    text, source = read_input(path)
    if not text.strip():
        raise AdvisorError(f"{source}: empty input (expected a JSON report, collect_env or nvidia-smi -q output)")
    if looks_like_json(text):
        try:
            return load_report_json(text, source)
        except ReportLoadError as exc:
            raise AdvisorError(str(exc)) from None
    from advisor.app.reports import new_meta
    from advisor.ingest import facts_from_text
    from advisor.ingest.errors import UnrecognisedInput

    try:
        facts, kinds = facts_from_text(text, source)
    except UnrecognisedInput as exc:
        raise AdvisorError(f"{source}: {exc}") from None
    return Report(meta=new_meta("explain", [f"{kind} ({source})" for kind in kinds]), facts=facts)
