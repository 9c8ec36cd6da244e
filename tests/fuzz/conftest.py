"""Hypothesis profiles for the fuzz suite: a bounded, derandomised one for CI (the default) and --fuzz-long."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("fuzz-ci", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 20)), derandomize=True,
                          deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)
settings.register_profile("fuzz-long", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 2000)), derandomize=False,
                          deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)


def pytest_configure(config):
    settings.load_profile("fuzz-long" if config.getoption("--fuzz-long", default=False) else "fuzz-ci")
