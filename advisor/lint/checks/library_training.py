"""A library trainer that ran before a timed region: ``trainer = Seq2SeqTrainer(model=model, ...)``,
``trainer.train()``, then ``start = time.time(); model.generate(x)``. The trainer ran the model on the GPU (Hugging
Face's and Lightning's trainers pick it when one is there), so CUDA, cuBLAS and cuDNN are warm by the time the clock
starts: the timed region is not the program's first CUDA work. Shared by GA102."""

from __future__ import annotations

import ast

from advisor.lint.names import last_identifier

_RUNS = frozenset({"train", "fit"})


def trained_before(ctx, region) -> bool:
    """Did ``trainer.train()`` / ``trainer.fit(...)`` of a ``*Trainer`` object run earlier in the region's scope?"""
    start = region.open
    if start is None:
        return False
    for call in ctx.calls_in(region.scope):
        func = call.func
        if call.lineno < start.lineno and isinstance(func, ast.Attribute) and func.attr in _RUNS \
                and isinstance(func.value, ast.Name) and _a_trainer(ctx, func.value.id):
            return True
    return False


def _a_trainer(ctx, name: str) -> bool:
    values = ctx.index.assigned_values.get(name, [])
    return bool(values) and all(isinstance(v, ast.Call) and last_identifier(v.func).endswith("Trainer")
                                for v in values)
