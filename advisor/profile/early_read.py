"""Work on the trace while the program exits.

A program's own exit can take seconds (a torch.compile'd one spends ~2.5 s of its interpreter's final garbage
collection on dynamo's and inductor's objects, measured on a CPU), and before it the child has stopped the
profiler and exported the trace. The child marks the moment ``trace.json`` is final by creating a file beside
it (``TRACE_DONE``, named in the child's config); from then on the parent's tasks on the trace (parse it, keep a
compressed copy) run in threads of their own, while the parent's main thread waits for the child exactly as
before: the timeout, Ctrl-C and the killing of the process group are unchanged, and nothing is reported
before the child is gone.

No mark, no early work: a child that failed before or while exporting leaves the parent to read whatever is
there after it exited, as it always did.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

TRACE_DONE = "trace.done"
#: How often the parent looks for the mark: the delay before the early work starts, at most.
POLL_S = 0.02


class EarlyTask:
    """One piece of work on the final trace, run in its own thread; ``result()`` waits for it and returns its
    value or raises its exception in the caller's thread, where it would have been raised without the overlap."""

    def __init__(self, name: str, work: Callable[[Path], Any], trace: Path) -> None:
        self.name = name
        self.finished_at: Optional[float] = None
        self._work, self._trace = work, trace
        self._value: Any = None
        self._error: Optional[BaseException] = None
        # A daemon: a second Ctrl-C that ends gpu-advisor must not wait for a parse it no longer needs.
        self._thread = threading.Thread(target=self._run, name=f"gpu-advisor-early-{name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._work(self._trace)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread by result()
            self._error = exc
        self.finished_at = time.monotonic()

    def wait(self) -> None:
        self._thread.join()

    def result(self) -> Any:
        self.wait()
        if self._error is not None:
            raise self._error
        return self._value


class EarlyRead:
    """Watches for the child's mark and starts the tasks once it appears (each task: path of the trace -> value)."""

    def __init__(self, tasks: dict[str, Callable[[Path], Any]]) -> None:
        self.tasks = tasks
        self.started: dict[str, EarlyTask] = {}
        self._stop = threading.Event()
        self._watcher: Optional[threading.Thread] = None

    def watch(self, done_mark: Path, trace: Path) -> None:
        if not self.tasks:
            return
        self._watcher = threading.Thread(target=self._watch, args=(done_mark, trace), name="gpu-advisor-watch",
                                         daemon=True)
        self._watcher.start()

    def _watch(self, done_mark: Path, trace: Path) -> None:
        while not self._stop.wait(POLL_S):
            if done_mark.exists():
                for name, work in self.tasks.items():
                    self.started[name] = EarlyTask(name, work, trace)
                return

    def child_gone(self) -> None:
        """The child has exited: stop watching (a mark not seen by now leaves the reading to the caller)."""
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()

    def task(self, name: str) -> Optional[EarlyTask]:
        return self.started.get(name)

    def wait_all(self) -> None:
        """Before the work folder is removed: no task may still be reading or writing in it."""
        self.child_gone()
        for task in self.started.values():
            task.wait()

    def marks(self) -> list[tuple[str, float]]:
        """(task name, when it finished) for the run's timeline of phases."""
        return [(task.name, task.finished_at) for task in self.started.values() if task.finished_at is not None]
