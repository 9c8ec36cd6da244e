"""Where the time of one batch-size trial goes, on a GPU: a failing (out-of-memory) trial and a successful one of
the demo transformer (bf16, AdamW), phase by phase, in a process that has imported what bench_batch_size.py imports
(Lightning, torchvision), since gc.collect() scales with the objects alive.

    python benchmarks/probe_trial_cost.py [--fail 816] [--fit 600] [--no-lightning]

Prints one JSON line per trial: seconds per phase, and the gc object count.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fail", type=int, default=816)
    parser.add_argument("--fit", type=int, default=600)
    parser.add_argument("--no-lightning", action="store_true")
    args = parser.parse_args()
    import torch

    if not args.no_lightning:
        import lightning  # noqa: F401
        import torchvision  # noqa: F401
    from advisor.recommend.driver import CudaMeter, StepRunner, StepSpec
    from advisor.recommend.model_source import load_model

    device = torch.device("cuda")
    model = load_model("transformer").model.to(device)
    sample = torch.randint(0, 32_000, (8, 512))
    meter = CudaMeter(device)
    runner = StepRunner(model, sample, StepSpec(mode="train", optimizer="adamw", amp="bf16", steps_per_trial=3),
                        device, meter)
    runner._make_step(8, [0])()  # CUDA, cuBLAS and autocast warm
    meter.release(collect=True)
    for batch in (args.fail, args.fit, args.fail, args.fit):
        marks = [("start", time.perf_counter())]

        def mark(name: str, marks: list = marks) -> None:
            torch.cuda.synchronize()
            marks.append((name, time.perf_counter()))

        meter.release(collect=False)
        mark("release (sync + empty_cache)")
        meter.reset_peak()
        counter = [0]
        step = runner._make_step(batch, counter)
        mark("make step (batch, optimizer)")
        failed = False
        try:
            for _ in range(3):
                step()
                mark(f"step {counter[0]}")
        except torch.OutOfMemoryError:
            failed = True
        mark("raised (OOM)" if failed else "steps done")
        del step
        mark("step closure dropped")
        objects = len(gc.get_objects())
        if failed:
            model.zero_grad(set_to_none=True)
            mark("zero_grad")
            gc.collect(1)
            mark("gc.collect(1)")
            young_left = torch.cuda.memory_allocated(device)
            gc.collect()
            mark("gc.collect() full")
            full_left = torch.cuda.memory_allocated(device)
        torch.cuda.empty_cache()
        mark("empty_cache")
        phases = {name: round(at - before, 4) for (_, before), (name, at) in zip(marks, marks[1:], strict=False)}
        print(json.dumps({"batch": batch, "failed": failed, "total_s": round(marks[-1][1] - marks[0][1], 3),
                          "gc_objects": objects, "phases_s": phases,
                          "allocated_after_gc1_vs_full": [young_left, full_left] if failed else None}), flush=True)


if __name__ == "__main__":
    main()
