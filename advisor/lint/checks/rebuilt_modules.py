"""GA105's rebuilt transforms: a transform module made from the same arguments and moved to the GPU on every
iteration (``mel = torchaudio.transforms.MelSpectrogram(sample_rate=16000, n_mels=128).to(device)`` in a helper the
batch loop calls). Each time its window and filter bank are built on the CPU and copied again, the same bytes as
the time before: build it once, outside the loop, and reuse it."""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short, where
from advisor.lint.checks.invariant import is_literal
from advisor.lint.model import Hit

_TRANSFORMS = (*api.TRANSFORM_MODULES, "kornia.")  # (and kornia's augmentation modules)


def rebuilt_transforms(ctx, why_repeated: Callable) -> Iterator[Hit]:
    """``why_repeated(ctx, info, 0, set())``: GA105's 'which runs in the loop at line N' for a function, or None."""
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and isinstance(func.value, ast.Call)):
            continue
        built = func.value
        name = ctx.qual(built.func) or ""
        last = name.rsplit(".", 1)[-1]
        if not name.startswith(_TRANSFORMS) or not last[:1].isupper() \
                or not (built.args or built.keywords or last in _WINDOWED) or not _fixed_arguments(ctx, built):
            continue  # (a class built from arguments -- its window, filter bank: not to_tensor(), not AmplitudeToDB())
        reason = _repeated(ctx, call, why_repeated)
        if reason is not None:
            yield Hit(f"{short(call)} builds the same {short(built.func, 40)} from the same arguments and copies it "
                      f"to the GPU again {reason}", node=call,
                      fix="Build it once, before the loop (or at module level), move it once, and reuse it.")


# torchaudio transforms that hold a window or a filter bank even built with no arguments (Spectrogram(): a Hann window)
_WINDOWED = frozenset({"Spectrogram", "MelSpectrogram", "MFCC", "LFCC", "MelScale", "InverseMelScale", "GriffinLim",
                       "InverseSpectrogram", "Resample"})


def _fixed_arguments(ctx, built: ast.Call) -> bool:
    """Literals, or names the program never rebinds inside a function (settings): the same module every time."""
    values = list(built.args) + [k.value for k in built.keywords]
    return all(is_literal(v) or isinstance(v, (ast.Name, ast.Attribute)) and ctx.qual(v) is None
               and not _varies(ctx, v, built) for v in values)


def _varies(ctx, value: ast.AST, built: ast.Call) -> bool:
    """A name bound in the enclosing loop (its item, a value computed per iteration), or a parameter of the function
    that builds it (each call may hand another)."""
    if not isinstance(value, ast.Name):
        return False
    info = ctx.function_of(built)
    if info is not None and value.id in info.positional + info.keyword_only:
        return True
    return any(value.id in ctx.assigned_in(loop) for loop in ctx.index.enclosing_loops(built))


def _repeated(ctx, call: ast.Call, why_repeated: Callable) -> Optional[str]:
    """'on every iteration of the loop at line N' / 'on every call of f(), which runs in the loop at line N'."""
    loops = ctx.index.enclosing_loops(call)
    if loops:
        return None if ctx.is_sweep(loops[0]) else f"on every iteration of the loop at {where(ctx, loops[0])}"
    info = ctx.function_of(call)
    reason = why_repeated(ctx, info, 0, set()) if info is not None else None
    return f"on every call of {info.name}(), {reason}" if reason else None
