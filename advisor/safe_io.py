"""Reading untrusted input and writing output files safely: every read capped, every write atomic.

Input reads never block and never run forever: a path is opened with O_NONBLOCK and checked with fstat on the
open descriptor (so a symlink swapped in between cannot change what is read); only regular files are read,
and at most ``limit`` bytes of them -- ``/dev/zero``, a FIFO, a socket or a directory is refused with a reason.
Standard input is read in chunks up to the same cap.

Output files are written to a temporary file in the same folder and renamed over the target, so a render that
fails half-way never leaves a truncated file (nor destroys the file that was there).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Optional, TextIO, Union

DEFAULT_LIMIT = 20 * 2**20
_CHUNK = 1 << 16


class InputRefused(ValueError):
    """Input that is not read: too large, not a regular file, unreadable. ``str()`` is one line."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_capped(path: Union[str, os.PathLike], limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; InputRefused otherwise (never blocks)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputRefused("no such file") from None
    except IsADirectoryError:
        raise InputRefused("is a directory") from None
    except OSError as exc:
        raise InputRefused(f"cannot read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputRefused(f"is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputRefused(f"larger than the {_human(limit)} limit")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            return _read_limited(handle, limit)
    except OSError as exc:
        raise InputRefused(f"cannot read ({exc.strerror or exc})") from None
    finally:
        if fd >= 0:
            os.close(fd)


def read_stream_capped(stream: BinaryIO, limit: int = DEFAULT_LIMIT) -> bytes:
    """Up to ``limit`` bytes from a stream (stdin); InputRefused when there is more."""
    try:
        return _read_limited(stream, limit)
    except OSError as exc:
        raise InputRefused(f"cannot read ({exc.strerror or exc})") from None


def read_stdin_capped(limit: int = DEFAULT_LIMIT) -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a test harness's text stdin
        return sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape")[: limit + 1]
    return read_stream_capped(stream, limit)


def _read_limited(handle: BinaryIO, limit: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = handle.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:  # a file that grew, /proc, a stream: the cap holds whatever fstat said
            raise InputRefused(f"larger than the {_human(limit)} limit")


def _human(size: int) -> str:
    return f"{size // 2**20} MiB" if size >= 2**20 else f"{size // 1024} KiB" if size >= 1024 else f"{size} bytes"


def is_dir(path: Union[str, os.PathLike]) -> bool:
    """Path.is_dir that answers False for a name the file system refuses (too long, a NUL byte) instead of
    raising: such a path is bad input, reported by the caller as a missing folder."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def same_file(a: Union[str, os.PathLike], b: Union[str, os.PathLike]) -> bool:
    """Whether two paths name one file (through links, case-insensitive file systems, ``./x`` vs ``x``)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        try:
            return Path(a).resolve() == Path(b).resolve()
        except (OSError, RuntimeError, ValueError):
            return False


def is_stdout(output: Optional[Union[str, os.PathLike]]) -> bool:
    """``-o -`` means standard output."""
    return output is not None and os.fspath(output) == "-"


def output_clashes(output: Union[str, os.PathLike], inputs: Iterable[Union[str, os.PathLike]]) -> Optional[str]:
    """The input that ``output`` would overwrite, if any (stdin, ``-``, is never one)."""
    for source in inputs:
        if os.fspath(source) != "-" and same_file(output, source):
            return os.fspath(source)
    return None


def write_atomic(path: Union[str, os.PathLike], write: Callable[[TextIO], None]) -> None:
    """Call ``write(handle)`` on a temporary file next to ``path``, then rename it over ``path``.

    Any exception (OSError included) leaves ``path`` as it was and removes the temporary file. An existing
    file's permission bits are kept; a new one gets the usual 0666 & ~umask (mkstemp would make it 0600).
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(target))
    directory = target.parent if str(target.parent) else Path(".")
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp_name, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            fd = -1
            write(handle)
        os.replace(temp_name, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        raise


def write_text_atomic(path: Union[str, os.PathLike], text: str) -> None:
    write_atomic(path, lambda handle: handle.write(text))
