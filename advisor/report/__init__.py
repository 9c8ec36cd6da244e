"""Reporters: they only read a Report. No torch, no pynvml, no decisions about content."""

FORMATS = ("terminal", "markdown", "json")
