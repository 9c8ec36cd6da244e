"""Reading what a user hands in: a saved JSON report, or pasted collect_env / nvidia-smi -q text. No torch."""

from __future__ import annotations

from advisor.app.errors import AdvisorError
from advisor.models.report import Report

MAX_INPUT_BYTES = 20 * 2**20


def read_input(path: str) -> tuple[str, str]:
    """(the text, its name for messages) of a file, or of stdin for ``-``: read capped and never blocking
    (a FIFO, /dev/zero or a symlink to them is refused: see safe_io)."""
    from advisor.safe_io import InputRefused, read_capped, read_stdin_capped

    source = "<stdin>" if path == "-" else path
    try:
        raw = read_stdin_capped(MAX_INPUT_BYTES) if path == "-" else read_capped(path, MAX_INPUT_BYTES)
    except InputRefused as exc:
        raise AdvisorError(f"{source}: {exc}") from None
    return decode_input(raw, source), source


def decode_input(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Windows PowerShell's `>` writes UTF-16; anything else undecodable (stdin included) is not text.
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            try:
                return raw.decode("utf-16")
            except UnicodeDecodeError:
                pass
        raise AdvisorError(
            f"{source}: not a text file (expected a JSON report, collect_env or nvidia-smi -q output)") from None


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
