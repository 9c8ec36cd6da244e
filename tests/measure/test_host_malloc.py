"""glibc's malloc is held in one state for the measurements (advisor/measure/host_malloc.py says why)."""

from __future__ import annotations

import platform

from advisor.measure.host_malloc import settle_host_malloc


def test_settling_is_idempotent_and_succeeds_on_glibc():
    first, second = settle_host_malloc(), settle_host_malloc()
    assert first == second
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert first is True
