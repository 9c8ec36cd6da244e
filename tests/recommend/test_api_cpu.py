"""recommend_batch_size end to end on CPU: a real small model runs real steps. The search's accuracy is checked
against the memory an H200 really reported (recorded_meter.py); the control-flow tests (restore, Ctrl-C,
error paths) inject a memory meter with a chosen limit so those paths run on CPU -- no number from it is ever
reported as measured. The model must come back exactly as given."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from advisor.recommend.api import recommend_batch_size
from advisor.recommend.errors import ModelRejectedInput, NoCudaDevice
from advisor.recommend.state import describe_differences, restore, take_snapshot
from tests.recommend.fakes import MIB, SimulatedMeter, linear
from tests.recommend.recorded_meter import recorded_meter


def small_model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))


def run(model, meter, sample=None, **kwargs):
    kwargs.setdefault("throughput", False)
    try:
        return recommend_batch_size(model, torch.randn(4, 16) if sample is None else sample, device="cpu",
                                    meter=meter, **kwargs)
    finally:
        meter.close()


def test_lands_on_the_limit_the_h200_recorded():
    """Fed the H200's own ResNet-50 readings, the search finds the batch the GPU could run, within 1%."""
    model = small_model()
    meter, largest_fit, first_failure = recorded_meter(model)
    result = run(model, meter)
    assert largest_fit * 0.99 <= result.max_fit < first_failure
    assert result.smallest_fail is not None and result.max_fit < result.smallest_fail
    assert result.restore_problems == []


def test_finds_the_injected_limit_and_restores_everything():
    model = small_model()
    model.eval()
    model[0].weight.requires_grad_(False)
    model[4].weight.grad = torch.ones_like(model[4].weight)
    snapshot = take_snapshot(model)
    restore(model, snapshot)  # the snapshot moves gradients off; put them back before the call
    sample = torch.randn(4, 16)
    rng = torch.get_rng_state()
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=4000 * MIB)
    result = run(model, meter, sample)
    exact = (4000 - 300) // 2
    assert exact * 0.99 <= result.max_fit <= exact
    assert result.smallest_fail is not None and result.smallest_fail <= exact * 1.01 + 1
    assert describe_differences(model, snapshot) == []
    assert not model.training and model[0].weight.requires_grad is False
    assert torch.equal(model[4].weight.grad, torch.ones_like(model[4].weight))
    assert torch.equal(torch.get_rng_state(), rng)
    assert result.restore_problems == [] and result.leftover_bytes == 0
    assert result.recommended <= result.max_fit and result.recommended % 8 == 0
    # 10% below the memory the largest batch used (300 MiB + 2 MiB per sample), rounded down to a multiple of 8
    expected = int((0.9 * (300 + 2 * result.max_fit) - 300) / 2)
    assert result.recommended == expected - expected % 8
    model_fit = result.memory_model
    assert model_fit.per_sample_bytes == pytest.approx(2 * MIB, rel=0.05)


def test_training_really_ran_and_steps_were_counted():
    model = small_model()
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=1000 * MIB)
    result = run(model, meter, steps_per_trial=3)
    ran = [t for t in result.trials if t.fits]
    assert ran and all(t.steps == 3 for t in ran)
    assert all(t.steps < 3 for t in result.trials if not t.fits)  # OOM stopped the trial early
    assert meter.batches_seen.count(result.max_fit) >= 3


def test_batchnorm_model_gets_batch_two_when_batch_one_errors():
    model = small_model()  # BatchNorm1d in training refuses one value per channel
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=800 * MIB)
    result = run(model, meter)
    assert result.trials[0].batch == 1 and result.trials[0].failure == "error"
    assert result.trials[1].batch == 2 and result.trials[1].fits
    assert any("batch 2 runs" in note for note in result.notes)


def test_throughput_curve_and_knee_on_cpu():
    model = small_model()
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=800 * MIB)
    result = run(model, meter, throughput=True)
    batches = [p.batch for p in result.throughput]
    assert batches[0] == 2 and result.max_fit in batches and result.recommended in batches
    assert result.knee is not None and result.knee.batch in batches
    recommendation = result.to_recommendation()
    assert recommendation.kind == "batch_size" and recommendation.value == result.recommended
    assert recommendation.details.throughput_curve


def test_a_shape_that_does_not_fit_the_model_shows_its_error():
    model = small_model()
    meter = SimulatedMeter(model, linear(0, MIB), limit=100 * MIB)
    snapshot = take_snapshot(model)
    restore(model, snapshot)
    with pytest.raises(ModelRejectedInput) as caught:
        try:
            recommend_batch_size(model, torch.randn(4, 20), device="cpu", meter=meter, throughput=False)
        finally:
            meter.close()
    assert "mat1 and mat2 shapes cannot be multiplied" in caught.value.model_message
    assert "(20,) float32" in caught.value.input_description
    assert describe_differences(model, snapshot) == []


def test_too_large_for_batch_one_reports_its_memory_model():
    model = small_model()
    meter = SimulatedMeter(model, linear(5000 * MIB, MIB), limit=4000 * MIB)
    result = run(model, meter)
    assert not result.fits_at_all and result.max_fit == 0 and result.recommended is None
    assert "does not fit" in result.summary()
    text = " ".join(result.reasoning())
    assert "weights" in text and "adam state" in text and "--amp bf16" in text
    assert result.static.optimizer_state_bytes == 2 * result.static.trainable_bytes


def test_a_non_oom_error_at_a_large_batch_bounds_the_search():
    model = small_model()
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=1000 * MIB, failure="error")
    result = run(model, meter)
    assert result.fits_at_all and result.max_fit <= 350
    assert any("not out-of-memory" in note for note in result.notes)


def test_ctrl_c_restores_the_model():
    model = small_model()
    snapshot = take_snapshot(model)
    restore(model, snapshot)
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=4000 * MIB)
    calls = []

    def interrupt(message: str) -> None:
        calls.append(message)
        if len(calls) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(model, meter, progress=interrupt)
    assert describe_differences(model, snapshot) == []
    assert model.training is True


def test_inference_mode_and_bf16_autocast():
    model = small_model()
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=1000 * MIB)
    result = run(model, meter, mode="inference", amp="bf16")
    assert result.optimizer is None and "inference" in result.setup and result.max_fit >= 345
    assert result.static.gradient_bytes == 0


def test_dict_and_tuple_inputs_and_a_custom_loss():
    class TwoInputs(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(50, 8)
            self.fc = nn.Linear(8, 3)

        def forward(self, ids, mask):
            return {"logits": self.fc(self.embed(ids) * mask.unsqueeze(-1)).mean(1)}

    model = TwoInputs()
    sample = {"ids": torch.randint(0, 50, (3, 7)), "mask": torch.ones(3, 7)}
    meter = SimulatedMeter(model, lambda b: 10 * MIB + b * MIB, limit=100 * MIB)
    meter.handle.remove()
    meter.handle = model.register_forward_pre_hook(
        lambda module, args, kwargs: meter._hook(module, (kwargs["ids"],)), with_kwargs=True)
    seen = []
    result = recommend_batch_size(model, sample, device="cpu", meter=meter, throughput=False,
                                  loss_fn=lambda out, batch: seen.append(batch["ids"].shape[0]) or out["logits"].sum())
    meter.close()
    assert result.max_fit == 90 and result.max_fit in seen


def test_bad_arguments():
    model = small_model()
    for kwargs in ({"mode": "eval"}, {"optimizer": "lamb"}, {"amp": "fp8"}, {"margin": 0.95}, {"steps_per_trial": 1},
                   {"max_batch": 0}):
        with pytest.raises(ValueError):
            recommend_batch_size(model, torch.randn(2, 16), device="cpu", meter=object(), **kwargs)
    frozen = small_model().requires_grad_(False)
    with pytest.raises(ValueError, match="nothing to train"):
        recommend_batch_size(frozen, torch.randn(2, 16), device="cpu", meter=object())


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU path")
def test_no_cuda_device_is_a_clear_error():
    with pytest.raises(NoCudaDevice, match="no CUDA device"):
        recommend_batch_size(small_model(), torch.randn(2, 16))
