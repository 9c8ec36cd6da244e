"""batch-size --model: the user's import and factory run under --budget, and ending the process is an error."""

from __future__ import annotations

import sys
import textwrap
import time

import pytest

from advisor.recommend.model_source import ModelSourceError, load_model

pytest.importorskip("torch")


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name: str, body: str) -> str:
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
        sys.modules.pop(name, None)
        return name

    return write


def test_slow_import_is_stopped_at_the_budget(user_module):
    name = user_module("slow_import_mod", "import time\ntime.sleep(60)\n")
    started = time.monotonic()
    with pytest.raises(ModelSourceError, match="did not finish within --budget"):
        load_model(f"{name}:build", time_limit_s=1.0)
    assert time.monotonic() - started < 15


def test_slow_factory_is_stopped_at_the_budget(user_module):
    name = user_module("slow_factory_mod", """
        import time
        def build():
            while True:
                time.sleep(0.05)
    """)
    with pytest.raises(ModelSourceError, match="calling the factory did not finish"):
        load_model(f"{name}:build", time_limit_s=1.0)


def test_factory_swallowing_exceptions_is_still_stopped(user_module):
    name = user_module("swallowing_mod", """
        import time
        def build():
            for _ in range(200):
                try:
                    time.sleep(0.05)
                except Exception:
                    pass
    """)
    with pytest.raises(ModelSourceError, match="within --budget"):
        load_model(f"{name}:build", time_limit_s=0.5)


@pytest.mark.parametrize("ending", ["os._exit(0)", "os.abort()", "sys.exit(0)"])
def test_factory_that_ends_the_process_is_an_error(user_module, ending):
    name = user_module(f"ending_mod_{abs(hash(ending))}", f"""
        import os, sys
        def build():
            {ending}
    """)
    with pytest.raises(ModelSourceError):
        load_model(f"{name}:build", time_limit_s=30)


def test_a_good_factory_loads_and_its_time_is_counted(user_module):
    name = user_module("good_mod", """
        import torch
        def build():
            return torch.nn.Linear(2, 2)
    """)
    loaded = load_model(f"{name}:build", time_limit_s=30)
    assert loaded.load_s >= 0 and loaded.model.in_features == 2


def test_the_guard_is_removed_afterwards(user_module):
    import os
    import signal

    name = user_module("plain_mod", "import torch\nmodel = torch.nn.Linear(1, 1)\n")
    exit_before, handler_before = os._exit, signal.getsignal(signal.SIGALRM)
    load_model(f"{name}:model", time_limit_s=30)
    assert os._exit is exit_before and signal.getsignal(signal.SIGALRM) is handler_before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
