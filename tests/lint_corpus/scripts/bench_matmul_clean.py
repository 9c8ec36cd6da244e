"""Matmul throughput, measured correctly: warm-up, synchronize, CUDA events, several repeats."""
import statistics
import time

import torch
from torch.utils import benchmark


def sync_time(fn, *args, repeats=20, warmup=3):
    for _ in range(warmup):
        fn(*args)
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(*args)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def event_time(fn, *args, repeats=20):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    fn(*args)
    start.record()
    for _ in range(repeats):
        fn(*args)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / repeats


def main():
    device = "cuda"
    for n in [1024, 2048, 4096, 8192]:
        a = torch.randn(n, n, device=device)
        b = torch.randn(n, n, device=device)
        seconds = sync_time(torch.matmul, a, b)
        ms = event_time(torch.matmul, a, b)
        tflops = 2 * n**3 / seconds / 1e12
        print(f"n={n}: {seconds * 1e3:.3f} ms (events {ms:.3f} ms), {tflops:.1f} TFLOP/s")
        timer = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b})
        print(timer.blocked_autorange(min_run_time=0.5))

    x = torch.randn(1 << 20, device=device)
    total = torch.zeros((), device=device)
    for _ in range(100):
        total += torch.relu(x).sum()
    print("checksum", total.item())

    t_start = time.time()
    results = [torch.relu(x).sum() for _ in range(10)]
    torch.cuda.synchronize()
    print(f"10 relus in {time.time() - t_start:.4f}s", len(results))


if __name__ == "__main__":
    main()
