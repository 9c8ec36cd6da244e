"""A whole torch.distributed job's hardware: each rank measures itself, rank 0 writes one fleet report.

launch.py       which rank am I (torchrun / env:// variables, Slurm's as a fallback)
runner.py       the rank's run: phases, gathering with a timeout, a partial report when a rank dies or hangs
rank_probe.py   this rank's summary: fingerprint, its GPU, host->device bandwidth by NUMA placement, topology
collectives.py  all-reduce / all-gather timing over a size range
bandwidth.py    nccl-tests' algbw -> busbw conversion and the table of what hardware should give
nccl_log.py     the transport NCCL really used, from its own INFO output
analysis.py     fleet-wide conclusions (fleet.* facts for the rules); pure, no torch
"""
