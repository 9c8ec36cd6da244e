"""The checks, one module each. A module has ``INFO`` (a CheckInfo with a stable id) and
``run(ctx) -> Iterator[Hit]``; its docstring lists code that must and must not match. Ids are never
reused or renumbered: a retired check keeps its id retired.
"""

from __future__ import annotations

from advisor.lint.checks import (
    ga101_timing_sync,
    ga102_timing_first_call,
    ga103_host_sync_in_loop,
    ga104_cpu_tensor_to_gpu,
    ga105_copy_in_loop,
    ga106_dataloader,
    ga107_inference_grad,
    ga108_debug_switches,
    ga109_float64_gpu,
    ga110_launch_bound_loop,
)

CHECK_MODULES = (
    ga101_timing_sync, ga102_timing_first_call, ga103_host_sync_in_loop, ga104_cpu_tensor_to_gpu,
    ga105_copy_in_loop, ga106_dataloader, ga107_inference_grad, ga108_debug_switches, ga109_float64_gpu,
    ga110_launch_bound_loop,
)
