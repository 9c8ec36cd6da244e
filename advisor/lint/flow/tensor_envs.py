"""Simulators that step on the GPU (Isaac Lab's ``ManagerBasedRLEnv``, Isaac Gym, ManiSkill, a ``VecPyTorch`` wrapper).

Such an environment keeps its state on a torch device and says which: ``env.device``. A program that hands that device
to torch (``DQN(n_obs, n_act).to(env.device)``, ``torch.zeros(n, device=env.device)``) has an environment whose
``env.step(action)`` and ``env.reset()`` hand back tensors on it, so ``rewards.item()`` or ``if terminated:`` per step
waits for the GPU. A Gym environment has no ``device``: a file that never asks for one is left alone.
"""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary

from advisor.lint.names import dotted, last_identifier
from advisor.lint.torch_api import ENVIRONMENT_NAME

STEPPING_METHODS = frozenset({"step", "reset"})
_FOUND: WeakKeyDictionary = WeakKeyDictionary()  # per file index: asked once per env.step() call, found once


def tensor_environments(index) -> frozenset[str]:
    """The environments (by dotted name: ``env``, ``self.env``) whose ``.device`` this file hands to a call."""
    known = _FOUND.get(index)
    if known is None:
        known = _FOUND[index] = _environments_asked_for_device(index)
    return known


def _environments_asked_for_device(index) -> frozenset[str]:
    found = set()
    for call in index.calls:
        for value in [*call.args, *(keyword.value for keyword in call.keywords)]:
            if isinstance(value, ast.Attribute) and value.attr == "device" \
                    and ENVIRONMENT_NAME.search(last_identifier(value.value)):
                found.add(dotted(value.value))
    found.discard(None)
    return frozenset(found)
