"""Simulators that step on the GPU (Isaac Lab's ``ManagerBasedRLEnv``, Isaac Gym, ManiSkill, a ``VecPyTorch`` wrapper).

Such an environment keeps its state on a torch device and says which: ``env.device``. A program that hands that device
to torch (``DQN(n_obs, n_act).to(env.device)``, ``torch.zeros(n, device=env.device)``) has an environment whose
``env.step(action)`` and ``env.reset()`` hand back tensors on it, so ``rewards.item()`` or ``if terminated:`` per step
waits for the GPU. A Gym environment has no ``device``: a file that never asks for one is left alone.
"""

from __future__ import annotations

from advisor.lint.torch_api import ENVIRONMENT_NAME

STEPPING_METHODS = frozenset({"step", "reset"})


def tensor_environments(index) -> frozenset[str]:
    """The environments (by dotted name: ``env``, ``self.env``) whose ``.device`` this file hands to a call."""
    return frozenset(key for key in index.devices_handed if ENVIRONMENT_NAME.search(key.rsplit(".", 1)[-1]))
