"""The bootstrap's host sampler (SIGPROF every 2 ms of CPU, child_sites.SiteRecorder.on_sample, which the recorder
inherits), loaded by file path
as the program's interpreter loads it: a sample arriving while the last one is still being noted is dropped, not
nested (nested handlers once piled up into a RecursionError inside a compiled program), and a file's place
(the user's or not) is resolved once."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

PROFILE = Path(__file__).resolve().parents[2] / "advisor" / "profile"


@pytest.fixture()
def recorder_class():
    loaded = []
    for name in ("child_support", "child_cudnn", "child_sites", "child_recorder"):  # the bootstrap's order and names
        spec = importlib.util.spec_from_file_location(f"_gpu_advisor_{name}", PROFILE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        loaded.append(spec.name)
        spec.loader.exec_module(module)
    yield sys.modules["_gpu_advisor_child_recorder"].Recorder
    for name in loaded:
        sys.modules.pop(name, None)


def test_a_sample_arriving_inside_a_sample_is_dropped(recorder_class, tmp_path: Path, monkeypatch) -> None:
    recorder = recorder_class({"out_dir": str(tmp_path), "user_roots": [os.path.dirname(__file__)]})
    here = sys._getframe()
    inner_calls = []
    original = recorder.user_frame

    def slow_user_frame(frame):
        if not inner_calls:  # the next SIGPROF fires while this sample is being noted
            inner_calls.append(1)
            recorder.on_sample(None, frame)
        return original(frame)

    monkeypatch.setattr(recorder, "user_frame", slow_user_frame)
    recorder.on_sample(None, here)
    assert inner_calls == [1]
    assert sum(recorder.host_samples.values()) == 1  # the outer sample only
    assert list(recorder.host_samples)[0].startswith(f"{__file__}:")
    recorder.on_sample(None, here)  # and sampling goes on afterwards
    assert sum(recorder.host_samples.values()) == 2


def test_a_file_is_resolved_once(recorder_class, tmp_path: Path, monkeypatch) -> None:
    recorder = recorder_class({"out_dir": str(tmp_path), "user_roots": [str(tmp_path)]})
    resolved = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda path: resolved.append(path) or real(path))
    mine, theirs = str(tmp_path / "train.py"), os.__file__
    assert [recorder.is_user_file(mine), recorder.is_user_file(theirs)] == [True, False]
    assert [recorder.is_user_file(mine), recorder.is_user_file(theirs)] == [True, False]
    assert resolved == [mine, theirs]


def test_a_sample_makes_no_call_per_frame_of_the_stack(recorder_class, tmp_path: Path) -> None:
    """The profiler's Python tracer records every call the sampler makes: on a stack of known files a sample is
    two calls (on_sample, user_frame), however deep the stack, not a few per frame (once 90% of a compiled program's trace)."""
    recorder = recorder_class({"out_dir": str(tmp_path), "user_roots": [str(tmp_path)]})  # no user frame: a full walk

    def deep(n):
        return deep(n - 1) if n else sys._getframe()

    stack = deep(30)
    recorder.on_sample(None, stack)  # each file name resolved once
    calls = []

    def note(frame, event, arg):
        if event == "call" or (event == "c_call" and arg is not sys.setprofile):
            calls.append(event)

    sys.setprofile(note)
    try:
        recorder.on_sample(None, stack)
    finally:
        sys.setprofile(None)
    assert calls == ["call", "call"]  # on_sample and user_frame themselves
    assert recorder.host_samples == {}
