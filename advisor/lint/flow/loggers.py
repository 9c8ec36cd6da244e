"""Experiment loggers handed CUDA tensors: wandb.log({"loss": loss}), writer.add_scalar(tag, loss), run.log(...) of a
wandb run. A logger turns what it is handed into numbers, so it reads a CUDA tensor back to the host."""

from __future__ import annotations

import ast
from typing import Callable, Optional

from advisor.lint.flow.kinds import CONTAINER, CUDA_TENSOR

_DICT_LOGGERS = frozenset({"log", "log_metrics", "add_scalars"})  # their record is a dict


def run_logger(index, qual: Callable[[ast.AST], Optional[str]], func: ast.AST) -> Optional[str]:
    """``run.log({...})`` of ``run = wandb.init(...)``: wandb.log by another name."""
    if not (isinstance(func, ast.Attribute) and func.attr == "log" and isinstance(func.value, ast.Name)):
        return None
    made = index.assigned_values.get(func.value.id, [])
    return "wandb.log" if made and all(isinstance(v, ast.Call) and qual(v.func) == "wandb.init" for v in made) else None


def logs_cuda(qual: Callable[[ast.AST], Optional[str]], kind: Callable[[ast.AST], int], call: ast.Call) -> bool:
    """A logger is handed a CUDA tensor, or a dict or list holding one. A logger that takes a dict (wandb.log(d),
    writer.add_scalars(tag, d)) is handed a dict, never a bare tensor: a value the pass takes for one there is a
    helper's result guessed from its arguments (``wandb.log(get_logs(loss_item))``): only a dict of CUDA tensors."""
    func = call.func
    name = qual(func) or (func.attr if isinstance(func, ast.Attribute) else "")  # writer.add_scalars
    takes_dict = name.rsplit(".", 1)[-1] in _DICT_LOGGERS
    kinds = [kind(argument) for argument in list(call.args) + [k.value for k in call.keywords]]
    return any(k & CUDA_TENSOR and (k & CONTAINER or not takes_dict) for k in kinds)
