"""The notice board's reads on a store that answers slowly (a loaded host): a read that times out once is tried
again, so "no phase" means the rank wrote none (session 20's flaky torchrun test read None there)."""

from __future__ import annotations

import pytest

torch_distributed = pytest.importorskip("torch.distributed")

from advisor.distributed.board import Board  # noqa: E402


class _SlowOnce:
    """A real in-process store whose first `check` times out, as a TCPStore on a loaded host can."""

    def __init__(self, store, failures: int) -> None:
        self.store, self.failures = store, failures

    def check(self, keys):
        if self.failures:
            self.failures -= 1
            raise RuntimeError("Socket Timeout")
        return self.store.check(keys)

    def __getattr__(self, name):
        return getattr(self.store, name)


@pytest.mark.parametrize("failures,expected", [(0, "collectives"), (1, "collectives"), (2, None)])
def test_a_phase_read_survives_one_slow_answer(failures, expected):
    store = torch_distributed.HashStore()
    Board(store, rank=1, world_size=2).phase("collectives")
    reader = Board(_SlowOnce(store, failures), rank=0, world_size=2)
    assert reader.read("phase", 1) == expected


def test_a_phase_never_written_reads_none():
    reader = Board(torch_distributed.HashStore(), rank=0, world_size=2)
    assert reader.read("phase", 1) is None
