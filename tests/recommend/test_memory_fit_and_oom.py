"""Footprints of one op, the largest square matmul, and OOM messages read and explained (real messages)."""

from __future__ import annotations

import pytest

from advisor.recommend.memory_fit import block_bytes, footprint, largest_scaled, largest_square_matmul, parse_shape
from advisor.recommend.oom_explain import explain_oom, parse_oom

MIB, GIB = 2**20, 2**30


def test_a_30000_square_float32_matmul_needs_three_matrices():
    plan = footprint("matmul", (30000, 30000), "float32")
    assert [name for name, _ in plan.tensors] == ["A", "B", "out"]
    one = 30000 * 30000 * 4
    assert plan.total_bytes == 3 * block_bytes(one)
    assert footprint("matmul", (30000, 30000), "float32", extra_copies=1).total_bytes == 4 * block_bytes(one)


def test_rectangular_matmul_shapes():
    plan = footprint("matmul", (100, 200, 300), "float16")
    assert dict(plan.tensors) == {"A": (100, 200), "B": (200, 300), "out": (100, 300)}
    assert dict(footprint("matmul", (100, 200), "float16").tensors)["B"] == (200, 100)


def test_block_rounding():
    assert block_bytes(1) == 512
    assert block_bytes(3 * MIB) == 4 * MIB
    assert block_bytes(4 * MIB) == 4 * MIB


def test_largest_square_matmul_is_the_edge():
    usable = 78 * GIB
    for dtype, copies in (("float32", 0), ("bfloat16", 0), ("float64", 1)):
        n = largest_square_matmul(usable, dtype, extra_copies=copies)
        assert footprint("matmul", (n, n), dtype, extra_copies=copies).total_bytes <= usable
        assert footprint("matmul", (n + 1, n + 1), dtype, extra_copies=copies).total_bytes > usable
        assert largest_scaled("matmul", (1000, 1000), dtype, usable, extra_copies=copies)[0] in (n, n - 1)
    assert largest_square_matmul(78 * GIB, "float32") == pytest.approx((78 * GIB / 12) ** 0.5, rel=0.002)


def test_largest_scaled_down_and_up():
    usable = 10 * GIB
    down = largest_scaled("matmul", (60000, 60000), "float32", usable)
    assert down[0] == down[1] < 60000
    assert footprint("matmul", down, "float32").total_bytes <= usable
    up = largest_scaled("add", (1000, 2000), "float32", usable)
    assert up[1] == pytest.approx(2 * up[0], rel=0.001) and up[0] > 1000
    assert largest_scaled("alloc", (4,), "float32", 10) is None


@pytest.mark.parametrize("text", ["", "a,b", "0,5", "-1"])
def test_parse_shape_rejects(text):
    with pytest.raises(ValueError):
        parse_shape(text)


def test_parse_shape_and_bad_ops():
    assert parse_shape("30000x30000") == (30000, 30000) == parse_shape(" 30000, 30000 ")
    with pytest.raises(ValueError):
        footprint("matmul", (1, 2, 3, 4), "float32")
    with pytest.raises(ValueError):
        footprint("conv", (1,), "float32")
    with pytest.raises(ValueError):
        footprint("add", (1,), "complex64")


# Real messages, as users pasted them (torch >= 2.1 and torch < 2.1).
TOO_BIG = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 130206.04 GiB. GPU 0 has a total capacity "
           "of 23.56 GiB of which 16.57 GiB is free. Including non-PyTorch memory, this process has 6.97 GiB memory "
           "in use. Of the allocated memory 5.45 GiB is allocated by PyTorch, and 1.17 GiB is reserved by PyTorch but "
           "unallocated. If reserved but unallocated memory is large try setting "
           "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
           "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
OTHER_PROCESS = ("OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of "
                 "47.53 GiB of which 16.88 MiB is free. Process 3652628 has 47.51 GiB memory in use. Of the allocated "
                 "memory 47.14 GiB is allocated by PyTorch, and 57.79 MiB is reserved by PyTorch but unallocated.")
FRAGMENTED = ("CUDA out of memory. Tried to allocate 764.00 MiB. GPU 0 has a total capacity of 47.37 GiB of which "
              "442.88 MiB is free. Including non-PyTorch memory, this process has 46.92 GiB memory in use. Of the "
              "allocated memory 42.40 GiB is allocated by PyTorch, and 3.24 GiB is reserved by PyTorch but unallocated.")
FULL = ("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.11 GiB of which 6.69 MiB is "
        "free. Including non-PyTorch memory, this process has 79.09 GiB memory in use. Of the allocated memory 78.42 GiB "
        "is allocated by PyTorch, and 8.03 MiB is reserved by PyTorch but unallocated.")
OLD = ("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 12.35 GiB "
       "already allocated; 1.46 GiB free; 13.20 GiB reserved in total by PyTorch) If reserved memory is >> allocated "
       "memory try setting max_split_size_mb to avoid fragmentation.")


def test_numbers_are_read():
    r = parse_oom(FRAGMENTED)
    assert r.style == "torch>=2.1" and r.gpu == 0
    assert r.tried == 764 * MIB
    assert r.total == int(47.37 * GIB) and r.free == int(442.88 * MIB)
    assert r.allocated == int(42.40 * GIB) and r.reserved_unallocated == int(3.24 * GIB)
    assert r.non_pytorch == pytest.approx(r.this_process - r.allocated - r.reserved_unallocated)
    old = parse_oom(OLD)
    assert old.style == "torch<2.1" and old.reserved_unallocated == int(13.20 * GIB) - int(12.35 * GIB)
    assert parse_oom(OTHER_PROCESS).self_pid_guess == 3652628


@pytest.mark.parametrize("text, cause", [(TOO_BIG, "too_big_for_gpu"), (FRAGMENTED, "fragmentation"),
                                         (FULL, "genuinely_full"), (OLD, "fragmentation"),
                                         (OTHER_PROCESS, "genuinely_full")])
def test_causes(text, cause):
    explanation = explain_oom(text)
    assert explanation.cause == cause
    assert explanation.meaning and explanation.try_next


def test_fragmentation_advice_names_expandable_segments():
    assert "expandable_segments:True" in " ".join(explain_oom(FRAGMENTED).try_next)


def test_a_container_lists_its_own_process_by_host_pid():
    # No "this process" line, one "Process N" holding at least what torch reserved: that is this process.
    reading = explain_oom(OTHER_PROCESS).reading
    assert reading.self_pid_guess == 3652628 and reading.this_process == int(47.51 * GIB)
    assert not reading.other_processes


def test_a_real_other_process():
    text = FULL.replace("Including non-PyTorch memory, this process has 79.09 GiB memory in use.",
                        "Process 77 has 30.00 GiB memory in use. Including non-PyTorch memory, this process has "
                        "49.09 GiB memory in use.").replace("78.42 GiB is allocated", "48.42 GiB is allocated")
    explanation = explain_oom(text)
    assert explanation.reading.others == 30 * GIB
    assert explanation.cause == "other_processes"


def test_not_an_oom_message():
    assert explain_oom("RuntimeError: mat1 and mat2 shapes cannot be multiplied") is None
