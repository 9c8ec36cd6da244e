"""Published dense peak rates of common NVIDIA GPUs, to say how close a measured number is to the part's spec.

Dense (no sparsity) tensor-core TFLOP/s where the part has them for that dtype; fp16/bf16 with fp32
accumulation, which is what torch's matmul uses. Sources: NVIDIA product data sheets.
Matched by a substring of the NVML/torch name; the first match wins, so more specific names come first.
"""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel


class GpuSpec(BaseModel):
    matmul_tflops: dict[str, float]
    memory_gbps: float


def _spec(fp32: float, tf32: float, fp16: float, bf16: float, fp64: float, memory_gbps: float) -> GpuSpec:
    return GpuSpec(matmul_tflops={"float32": fp32, "tf32": tf32, "float16": fp16, "bfloat16": bf16,
                                  "float64": fp64}, memory_gbps=memory_gbps)


SPECS: list[tuple[str, GpuSpec]] = [
    ("H200", _spec(67, 494.7, 989.4, 989.4, 67, 4800)),
    ("H100 PCIe", _spec(51, 378, 756, 756, 51, 2000)),
    ("H100 NVL", _spec(60, 417.5, 835, 835, 60, 3900)),
    ("H100", _spec(67, 494.7, 989.4, 989.4, 67, 3350)),  # SXM5 (NVML: "NVIDIA H100 80GB HBM3")
    ("A100-SXM4-80GB", _spec(19.5, 156, 312, 312, 19.5, 2039)),
    ("A100 80GB PCIe", _spec(19.5, 156, 312, 312, 19.5, 1935)),
    ("A100", _spec(19.5, 156, 312, 312, 19.5, 1555)),  # 40 GB parts
    ("L40S", _spec(91.6, 183, 362, 362, 1.4, 864)),
    ("L4", _spec(30.3, 60, 121, 121, 0.49, 300)),
    ("A10G", _spec(31.2, 62.5, 125, 125, 0.98, 600)),
    ("A10", _spec(31.2, 62.5, 125, 125, 0.98, 600)),
    ("V100", _spec(15.7, 15.7, 125, 15.7, 7.8, 900)),
    ("T4", _spec(8.1, 8.1, 65, 8.1, 0.25, 320)),
    ("RTX 5090", _spec(104.8, 104.8, 209.5, 209.5, 1.6, 1792)),
    ("RTX 4090", _spec(82.6, 82.6, 165.2, 165.2, 1.3, 1008)),
    ("RTX 3090", _spec(35.6, 35.6, 71, 71, 0.56, 936)),
]


def spec_for(name: Optional[str]) -> Optional[GpuSpec]:
    if not name:
        return None
    return next((spec for key, spec in SPECS if key in name), None)
