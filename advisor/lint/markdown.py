"""Lint findings as Markdown for one GitHub/GitLab comment: the count first, then each finding with its place,
what it costs (once per check) and the fix; past one comment's length the rest is left to the JSON/SARIF."""

from __future__ import annotations

import re

from advisor.lint.model import LintRun

#: GitHub rejects comments over 65,536 characters; keep room for the user's own words.
COMMENT_LIMIT = 60_000
#: What Markdown or GitHub's HTML would act on inside a line of text; "_" only at a word's edge (GitHub never
#: reads CUDA_LAUNCH_BLOCKING's underscores as emphasis), "~" only doubled (strikethrough).
_SPECIAL = re.compile(r"[\\`*\[\]<|&]|~~|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_MARK = {"high": "🔴 high", "medium": "🟠 medium", "low": "🟡 low", "info": "🔵 info"}


def _text(value: str) -> str:
    return _SPECIAL.sub(lambda m: "".join("\\" + c for c in m.group(0)), value.replace("\n", " "))


def _code(value: str) -> str:
    fence = "``" if "`" in value else "`"
    return f"{fence} {value} {fence}" if fence == "``" else f"`{value}`"


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def render_markdown(run: LintRun) -> str:
    head = [f"### gpu-advisor lint: {_plural(len(run.findings), 'finding')} in {_plural(run.files_checked, 'file')}",
            ""]
    body: list[str] = []
    explained: set[tuple[str, str]] = set()
    for finding in run.findings:
        entry = [f"- **{_MARK[finding.severity.value]}** · {_code(finding.check_id)} · {_code(finding.location)} · "
                 f"{finding.confidence.value}  ", f"  **{_text(finding.title)}.** {_text(finding.message)}  "]
        if (finding.check_id, finding.cost) not in explained:
            explained.add((finding.check_id, finding.cost))
            entry.append(f"  *Cost:* {_text(finding.cost)}  ")
        entry.append(f"  *Fix:* {_text(finding.fix)}")
        body.extend(entry)
    if not run.findings:
        body.append("No findings.")
    tail = [""]
    if run.notes:
        tail += [f"<details><summary>Not checked ({len(run.notes)})</summary>", ""]
        tail += [f"- {_code(note.path)}: {_text(note.reason)}" for note in run.notes] + ["", "</details>", ""]
    text = "\n".join(head + body + tail)
    if len(text) <= COMMENT_LIMIT:
        return text
    kept, size = [], len("\n".join(head)) + 200
    for line in body:
        if size + len(line) + 1 > COMMENT_LIMIT:
            break
        kept.append(line)
        size += len(line) + 1
    while kept and not kept[-1].startswith("  *Fix:*"):  # end on a whole finding
        kept.pop()
    shown = sum(1 for line in kept if line.startswith("- **"))
    return "\n".join(head + kept + ["", f"_({shown} of {len(run.findings)} findings shown to fit one comment; "
                                        "`--format json` or `--format sarif` holds them all)_", ""])
