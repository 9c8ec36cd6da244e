"""What "renders as written" means for the Markdown we print: rendered by a CommonMark renderer with GitHub's
extensions (tables, strikethrough, raw HTML on), no tag GitHub would strip, every redaction placeholder still
there, one comment long, the answer first."""

from __future__ import annotations

import html
import re

#: Tags markdown-it makes from Markdown, and the raw HTML our reports write on purpose (GitHub keeps these).
ALLOWED_TAGS = {
    "p", "ul", "ol", "li", "strong", "em", "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "a", "br",
    "hr", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "s", "del", "details", "summary", "sub", "sup", "img",
}
GITHUB_COMMENT_LIMIT = 65_536
PLACEHOLDER = re.compile(r"\{(?:uuid|ip|mac|email|serial|host|redacted|user|token|credentials)(?:-\d+)?\}")
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)[^>]*>")


def render_html(markdown: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(markdown)


def visible_text(rendered: str) -> str:
    return html.unescape(_TAG.sub(" ", rendered))


def markdown_problems(markdown: str) -> list[str]:
    """Why this Markdown would not show on GitHub what it says (empty when it would)."""
    problems = []
    if len(markdown) > GITHUB_COMMENT_LIMIT:
        problems.append(f"{len(markdown)} characters: longer than one GitHub comment")
    rendered = render_html(markdown)
    stripped = sorted({m.group(1).lower() for m in _TAG.finditer(rendered)} - ALLOWED_TAGS)
    if stripped:
        problems.append(f"HTML tags GitHub would strip (their text disappears): {', '.join(stripped)}")
    text = visible_text(rendered)
    for placeholder in sorted(set(PLACEHOLDER.findall(markdown))):
        if PLACEHOLDER.findall(text).count(placeholder) < markdown.count(placeholder):
            problems.append(f"placeholder {placeholder} does not survive rendering")
    if re.search(r"<(?:user|uuid|ip|host|serial|redacted|token|email|mac)(?:-\d+)?>", text):
        problems.append("an angle-bracket placeholder in the rendered text")
    return problems
