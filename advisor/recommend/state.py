"""Give the user's model back exactly as it came: weights, buffers, gradients, train/eval flags, devices,
requires_grad, and the random-number generators' states.

The copy lives in host memory: a copy on the GPU would take the very memory the search is measuring.
Parameters are restored in place (``param.data``), so any optimizer or hook the caller holds still points at
the same Parameter objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ModelSnapshot:
    params: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # name -> (host copy, original device)
    grads: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # name -> (host copy, original device)
    requires_grad: dict[str, bool] = field(default_factory=dict)
    buffers: list[tuple[Any, str, Any, Any]] = field(default_factory=list)  # (module, key, host copy, device)
    training: list[tuple[Any, bool]] = field(default_factory=list)
    cpu_rng: Any = None
    cuda_rng: Any = None


def take_snapshot(model: Any) -> ModelSnapshot:
    """Copy everything ``restore`` needs; gradients are moved off the model (the search must not carry them)."""
    import torch

    snapshot = ModelSnapshot()
    with torch.no_grad():
        for name, param in model.named_parameters():
            snapshot.params[name] = (param.detach().to("cpu", copy=True), param.device)
            snapshot.requires_grad[name] = param.requires_grad
            if param.grad is not None:
                snapshot.grads[name] = (param.grad.detach().to("cpu", copy=True), param.grad.device)
                param.grad = None
        for module in model.modules():
            for key, buffer in module._buffers.items():
                if buffer is not None:
                    snapshot.buffers.append((module, key, buffer.detach().to("cpu", copy=True), buffer.device))
    snapshot.training = [(module, module.training) for module in model.modules()]
    snapshot.cpu_rng = torch.get_rng_state()
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        snapshot.cuda_rng = torch.cuda.get_rng_state_all()
    return snapshot


def _put(target: Any, saved: Any, device: Any) -> Any:
    """``saved`` on ``device``, reusing ``target``'s storage when it already has the right place and shape."""
    if target.device == device and target.shape == saved.shape and target.dtype == saved.dtype:
        target.copy_(saved)
        return target
    return saved if device.type == "cpu" else saved.to(device)


def restore(model: Any, snapshot: ModelSnapshot) -> None:
    import torch

    with torch.no_grad():
        for name, param in model.named_parameters():
            saved, device = snapshot.params[name]
            param.data = _put(param.data, saved, device)
            param.requires_grad_(snapshot.requires_grad[name])
            if name in snapshot.grads:
                grad, grad_device = snapshot.grads[name]
                param.grad = grad if grad_device.type == "cpu" else grad.to(grad_device)
            else:
                param.grad = None
        for module, key, saved, device in snapshot.buffers:
            current = module._buffers.get(key)
            module._buffers[key] = _put(current, saved, device) if current is not None else saved.to(device)
    for module, training in snapshot.training:
        module.training = training
    torch.set_rng_state(snapshot.cpu_rng)
    if snapshot.cuda_rng is not None:
        torch.cuda.set_rng_state_all(snapshot.cuda_rng)


def describe_differences(model: Any, snapshot: ModelSnapshot) -> list[str]:
    """What differs between the model and the snapshot (empty when restored exactly): for tests and a self-check."""
    import torch

    problems = []
    for name, param in model.named_parameters():
        saved, device = snapshot.params[name]
        if param.device != device:
            problems.append(f"{name}: on {param.device}, was on {device}")
        elif not torch.equal(param.detach().cpu(), saved):
            problems.append(f"{name}: values changed")
        if param.requires_grad != snapshot.requires_grad[name]:
            problems.append(f"{name}: requires_grad changed")
        if (param.grad is None) != (name not in snapshot.grads):
            problems.append(f"{name}: gradient presence changed")
    for module, key, saved, device in snapshot.buffers:
        buffer = module._buffers.get(key)
        if buffer is None or buffer.device != device or not torch.equal(buffer.detach().cpu(), saved):
            problems.append(f"buffer {key} of {type(module).__name__}: changed")
    problems += [f"{type(m).__name__}: training flag changed" for m, t in snapshot.training if m.training != t]
    return problems
