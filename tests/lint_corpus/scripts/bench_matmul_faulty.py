"""Is the GPU faster than the CPU? (a benchmark as it appears in many blog posts)"""
import time
import timeit

import numpy as np
import torch

N = 4096
a = torch.randn(N, N).cuda()
b = torch.randn(N, N).cuda()

start = time.time()
c = torch.matmul(a, b)
end = time.time()
print(f"GPU matmul took {(end - start) * 1000:.2f} ms")

a_cpu = torch.randn(N, N)
t0 = time.perf_counter()
c_cpu = a_cpu @ a_cpu
print(f"CPU matmul took {(time.perf_counter() - t0) * 1000:.2f} ms")

x = torch.from_numpy(np.random.rand(N, N)).to("cuda")
t0 = time.perf_counter()
for _ in range(10):
    y = x @ x
elapsed = time.perf_counter() - t0
print(f"float64 matmul: {elapsed / 10 * 1000:.2f} ms")

print("relu:", timeit.timeit(lambda: torch.relu(a), number=1000))
