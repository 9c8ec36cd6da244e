"""The memory model: a straight line through measured peaks, and what it predicts."""

from __future__ import annotations

import pytest

from advisor.recommend.memory_model import fit_largest, fit_linear

MIB = 2**20


def test_an_exact_line_is_recovered():
    model = fit_linear([(8, 1000 * MIB + 8 * 90 * MIB), (16, 1000 * MIB + 16 * 90 * MIB), (32, 1000 * MIB + 32 * 90 * MIB)])
    assert model.fixed_bytes == pytest.approx(1000 * MIB)
    assert model.per_sample_bytes == pytest.approx(90 * MIB)
    assert model.max_residual_bytes == pytest.approx(0, abs=1)
    assert model.max_batch_within(1000 * MIB + 100 * 90 * MIB) == 100


def test_the_envelope_lies_above_every_point():
    points = [(8, 100.0), (16, 190.0), (32, 370.0), (64, 760.0)]
    model = fit_linear(points)
    envelope = model.upper_envelope()
    assert all(envelope.predict(b) >= m - 1e-9 for b, m in points)
    assert envelope.max_batch_within(10_000) <= model.max_batch_within(10_000)


def test_edges_nothing_fits_and_no_growth():
    model = fit_linear([(1, 500.0), (2, 600.0)])
    assert model.max_batch_within(450) == 0
    assert model.max_batch_within(650) == 2
    assert model.max_batch_within(550) == 1
    flat = fit_linear([(1, 500.0), (2, 500.0)])
    assert flat.max_batch_within(10_000) is None


def test_one_batch_is_not_enough():
    with pytest.raises(ValueError):
        fit_linear([(4, 1.0), (4, 2.0)])


def test_fit_largest_ignores_small_batches_and_keeps_the_worst_repeat():
    # Small batches sit on 20 MiB allocator segments; the slope must come from the large ones.
    points = [(1, 60 * MIB), (2, 60 * MIB), (64, 1000 * MIB), (128, 1900 * MIB), (128, 1950 * MIB), (256, 3800 * MIB)]
    model = fit_largest(points, count=3)
    assert model.batches == (64, 128, 256)
    assert model.per_sample_bytes == pytest.approx((3800 - 1000) / 192 * MIB, rel=0.05)
