"""Metric and loss objects: what a metric's ``aggregate()`` / ``compute()`` returns, and what a loss object's methods
compute, lives where the tensors it was handed do."""

from __future__ import annotations

import ast
import re

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import CUDA_TENSOR
from advisor.lint.names import dotted, last_identifier


def fed_cuda(index, values: dict, metric: ast.AST) -> bool:
    """A metric object (MONAI's DiceMetric, a torchmetrics metric) that some call already handed CUDA tensors --
    ``metric(y_pred=out, y=y)`` or ``metric.update(out, y)``: what it aggregates is on the GPU. ``values``: the
    kinds the pass has given the nodes it evaluated so far."""
    name = dotted(metric)
    if name is None or not api.METRIC_NAME.search(name.rsplit(".", 1)[-1]):
        return False
    return any(dotted(call.func) in (name, name + ".update") and any(
        values.get(argument, 0) & CUDA_TENSOR for argument in list(call.args) + [k.value for k in call.keywords])
        for call in index.calls)


_LOSS_CLASS = re.compile(r"^[A-Z]\w*(Loss|Criterion)$")


def loss_object(index, receiver: ast.AST) -> bool:
    """``loss_function = BiEncoderNllLoss()`` of another module: an object every binding of which the file builds
    from a Loss- or Criterion-named class. Its methods (``loss_function.calc(q, ctx, ...)``) compute the loss from
    the tensors they are handed, on their device."""
    name = dotted(receiver)
    values = index.assigned_by_dotted.get(name, ()) if name is not None else ()
    return bool(values) and all(isinstance(value, ast.Call) and _LOSS_CLASS.match(last_identifier(value.func) or "")
                                for value in values)
