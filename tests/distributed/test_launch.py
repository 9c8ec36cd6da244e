"""Which rank am I: torchrun's env:// variables, Slurm's as a fallback, a clear error otherwise."""

import pytest

from advisor.distributed.launch import NotLaunched, launch_info

TORCHRUN = {"RANK": "3", "WORLD_SIZE": "16", "LOCAL_RANK": "3", "LOCAL_WORLD_SIZE": "8",
            "MASTER_ADDR": "10.0.0.1", "MASTER_PORT": "29500", "TORCHELASTIC_RUN_ID": "abc"}


def test_torchrun_variables():
    info = launch_info(TORCHRUN)
    assert (info.rank, info.world_size, info.local_rank, info.local_world_size, info.launcher) == (3, 16, 3, 8, "torchrun")


def test_slurm_numbering_when_rank_is_not_exported():
    env = {"SLURM_PROCID": "9", "SLURM_NTASKS": "16", "SLURM_LOCALID": "1", "MASTER_ADDR": "n1", "MASTER_PORT": "1"}
    info = launch_info(env)
    assert (info.rank, info.world_size, info.local_rank, info.launcher) == (9, 16, 1, "slurm")


@pytest.mark.parametrize("env, words", [
    ({}, "torchrun"),
    ({"RANK": "0", "WORLD_SIZE": "2"}, "MASTER_ADDR"),
    ({**TORCHRUN, "RANK": "16"}, "outside"),
])
def test_not_launched_says_how(env, words):
    with pytest.raises(NotLaunched, match=words):
        launch_info(env)
