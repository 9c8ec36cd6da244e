"""Target networks: a model named as the copy of another one (a DQN's ``target_net``, SAC's ``target_q1``, an EMA
copy) or as a distillation's teacher, that no optimizer trains. Its forward in a training step makes targets: run with
autograd on, the graph through it is recorded, and when its output is not detached the backward pass walks it and
fills gradients nobody reads."""

from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.lint.names import dotted, last_identifier

_TARGET_NAME = re.compile(r"target|targ$|tgt|(^|_)ema($|_)|momentum|teacher", re.IGNORECASE)  # (a distilling teacher)
_OPTIMIZER_NAME = re.compile(r"optim|adam|sgd|rmsprop|adagrad|lamb$|lion$", re.IGNORECASE)
_PARAMETERS = frozenset({"parameters", "named_parameters"})


class TargetNetworks:
    """Which models of a file are copied targets, by their dotted text (``target_net``, ``self.target_q1``)."""

    def __init__(self, index) -> None:
        self._index = index
        self._optimized: Optional[set[str]] = None  # built on the first model named like a target
        self._optimizers = False

    def _build(self) -> set[str]:
        optimized: set[str] = set()
        for call in self._index.calls:
            if _OPTIMIZER_NAME.search(last_identifier(call.func)) and (call.args or call.keywords):
                self._optimizers = True
                optimized.update(_parameters_handed(self._index, call))
        return optimized

    def is_target(self, model: ast.AST) -> bool:
        """Named as a target or an EMA copy, in a file that builds optimizers, none handed this model's parameters (a
        TRPO's old_policy, loaded from the policy, is left alone: its labellers did not take it for a target)."""
        text = dotted(model)
        if not text or not _TARGET_NAME.search(last_identifier(model)):
            return False
        if self._optimized is None:
            self._optimized = self._build()
        return self._optimizers and text not in self._optimized or text in refreshed_targets(self._index)
        # (refreshed from the trained model: a target even where the optimizer is handed in from elsewhere)



def _parameters_handed(index, call: ast.Call) -> set[str]:
    """The models whose parameters an optimizer call is handed: ``Adam(self.q1.parameters())``, ``Adam(list(a.
    parameters()) + list(b.parameters()))``, or ``params`` bound to such an expression before."""
    found: set[str] = set()
    handed = list(call.args) + [keyword.value for keyword in call.keywords]
    names = {node.id for argument in handed for node in ast.walk(argument) if isinstance(node, ast.Name)}
    for value in handed + [v for name in names for v in index.assigned_values.get(name, ())]:  # (one step back)
        for node in ast.walk(value):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PARAMETERS:
                found.add(dotted(node.func.value) or "")
    return found


_COPIES_WEIGHTS = re.compile(r"(soft|hard|polyak)_?update|update_?target", re.IGNORECASE)


def refreshed_targets(index) -> frozenset[str]:
    """The dotted names of models whose weights the file copies in from another model: ``target_net.load_state_dict(
    policy_net.state_dict())``, and a target handed to a soft or hard update (``self.soft_update(self.actor_local,
    self.actor_target, tau)``: DDPG's and MADDPG's targets, built by a factory the file does not show). Asked once
    per file."""
    return index.memo("refreshed_targets", lambda: _refreshed(index))


def _refreshed(index) -> frozenset[str]:
    found = set(index.loaded_from_state_dicts)
    for call in index.calls:
        if _COPIES_WEIGHTS.search(last_identifier(call.func)):
            for argument in list(call.args) + [k.value for k in call.keywords]:
                key = dotted(argument)
                if key is not None and _TARGET_NAME.search(last_identifier(argument)):
                    found.add(key)
    return frozenset(found)
