"""The profile child's record of WHERE in the user's code things happen: the line that called the model, the
lines the host sampler lands on, the lines that synchronised (from set_sync_debug_mode's warnings) and the lines
that waited for data. A mixin of the recorder (child_recorder.py); loaded by ``bootstrap.py`` by file path, after
``child_support`` and ``child_cudnn``.

Standard library only here (torch comes through the recorder): the program's interpreter may have nothing else.
"""

import os
import sys
import time

from _gpu_advisor_child_cudnn import note_conv  # noqa: E402
from _gpu_advisor_child_support import _ORIGINAL_SHOWWARNING  # noqa: E402


def site_key(frame):
    """``path:line:function`` of a frame: the key every site table uses, and the parent parses."""
    return f"{frame.f_code.co_filename}:{frame.f_lineno}:{frame.f_code.co_name}"


class SiteRecorder:
    """Needs from the recorder: ``user_roots``, ``user_file_cache``, ``sampling``, ``phase``, ``convs``,
    ``module_depth``, ``module_sites``, ``host_samples``, ``sync_sites``, ``data_sites``."""

    # -- where in the user's code ----------------------------------------------------------------------
    def is_user_file(self, filename):
        """Cached per name: the sampler asks for each frame of the stack every 2 ms of CPU (realpath is slow)."""
        known = self.user_file_cache.get(filename)
        if known is None:
            known = self.user_file_cache[filename] = self._is_user_file(filename)
        return known

    def _is_user_file(self, filename):
        path = os.path.realpath(filename)
        if "site-packages" in path or "dist-packages" in path or path.startswith(sys.prefix + os.sep + "lib"):
            return False
        return any(path == root or path.startswith(root + os.sep) for root in self.user_roots)

    def user_frame(self, frame):
        # No call per frame (a cached name is looked up with `in` and a subscript): the profiler's Python tracer
        # records every call this makes, and the sampler runs it every 2 ms on stacks dozens of frames deep
        # (with a call per frame, 90% of a compiled CPU program's trace events were this function's).
        known = self.user_file_cache
        while frame is not None:
            filename = frame.f_code.co_filename
            if known[filename] if filename in known else self.is_user_file(filename):
                return frame
            frame = frame.f_back
        return None

    def on_module_call(self, module, args):
        """The user's line that called a top-level module (model(x)): the trace names only the module."""
        self.module_depth += 1
        if self.phase == "recording":
            try:
                note_conv(self.convs, module, args)
            except Exception:
                pass
        if self.module_depth == 1 and self.phase == "recording":
            frame = self.user_frame(sys._getframe(1))
            if frame is not None:
                key = site_key(frame)
                self.module_sites[key] = self.module_sites.get(key, 0) + 1

    def on_module_return(self, module, args, output):
        self.module_depth = max(self.module_depth - 1, 0)

    def on_sample(self, signum, frame):
        # A SIGPROF arriving while the last sample is noted is dropped: nested ones piled up into a RecursionError.
        if self.sampling:
            return
        self.sampling = True
        try:
            frame = self.user_frame(frame)
            if frame is not None:
                key = site_key(frame)
                self.host_samples[key] = self.host_samples[key] + 1 if key in self.host_samples else 1
        finally:
            self.sampling = False

    # -- syncs and data loading, with the user's line -------------------------------------------------------
    def on_warning(self, message, category, filename, lineno, file=None, line=None):
        text = str(message)
        if "synchronizing CUDA operation" in text and self.phase == "recording":
            frame = self.user_frame(sys._getframe(1))
            if frame is not None:
                key = site_key(frame)
                self.sync_sites[key] = self.sync_sites.get(key, 0) + 1
            return
        _ORIGINAL_SHOWWARNING(message, category, filename, lineno, file, line)

    def on_next(self, loader_iter, started, frame):
        if self.phase != "recording":
            return
        frame = self.user_frame(frame)
        where = site_key(frame) if frame else "?:0:?"
        site = self.data_sites.setdefault(where, {"count": 0, "seconds": 0.0,
                                                  "num_workers": getattr(loader_iter, "_num_workers", None),
                                                  "pin_memory": getattr(loader_iter, "_pin_memory", None)})
        site["count"] += 1
        site["seconds"] += time.perf_counter() - started

