"""--help that reads like a Unix tool's: ``--output FILE``, ``PATH...``, ``[DIR]``; never a Python type
(``<list[Path]>``, ``<bool>`` on a flag, ``{INPUT}``) and never a box that truncates or breaks words.

typer shows a parameter's Python type wherever it has no metavar. Every command is given ``PlainCommand``
(``cli.main.build_app`` does it), which names each value by its kind when the command did not, so an option a
command adds later cannot bring a type back into --help.
"""

from __future__ import annotations

import textwrap
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

try:  # typer >= 0.20 carries its own copy of click
    from typer._click.formatting import HelpFormatter
except ImportError:  # pragma: no cover -- typer on top of click
    from click.formatting import HelpFormatter  # type: ignore[no-redef]

_KIND_NAMES = {"int": "N", "float": "NUMBER", "Path": "PATH", "str": "TEXT"}


def _metavar_for(param: Any) -> str:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and descriptor.is_choice and descriptor.choices:
        return "|".join(str(getattr(choice, "value", choice)) for choice in descriptor.choices)
    annotation = getattr(descriptor, "annotation", None)
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    return _KIND_NAMES.get(getattr(annotation, "__name__", ""), (param.name or "value").upper())


def _wrap(text: str, width: int, indent: str = "", first_indent: str | None = None) -> list[str]:
    """Lines of at most ``width`` columns, broken at spaces only: never inside ``--fail-on`` or a path."""
    lines: list[str] = []
    for number, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
        if number:
            lines.append("")
        lines += textwrap.wrap(" ".join(paragraph.split()), width=max(width, 20), break_on_hyphens=False,
                               break_long_words=False, initial_indent=first_indent if first_indent is not None
                               and not lines else indent, subsequent_indent=indent)
    return lines


class PlainFormatter(HelpFormatter):
    """click's help layout, with lines broken at spaces only."""

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        self.write("\n".join(_wrap(text, self.width, indent)) + "\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [(first, second) for first, second in rows]
        first_col = min(max((len(first) for first, _ in rows), default=0), col_max) + col_spacing
        pad = " " * (first_col + self.current_indent)
        for first, second in rows:
            self.write(" " * self.current_indent + first)
            if not second:
                self.write("\n")
                continue
            if len(first) <= first_col - col_spacing:
                self.write(" " * (first_col - len(first)))
            else:
                self.write("\n" + pad)
            lines = _wrap(second, max(self.width - first_col - self.current_indent, 10))
            self.write(lines[0] + "\n" if lines else "\n")
            for line in lines[1:]:
                self.write((pad + line if line else "") + "\n")


class PlainContext(typer.Context):
    formatter_class = PlainFormatter


class PlainArgument(TyperArgument):
    """An argument shown as ``NAME`` (required), ``[NAME]`` (optional), ``NAME...`` (several), no type."""

    def _label(self) -> str:
        return self.metavar or (self.name or "arg").upper()

    def _usage_display_name(self) -> str:
        label = self._label()
        if label.startswith("[") or label.endswith("..."):
            return label
        name = label if self.required else f"[{label}]"
        return name + ("..." if self.nargs != 1 else "")

    def get_help_record(self, ctx: Any) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        help_text = record[1].replace("  [required]", "").replace("[required]", "")
        return self._usage_display_name(), help_text.strip()


class PlainGroup(TyperGroup):
    context_class = PlainContext

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Each command with its whole first paragraph of help, wrapped, never cut off with "..."."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                text = command.short_help or (command.help or "").split("\n\n")[0]
                rows.append((name, " ".join(text.split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class PlainCommand(TyperCommand):
    context_class = PlainContext

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperArgument) and not isinstance(param, PlainArgument):
                param.__class__ = PlainArgument
            elif isinstance(param, TyperOption) and not param.is_flag and param.metavar is None:
                param.metavar = _metavar_for(param)
        return params


def plain_help(app: Any) -> None:
    """Give every command of a typer app (and of its sub-apps) ``PlainCommand``, unless it chose a class."""
    if app.info.cls is None or app.info.cls is TyperGroup or getattr(app.info.cls, "value", 0) is None:
        app.info.cls = PlainGroup
    for info in app.registered_commands:
        if info.cls is None or info.cls is TyperCommand:
            info.cls = PlainCommand
    for group in app.registered_groups:
        if group.cls is None or group.cls is TyperGroup or getattr(group.cls, "value", 0) is None:
            group.cls = PlainGroup
        plain_help(group.typer_instance)
