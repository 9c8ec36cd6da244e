"""(f) A torch.compile'd MLP trained on the CPU, with per-sample augmentation in eager Python before each step
and a non-foreach AdamW after it: a compiled program whose profiled window makes a trace of tens of MB (its
host-side ops and Python frames), to time what `gpu-advisor profile` costs after the window (stopping the
profiler, exporting and reading the trace, the compiled program's exit) on a machine without a GPU.

    python compiled_mlp_cpu.py [STEPS] [SAMPLES_PER_STEP]

Needs inductor and a C++ compiler (torch.compile on the CPU). Profile it with a --wait-seconds above its
compile time, so the window is found by its optimizer steps:

    gpu-advisor profile --wait-seconds 120 --steps 10 -- benchmarks/profile_programs/compiled_mlp_cpu.py 40
"""
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
samples = int(sys.argv[2]) if len(sys.argv) > 2 else 64
features, width, depth = 128, 256, 6
layers = [torch.nn.Linear(features, width), torch.nn.GELU()]
for _ in range(depth - 2):
    layers += [torch.nn.Linear(width, width), torch.nn.GELU()]
model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 10))
compiled = torch.compile(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=False)
images = torch.randn(1024, features)
labels = torch.randint(0, 10, (1024,))


def augment(sample: torch.Tensor) -> torch.Tensor:
    """Per-sample noise and scaling, one small tensor at a time: the kind of loop a data pipeline runs."""
    noisy = sample + 0.01 * torch.randn_like(sample)
    return (noisy - noisy.mean()) / (noisy.std() + 1e-5)


for step in range(steps):
    picks = torch.randint(0, len(images), (samples,))
    batch = torch.stack([augment(images[i]) for i in picks.tolist()])
    loss = torch.nn.functional.cross_entropy(compiled(batch), labels[picks])
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
