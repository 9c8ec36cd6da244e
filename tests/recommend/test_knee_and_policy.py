"""The throughput knee, the margin, the memory target and the rounding."""

from __future__ import annotations

import pytest

from advisor.recommend.knee import ThroughputPoint, curve_batches, throughput_knee
from advisor.recommend.memory_model import LinearMemoryModel
from advisor.recommend.policy import Target, parse_target, recommend, round_batch

MIB, GIB = 2**20, 2**30


def points(pairs):
    return [ThroughputPoint(batch=b, samples_per_s=s, step_s=b / s) for b, s in pairs]


# samples/s of a ResNet-50-like training step: rises, flattens from ~128
CURVE = points([(1, 90), (2, 180), (4, 350), (8, 640), (16, 1050), (32, 1500), (64, 1850), (128, 2050),
                (256, 2140), (512, 2180), (890, 2170)])


def test_knee_is_the_smallest_batch_at_95_percent_of_peak():
    knee = throughput_knee(CURVE, 0.95)
    assert knee.peak_batch == 512 and knee.peak_samples_per_s == 2180
    assert knee.batch == 256  # 2050 / 2180 = 94.0% at 128; 2140 / 2180 = 98.2% at 256
    assert knee.previous_batch == 128


def test_knee_target_moves_it():
    assert throughput_knee(CURVE, 0.80).batch == 64  # 1850 / 2180 = 84.9%
    assert throughput_knee(CURVE, 1.0).batch == 512


def test_still_rising_when_the_largest_batch_is_the_peak_and_gained():
    rising = points([(1, 10), (2, 19), (4, 36), (8, 60)])
    assert throughput_knee(rising).still_rising
    assert not throughput_knee(CURVE).still_rising


def test_knee_edges():
    assert throughput_knee([]) is None
    with pytest.raises(ValueError):
        throughput_knee(CURVE, 1.5)


def test_curve_batches():
    assert curve_batches(100, include=[88, 500]) == [1, 2, 4, 8, 16, 32, 64, 88, 100]
    assert curve_batches(1) == [1]


@pytest.mark.parametrize("text, expected", [
    (None, Target("throughput", 0.95)), ("0.9", Target("throughput", 0.9)), ("90%", Target("throughput", 0.9)),
    ("throughput=0.8", Target("throughput", 0.8)), ("memory=0.5", Target("memory", 0.5)),
    (" Memory = 50% ", Target("memory", 0.5)),
])
def test_parse_target(text, expected):
    assert parse_target(text) == expected


@pytest.mark.parametrize("text", ["fast", "1.5", "0", "speed=0.9", "memory=abc"])
def test_parse_target_rejects(text):
    with pytest.raises(ValueError):
        parse_target(text)


def test_margin_keeps_memory_free_not_batch():
    # Half the memory is fixed: a 10% memory margin costs 20% of the batch.
    model = LinearMemoryModel(fixed_bytes=40 * GIB, per_sample_bytes=0.04 * GIB, batches=(64, 128, 256))
    choice = recommend(1000, model=model, limit_bytes=80 * GIB, margin=0.10)
    assert choice.batch == 800
    assert any("kept free" in reason for reason in choice.reasons)


def test_margin_rounds_to_tensor_core_multiples_and_never_exceeds_the_max():
    model = LinearMemoryModel(fixed_bytes=1 * GIB, per_sample_bytes=0.1 * GIB, batches=(1, 2, 4))
    choice = recommend(789, model=model, limit_bytes=80 * GIB, margin=0.0)
    assert choice.batch == 784 and any("multiple of 8" in r for r in choice.reasons)
    assert recommend(10, model=model, limit_bytes=1000 * GIB, margin=0.10).batch == 10
    assert round_batch(15) == 15 and round_batch(17) == 16


def test_memory_target_caps_the_recommendation():
    model = LinearMemoryModel(fixed_bytes=2 * GIB, per_sample_bytes=0.1 * GIB, batches=(1, 2, 4))
    choice = recommend(700, model=model, limit_bytes=75 * GIB, margin=0.10, total_bytes=80 * GIB,
                       target=Target("memory", 0.5))
    assert choice.batch == 376  # (40 - 2) / 0.1 = 380 -> rounded to 376
    assert any("--target memory=0.5" in r for r in choice.reasons)


def test_without_a_model_the_margin_falls_back_to_the_batch():
    assert recommend(100, model=None, limit_bytes=1, margin=0.10).batch == 88  # 90 rounded to 88
    with pytest.raises(ValueError):
        recommend(0, model=None, limit_bytes=1, margin=0.1)


def test_margin_is_taken_from_the_largest_working_batch_when_fragmentation_stops_early():
    # Capacity says 1450, fragmentation stopped the search at 1152 (110 GB of 139): 10% below 110 GB.
    model = LinearMemoryModel(fixed_bytes=0.76 * GIB, per_sample_bytes=0.0946 * GIB, batches=(128, 256, 1152))
    choice = recommend(1152, model=model, limit_bytes=139 * GIB, margin=0.10, max_fit_peak_bytes=109.7 * GIB)
    assert choice.batch == 1032  # (0.9 * 109.7 - 0.76) / 0.0946 = 1035.6 -> 1032
    assert "the memory the largest batch that ran used" in choice.reasons[0]


def test_a_slow_step_at_the_limit_is_pointed_out():
    from advisor.recommend.result import BatchSizeResult, StaticMemory

    result = BatchSizeResult(model_label="m", input_description="x", setup="s", mode="train", optimizer="adam",
                             amp=None, device_name="gpu", total_bytes=GIB, limit_bytes=GIB, static=StaticMemory(),
                             trials=[], max_fit=890, smallest_fail=900, search_reason="converged", recommended=800,
                             throughput=CURVE[:-1] + points([(890, 1800)]))
    result.knee = throughput_knee(result.throughput)
    assert any("falls to 83% of the peak" in line for line in result.reasoning())
