"""Batch-size search and memory probe on a real GPU: verified limits, exact restore, nothing left allocated.

Most tests cap torch's allocator with set_per_process_memory_fraction (a setting of this process only, undone
afterwards) so that the limit is reached in seconds instead of filling an 80-140 GB device.
"""

from __future__ import annotations

import gc

import pytest

pytestmark = pytest.mark.gpu


@pytest.fixture
def device():
    import torch

    torch.cuda.empty_cache()
    return torch.device("cuda", 0)


@pytest.fixture
def capped(device):
    """torch may use 8% of the GPU in this test (about 6 GiB of an H100)."""
    import torch

    torch.cuda.set_per_process_memory_fraction(0.08, device)
    yield 0.08
    torch.cuda.set_per_process_memory_fraction(1.0, device)
    gc.collect()
    torch.cuda.empty_cache()


def wide_mlp():
    import torch
    from torch import nn

    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 8192), nn.ReLU(), nn.Linear(8192, 8192), nn.ReLU(), nn.Linear(8192, 10))


def plain_trial(model, batch, device, steps=3):
    """An independent check, no gpu-advisor code: does ``batch`` run ``steps`` Adam steps?"""
    import torch

    failed = False
    try:
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-6)
        x = torch.randn(batch, 256, device=device)
        for _ in range(steps):
            model(x).mean().backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        torch.cuda.synchronize(device)
    except torch.OutOfMemoryError:
        failed = True
    optimizer = x = None
    model.zero_grad(set_to_none=True)
    gc.collect()
    torch.cuda.empty_cache()
    return not failed


def test_the_largest_batch_runs_and_one_percent_more_does_not(device, capped):
    import torch

    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.state import describe_differences, take_snapshot

    model = wide_mlp()
    snapshot = take_snapshot(model)
    from advisor.recommend.state import restore
    restore(model, snapshot)
    before = torch.cuda.memory_allocated(device)
    result = recommend_batch_size(model, torch.randn(8, 256), throughput=True, device=device)
    print(f"\nwide MLP, 8% cap: max {result.max_fit}, fail {result.smallest_fail}, recommended {result.recommended}, "
          f"knee {result.knee.batch if result.knee else None}, predicted {result.initial_prediction}, "
          f"trials {len(result.trials)}, {result.total_s:.1f} s")
    assert result.fits_at_all and result.search_reason == "converged"
    assert describe_differences(model, snapshot) == [] and next(model.parameters()).device.type == "cpu"
    assert torch.cuda.memory_allocated(device) <= before and result.leftover_bytes == 0
    gpu_model = wide_mlp().to(device)
    assert plain_trial(gpu_model, result.max_fit, device)
    assert not plain_trial(gpu_model, int(result.max_fit * 1.01) + 1, device)
    assert result.recommended <= result.max_fit and result.throughput


def test_a_model_on_the_gpu_keeps_its_parameters_grads_and_memory(device, capped):
    import torch

    from advisor.recommend.api import recommend_batch_size

    model = wide_mlp().to(device)
    model.eval()
    model(torch.randn(4, 256, device=device)).sum().backward()
    params = [id(p) for p in model.parameters()]
    values = [p.detach().clone() for p in model.parameters()]
    grads = [p.grad.detach().clone() for p in model.parameters()]
    before = torch.cuda.memory_allocated(device)
    result = recommend_batch_size(model, torch.randn(8, 256), throughput=False)
    assert result.fits_at_all
    assert [id(p) for p in model.parameters()] == params
    assert all(torch.equal(p, v) for p, v in zip(model.parameters(), values, strict=True))
    assert all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), grads, strict=True))
    assert not model.training and all(p.device == device for p in model.parameters())
    assert torch.cuda.memory_allocated(device) <= before


def test_ctrl_c_mid_search_restores_and_frees(device, capped):
    import torch

    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.state import describe_differences, restore, take_snapshot

    model = wide_mlp()
    snapshot = take_snapshot(model)
    restore(model, snapshot)
    before = torch.cuda.memory_allocated(device)
    messages = []

    def interrupt(message):
        messages.append(message)
        if "search" in message and len(messages) > 12:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        recommend_batch_size(model, torch.randn(8, 256), throughput=False, progress=interrupt)
    assert describe_differences(model, snapshot) == []
    assert torch.cuda.memory_allocated(device) <= before


def test_too_large_for_batch_one(device, capped):
    import torch
    from torch import nn

    from advisor.recommend.api import recommend_batch_size

    class Huge(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(16, 16)

        def forward(self, x):  # 16 GiB of activations per sample: more than 8% of any GPU lent here
            return self.fc(x).unsqueeze(1).expand(-1, 2**28, -1).contiguous()

    before = torch.cuda.memory_allocated(device)
    result = recommend_batch_size(Huge(), torch.randn(2, 16), throughput=False)
    assert not result.fits_at_all and result.trials[0].failure == "oom"
    assert "does not fit" in result.summary()
    assert torch.cuda.memory_allocated(device) <= before


def test_input_that_does_not_fit_the_model(device):
    import torch

    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.errors import ModelRejectedInput

    before = torch.cuda.memory_allocated(device)
    with pytest.raises(ModelRejectedInput, match="mat1 and mat2 shapes cannot be multiplied"):
        recommend_batch_size(wide_mlp(), torch.randn(8, 100), throughput=False)
    assert torch.cuda.memory_allocated(device) <= before


def test_transformer_demo_with_bf16_and_token_ids(device, capped):
    import torch

    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.model_source import load_model

    loaded = load_model("transformer")
    sample = torch.randint(0, 32_000, (4, 128))
    result = recommend_batch_size(loaded.model, sample, amp="bf16", optimizer="adamw", throughput=False)
    print(f"\ntransformer bf16 seq 128, 8% cap: max {result.max_fit}, trials {len(result.trials)}")
    assert result.fits_at_all and result.max_fit >= 2


def test_memory_probe_and_copies(device):
    import torch

    from advisor.recommend.memory_probe import probe_headroom

    headroom = probe_headroom(0)
    print("\ncopies:", [(c.pattern, c.extra_bytes // 2**20) for c in headroom.copies],
          "workspace MiB", headroom.cublas_workspace_bytes // 2**20,
          "outside MiB", headroom.cublas_outside_torch_bytes // 2**20)
    assert 0 < headroom.free_bytes <= headroom.total_bytes
    assert headroom.usable_bytes == headroom.free_bytes + headroom.reserved_unallocated_bytes \
        - headroom.driver_reserve_bytes
    copies = {c.pattern: c.extra_bytes for c in headroom.copies}
    assert copies["x[:, ::2] @ a (strided operand)"] >= 15 * 2**20  # the kernel made it contiguous: one copy
    assert copies["a.t() @ a (transposed operand)"] < 4 * 2**20  # cuBLAS reads transposes as they are
    assert torch.cuda.memory_allocated(device) == headroom.cublas_workspace_bytes


def test_largest_add_that_fits_runs_and_two_percent_more_does_not(device):
    from advisor.recommend.memory_fit import footprint, largest_scaled
    from advisor.recommend.memory_probe import probe_headroom, verify_op

    usable = probe_headroom(0, check_copies=False).usable_bytes
    shape = largest_scaled("add", (1024, 1024), "float32", usable)
    ran = {}
    for factor in (1.0, 0.999, 0.995):
        rows = int(shape[0] * factor)
        check = verify_op(0, "add", (rows, shape[1]), "float32", noncontiguous=False)
        ran[factor] = check.ran
        if check.ran:
            predicted = footprint("add", (rows, shape[1]), "float32").total_bytes
            print(f"\nadd {rows} x {shape[1]} float32 ran at {factor}: peak {check.peak_bytes}, predicted {predicted}, "
                  f"usable {usable}")
            assert abs(check.peak_bytes - predicted) <= 8 * 2**20
            break
    print("largest add by factor of the predicted edge:", ran)
    assert ran[1.0], "the largest shape `memory` calls usable did not run"
    bigger = (int(shape[0] * 1.02), shape[1])
    assert not verify_op(0, "add", bigger, "float32", noncontiguous=False).ran


def test_matmul_prediction_matches_its_peak(device):
    from advisor.recommend.memory_probe import verify_op

    check = verify_op(0, "matmul", (16384, 16384), "bfloat16", noncontiguous=False)
    assert check.ran and abs(check.peak_bytes - check.predicted_bytes) <= 8 * 2**20
    strided = verify_op(0, "matmul", (8192, 8192), "float32", noncontiguous=True)
    assert strided.ran and abs(strided.peak_bytes - strided.predicted_bytes) <= 8 * 2**20
