"""Lint a project's files on several cores.

The files are independent, so a folder of many of them is split over worker processes (forked: they share the
already imported linter and start in milliseconds). Only where fork is the platform's safe default (Linux), and
only when there are enough files to pay for the workers; anything that goes wrong with the pool (a worker
killed, no fork) falls back to linting in this process, so the answer never depends on it.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, Optional, TypeVar

T = TypeVar("T")
R = TypeVar("R")
MIN_FILES_PER_WORKER = 8  # below this a worker costs more than it saves (a file takes milliseconds)


def available_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(files: int, jobs: Optional[int]) -> int:
    """How many processes to use: ``jobs`` when given (1: this process only), else one per core, with at least
    MIN_FILES_PER_WORKER files each."""
    if jobs is not None:
        return max(1, min(jobs, files))
    if sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(available_cores(), files // MIN_FILES_PER_WORKER))


def map_in_order(function: Callable[[T], R], items: list[T], workers: int) -> Iterable[R]:
    """``map(function, items)``, on ``workers`` forked processes when that is more than one."""
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return map(function, items)
    gc.freeze()  # the objects the workers inherit: their collections never walk them, so never copy their pages
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(function, items, chunksize=max(1, len(items) // (workers * 4))))
    except Exception:  # a broken pool (a worker killed, fork refused): the same work here, one file at a time
        return map(function, items)
    finally:
        gc.unfreeze()
