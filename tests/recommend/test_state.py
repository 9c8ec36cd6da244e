"""Snapshot and restore: everything a search could change comes back, Parameter objects stay the same."""

from __future__ import annotations

import torch
from torch import nn

from advisor.recommend.state import describe_differences, restore, take_snapshot


def test_restore_undoes_training_steps_flags_and_grads():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8), nn.Linear(8, 2))
    model[2].eval()  # a partly-eval model: per-module flags, not one switch
    model[0].bias.requires_grad_(False)
    model[2].weight.grad = torch.full_like(model[2].weight, 3.0)
    params_before = [id(p) for p in model.parameters()]
    snapshot = take_snapshot(model)
    assert model[2].weight.grad is None  # moved off for the search

    model.train()
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.1)
    for _ in range(3):
        model(torch.randn(16, 8)).sum().backward()
        optimizer.step()
    model[0].bias.requires_grad_(True)
    assert describe_differences(model, snapshot)  # weights, running stats, flags all changed

    restore(model, snapshot)
    assert describe_differences(model, snapshot) == []
    assert [id(p) for p in model.parameters()] == params_before
    assert torch.equal(model[2].weight.grad, torch.full_like(model[2].weight, 3.0))
    assert model[0].weight.grad is None
    assert model[1].training and not model[2].training
    assert model[0].bias.requires_grad is False


def test_rng_state_is_restored():
    model = nn.Linear(2, 2)
    snapshot = take_snapshot(model)
    expected = torch.rand(3)
    restore(model, snapshot)
    assert torch.equal(torch.rand(3), expected)
