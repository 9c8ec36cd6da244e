"""Abstract values of the CUDA data-flow pass, as bit flags.

A kind is a may-set: ``CUDA_TENSOR | CPU_TENSOR`` reads "a tensor that is on CUDA on some path".
Joins are ``|`` and questions are ``&``: plain ints keep the pass fast (enum.Flag is several times slower).
No bit at all means "nothing known", and checks stay quiet about unknown values.
"""

from __future__ import annotations

CUDA_DEVICE = 1 << 0  # "cuda", "cuda:1", torch.device("cuda"), t.device of a CUDA tensor
CPU_DEVICE = 1 << 1
CUDA_TENSOR = 1 << 2
CPU_TENSOR = 1 << 3
FRESH = 1 << 4  # a CPU tensor a factory just made (torch.randn(...)), not yet used for anything else
F64 = 1 << 5  # float64 data: tensor, array or model
MODEL = 1 << 6  # an nn.Module (device unknown or CPU)
CUDA_MODEL = 1 << 7  # an nn.Module moved to CUDA
EVAL = 1 << 8  # a model switched to .eval(): calls on it are inference
NUMPY = 1 << 9
LOADER = 1 << 10  # torch.utils.data.DataLoader
CUDA_WORKER = 1 << 11  # an object whose methods launch CUDA work: optimizer over CUDA params, GradScaler
EVENT = 1 << 12  # torch.cuda.Event / Stream: has .synchronize()
NP_RNG = 1 << 13  # numpy.random.default_rng(): draws float64
DTYPE = 1 << 14  # a dtype value (torch.float16, np.float32, ...)
DTYPE_F64 = 1 << 15  # the dtype float64 itself
CUDA_FN = 1 << 16  # a function or lambda that launches CUDA work when called
CONTAINER = 1 << 17  # a list/tuple/dict of such values: torch.cat(it) is a tensor, `if it:` is no host read

# Bits from INSTANCE_SHIFT up say which of the user's own classes a value may be an instance of (one bit
# per class, numbered in source order): `metric.add(x)` then reaches Accumulator.add.
INSTANCE_SHIFT = 32
INSTANCE_BITS = ~((1 << INSTANCE_SHIFT) - 1)

CUDA_ANY = CUDA_TENSOR | CUDA_MODEL | CUDA_WORKER
MODEL_BITS = MODEL | CUDA_MODEL | EVAL
TENSOR_BITS = CUDA_TENSOR | CPU_TENSOR | F64 | FRESH
DEVICE_BITS = CUDA_DEVICE | CPU_DEVICE

_NAMES = {value: name for name, value in list(globals().items())
          if name.isupper() and name != "INSTANCE_SHIFT" and isinstance(value, int) and 0 < value < (1 << INSTANCE_SHIFT)
          and value & (value - 1) == 0}


def describe(kind: int) -> str:
    """`CUDA_TENSOR|F64`: for evidence and debugging."""
    names = [name for bit, name in sorted(_NAMES.items()) if kind & bit]
    if kind >> INSTANCE_SHIFT:
        names.append("INSTANCE")
    return "|".join(names) or "unknown"


def is_cuda_tensor(kind: int) -> bool:
    return bool(kind & CUDA_TENSOR)


def on_cuda(kind: int) -> bool:
    return bool(kind & CUDA_ANY)


def tensor_part(kind: int) -> int:
    return kind & TENSOR_BITS
