"""Target networks: a model named as the copy of another one (a DQN's ``target_net``, SAC's ``target_q1``, an EMA
copy) that no optimizer trains. Its forward in a training step makes targets: run with
autograd on, the graph through it is recorded, and when its output is not detached the backward pass walks it and
fills gradients nobody reads."""

from __future__ import annotations

import ast
import re

from advisor.lint.names import dotted, last_identifier

_TARGET_NAME = re.compile(r"target|targ$|tgt|(^|_)ema($|_)|momentum", re.IGNORECASE)
_OPTIMIZER_NAME = re.compile(r"optim|adam|sgd|rmsprop|adagrad|lamb$|lion$", re.IGNORECASE)
_PARAMETERS = frozenset({"parameters", "named_parameters"})


class TargetNetworks:
    """Which models of a file are copied targets, by their dotted text (``target_net``, ``self.target_q1``)."""

    def __init__(self, index) -> None:
        self._optimized: set[str] = set()
        self._optimizers = False
        for call in index.calls:
            name = last_identifier(call.func)
            if _OPTIMIZER_NAME.search(name) and (call.args or call.keywords):
                self._optimizers = True
                self._optimized.update(_parameters_handed(index, call))

    def is_target(self, model: ast.AST) -> bool:
        """Named as a target or an EMA copy, in a file that builds optimizers, none handed this model's parameters (a
        TRPO's old_policy, loaded from the policy, is left alone: its labellers did not take it for a target)."""
        text = dotted(model)
        if not text or not self._optimizers or text in self._optimized:
            return False
        return bool(_TARGET_NAME.search(last_identifier(model)))


def _parameters_handed(index, call: ast.Call) -> set[str]:
    """The models whose parameters an optimizer call is handed: ``Adam(self.q1.parameters())``, ``Adam(list(a.
    parameters()) + list(b.parameters()))``, or ``params`` bound to such an expression before."""
    found, stack = set(), list(call.args) + [keyword.value for keyword in call.keywords]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PARAMETERS:
            found.add(dotted(node.func.value) or "")
        elif isinstance(node, ast.Name):
            stack.extend(index.assigned_values.get(node.id, ()))
        stack.extend(ast.iter_child_nodes(node))
    return found

