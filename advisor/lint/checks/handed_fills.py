"""``def to_var(x): return Variable(x.cuda())`` called as ``to_var(torch.ones(batch_size))``: a fill made on the CPU
only to be handed to the file's own helper that copies it to the GPU (GA104, at the factory in the call)."""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional

from advisor.lint.checks.common import short, where
from advisor.lint.flow import FRESH
from advisor.lint.flow.scopes import passed_at
from advisor.lint.model import Hit


def fills_handed_in(ctx, copy: ast.Call, parameter: str, factory_of: Callable[..., Optional[ast.Call]],
                    literal: Callable[..., bool]) -> Iterator[Hit]:
    """Each call of the helper holding ``copy`` (``parameter.cuda()``) that passes a fill just made for it."""
    info = ctx.function_of(copy)
    if info is None:
        return
    for site in ctx.call_sites(info):
        passed = passed_at(site, info, parameter)
        if passed is None or not ctx.kind(passed) & FRESH:
            continue
        factory = factory_of(ctx, passed)
        if factory is not None and not literal(ctx, factory):
            yield Hit(f"{short(factory)} is made on the CPU only to be copied to the GPU by {info.name}() "
                      f"({short(copy)}, {where(ctx, copy)}); create it with device= on the GPU instead",
                      node=factory, evidence={"created": short(factory), "copied": short(copy)})
