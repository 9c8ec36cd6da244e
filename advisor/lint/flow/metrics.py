"""Metric objects: what a metric's ``aggregate()`` / ``compute()`` returns lives where the tensors it was handed do."""

from __future__ import annotations

import ast

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import CUDA_TENSOR
from advisor.lint.names import dotted


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
