"""Compare attention implementations (the timing helper forgets to synchronize)."""
import time

import torch
import torch.nn.functional as F


def naive_attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ v


def bench(fn, *args, iters=50):
    fn(*args)
    start = time.perf_counter()
    for _ in range(iters):
        fn(*args)
    return (time.perf_counter() - start) / iters * 1e3


def bench_synced(fn, *args, iters=50):
    for _ in range(5):
        fn(*args)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        fn(*args)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters * 1e3


if __name__ == "__main__":
    for seq in (512, 1024, 2048, 4096):
        q, k, v = (torch.randn(8, 16, seq, 64, device="cuda", dtype=torch.float16) for _ in range(3))
        print(seq, "naive", bench(naive_attention, q, k, v))
        print(seq, "sdpa", bench(F.scaled_dot_product_attention, q, k, v))
        print(seq, "sdpa synced", bench_synced(F.scaled_dot_product_attention, q, k, v))
