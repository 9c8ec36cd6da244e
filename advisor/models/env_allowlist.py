"""Which environment variables gpu-advisor reads: an allowlist, never the whole environment.

Data shared by the probe (which reads them) and the rule engine (which accepts ``env.NAME`` paths only for
names on this list), so a rule cannot ask for a variable the probe would never record.
"""

from __future__ import annotations

ENV_EXACT = frozenset({
    "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_LAUNCH_BLOCKING", "CUDA_MODULE_LOADING",
    "CUDA_CACHE_DISABLE", "CUDA_CACHE_MAXSIZE", "CUDA_HOME", "CUDA_PATH", "CUDA_DEVICE_MAX_CONNECTIONS",
    "NVIDIA_VISIBLE_DEVICES", "NVIDIA_TF32_OVERRIDE", "CUBLAS_WORKSPACE_CONFIG", "CUBLASLT_WORKSPACE_SIZE",
    "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "KMP_AFFINITY", "KMP_BLOCKTIME",
    "GOMP_CPU_AFFINITY", "OMP_PROC_BIND", "LD_LIBRARY_PATH", "LD_PRELOAD", "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
})
ENV_PREFIXES = ("NCCL_", "TORCH_", "PYTORCH_", "CUDNN_", "TORCHINDUCTOR_")
#: Never recorded, whatever the prefix: these name credentials.
ENV_SECRET_MARKERS = ("TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH")


def env_name_allowed(name: str) -> bool:
    upper = name.upper()
    if any(marker in upper for marker in ENV_SECRET_MARKERS):
        return False
    return name in ENV_EXACT or name.startswith(ENV_PREFIXES)
