"""The one place that scrubs private data from a report before it is shown or saved.

Reports are meant to be pasted in public, so redaction is on by default: user and host names, home
directories, IP and MAC addresses, e-mail addresses, GPU/MIG UUIDs and any UUID, serial numbers, and anything
that looks like an access token. Each distinct value gets a stable placeholder (``{uuid-1}``), so the report
still shows that two mentions are the same GPU.

Placeholders are spelled with braces (``{user}``, ``{uuid-2}``), never angle brackets: Markdown renderers such
as GitHub's read ``<user>`` as an HTML tag and drop it, so ``/home/<user>/cuda`` showed as ``/home//cuda``.
Braces mean nothing to CommonMark, GFM, rich or JSON. ``mark`` is the one place that spells them.
"""

from __future__ import annotations

import getpass
import re
import socket
from pathlib import Path
from typing import Any, Callable, Iterable

from advisor.models.report import Report


def mark(kind: str, number: int | None = None) -> str:
    """The placeholder written in place of a private value: ``{user}``, ``{uuid-2}``."""
    return "{" + kind + ("" if number is None else f"-{number}") + "}"


_USER = mark("user")
#: Placeholders as reports saved by earlier versions spell them; respelled whenever such a report is redacted.
_OLD_PLACEHOLDER = re.compile(r"<(uuid|ip|mac|email|serial|host|redacted|user|token|credentials)(?:-(\d+))?>")

_TOKEN_SOURCES = [
    r"hf_[A-Za-z0-9]{20,}",                       # Hugging Face
    r"gh[pousr]_[A-Za-z0-9]{20,}", r"github_pat_[A-Za-z0-9_]{20,}",
    r"sk-[A-Za-z0-9_\-]{20,}",                    # OpenAI-style keys
    r"AKIA[0-9A-Z]{16}",                          # AWS access key id
    r"xox[abprs]-[A-Za-z0-9\-]{10,}",             # Slack
    r"glpat-[A-Za-z0-9_\-]{20,}",                 # GitLab
    # JWT; starting only where a run of its characters starts keeps the search linear on "eyJeyJeyJ..."
    r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    r"(?<=[Bb]earer )[A-Za-z0-9._\-]{16,}",
]
_TOKEN = re.compile("|".join(f"(?:{p})" for p in _TOKEN_SOURCES))
_UUID = r"(?:GPU-|MIG-|GI-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_IPV4 = r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])"
_IPV6 = r"(?<![\w:])(?:[0-9a-fA-F]{1,4}:){4,7}[0-9a-fA-F]{1,4}(?![\w:])"
_MAC = r"(?<![\w:])(?:[0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}(?![\w:])"
#: The local part starts where its run of characters starts: tried from every position of a long run, the
#: search was quadratic.
_EMAIL = r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}"
#: A home folder's user name: up to the next separator, and spaces inside it when the path goes on after it
#: ("/home/alice smith/x.py"). Each alternative is linear: the spaced words are separated by exactly one space.
_HOME_PATHS = [
    (re.compile(r"(/home/|/Users/)([^/\s\"':]+(?: [^/\s\"':]+)*(?=/)|[^/\s\"':]+)"), r"\1" + _USER),
    (re.compile(r"([A-Za-z]:\\+(?:Users|Documents and Settings)\\+)"
                r"([^\\\s\"']+(?: [^\\\s\"']+)*(?=\\)|[^\\\s\"']+)", re.IGNORECASE), r"\1" + _USER),
]
#: user:password@ in a URL (https://, redis://, postgres://...): the whole user-info part goes.
_URL_CREDENTIALS = re.compile(r"://[^/\s@'\"<>]+@")
#: Fields whose whole value is private, whatever it looks like.
_PRIVATE_FIELDS = {"serial": "serial", "hostname": "host"}
#: Mappings whose values are version numbers (which can look like IPv4 addresses: nvidia-cublas 13.1.0.3).
_VERSION_MAPS = {"packages"}
#: Names too common to scrub as words (they would blank out ordinary text).
_TOO_COMMON = {"root", "user", "admin", "ubuntu", "localhost", "runner", "jovyan"}


class Redactor:
    def __init__(self, extra_words: Iterable[str] = ()) -> None:
        self._placeholders: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}
        words = {w for w in (_current_user(), *_current_hosts(), *extra_words) if w and len(w) >= 3}
        # Longest first: the full host name "gpu1.lab.example.com" before its first label "gpu1".
        self._words = sorted((w for w in words if w.lower() not in _TOO_COMMON), key=lambda w: (-len(w), w))
        home = str(Path.home())
        self._home = home if home not in ("/", "/root") and len(home) > 3 else None

    def add_words(self, words: Iterable[str]) -> None:
        """More names to scrub wherever they appear (too short or too common ones, and placeholders, are not)."""
        for word in words:
            if word[:1] in "{<" and word[-1:] in "}>":
                continue  # already a placeholder (a fleet report's "{host-1}")
            if word and len(word) >= 3 and word.lower() not in _TOO_COMMON and word not in self._words:
                self._words.append(word)
        self._words.sort(key=lambda w: (-len(w), w))

    def placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._placeholders:
            self._counters[kind] = self._counters.get(kind, 0) + 1
            self._placeholders[key] = mark(kind, self._counters[kind])
        return self._placeholders[key]

    def _sub(self, pattern: str, kind: str, text: str) -> str:
        return re.sub(pattern, lambda m: self.placeholder(kind, m.group(0)), text)

    def text(self, text: str, *, version: bool = False) -> str:
        """Scrub one string; ``version`` strings ("13.1.0.3") are never mistaken for IP addresses."""
        if len(text) < 3 or text.isalpha():  # "ok", "float32"-like words need no pattern; keep reports fast
            return self._words_only(text)
        if "<" in text:
            text = _OLD_PLACEHOLDER.sub(lambda m: mark(m.group(1), int(m.group(2)) if m.group(2) else None), text)
        if self._home:
            text = text.replace(self._home, "~")
        if "/" in text or "\\" in text:
            for pattern, replacement in _HOME_PATHS:
                for match in pattern.finditer(text):
                    name = match.group(2)
                    if name != _USER and name.lower() not in _TOO_COMMON and name not in self._words:
                        self._words.append(name)
                        self._words.sort(key=lambda w: (-len(w), w))
                text = pattern.sub(replacement, text)
        if len(text) >= 16:
            text = _TOKEN.sub(mark("token"), text)
        if "-" in text:
            text = self._sub(_UUID, "uuid", text)
        if "@" in text:
            if "://" in text:
                text = _URL_CREDENTIALS.sub("://" + mark("credentials") + "@", text)
            text = self._sub(_EMAIL, "email", text)
        if ":" in text:  # aa:bb:cc:dd:ee:ff has no digit at all, and no version number looks like one
            text = self._sub(_MAC, "mac", text)
        if not version and any(c.isdigit() for c in text):
            if ":" in text:
                text = self._sub(_IPV6, "ip", text)
            if "." in text:
                text = self._sub(_IPV4, "ip", text)
        return self._words_only(text)

    def _words_only(self, text: str) -> str:
        for word in self._words:
            if word in text:
                text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", mark("redacted"), text)
        return text

    def value(self, value: Any, key: str = "", *, versions: bool = False) -> Any:
        """Scrub a JSON value; ``versions``: the values of this mapping are version numbers (packages)."""
        if key in _PRIVATE_FIELDS and isinstance(value, str):
            return self.placeholder(_PRIVATE_FIELDS[key], value)
        if isinstance(value, str):
            return self.text(value, version=versions or key == "version" or key.endswith("_version"))
        if isinstance(value, dict):
            # Keys are field names, allowlisted variable names, package names and dtypes: nothing private.
            inner = key in _VERSION_MAPS
            return {k: self.value(v, k, versions=inner) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(item, key) for item in value]
        return value


def _current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry inside some containers
        return ""


def _current_hosts() -> list[str]:
    try:
        name = socket.gethostname()
    except OSError:
        return []
    return [name, name.split(".")[0]]


def redact_report(report: Report, redactor_factory: Callable[[], Redactor] = Redactor) -> Report:
    """A copy of the report with private data replaced; ``meta.redacted`` says it was done.

    The report's own host name (another machine's, for a report or paste from elsewhere) is scrubbed wherever
    else it is mentioned too, whole and by its first label."""
    redactor = redactor_factory()
    hostname = report.facts.host.hostname
    if isinstance(hostname, str):
        redactor.add_words([hostname, hostname.split(".")[0]])
    scrubbed = redactor.value(report.model_dump(mode="json"))
    scrubbed["meta"]["redacted"] = True
    return Report.model_validate(scrubbed)


def redact_text(text: str) -> str:
    return Redactor().text(text)


def redact_lint_output(text: str) -> str:
    """Lint output (text, JSON or SARIF) scrubbed like a report. Placeholders hold no quote or backslash, so
    JSON stays JSON; SARIF's percent-encoded URIs still match the home-folder patterns."""
    return Redactor().text(text)
