"""An out-of-memory message, read and explained: what each number means and what to try. Pure; no GPU needed.

torch >= 2.1 says: "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of
which 1.50 GiB is free. [Process 123 has 3.00 GiB memory in use.] Including non-PyTorch memory, this process has
77.60 GiB memory in use. Of the allocated memory 70.10 GiB is allocated by PyTorch, [with X allocated in private
pools (e.g., CUDA Graphs),] and 6.90 GiB is reserved by PyTorch but unallocated. If reserved but unallocated ..."
torch < 2.1 said: "Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 12.35 GiB already allocated;
1.46 GiB free; 13.20 GiB reserved in total by PyTorch)".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from advisor.formatting import human_bytes

_UNITS = {"bytes": 1, "b": 1, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
#: A size as torch prints it ("2.00 GiB", "512 bytes"). Bounded and anchored at the start of a number: the old
#: ``[\d.]+`` re-scanned a long run of digits from every position (quadratic), and took "1.2.3" as a number.
_SIZE = r"(?<![\d.])(\d{1,15}(?:\.\d{1,6})?)(?![\d.])\s{0,4}(bytes|B|KiB|MiB|GiB|TiB)"
#: A GPU index or PID: a handful of digits, never a 5000-digit run that int() refuses.
_ID = r"(\d{1,10})(?!\d)"


def _size(number: str, unit: str) -> Optional[int]:
    try:
        return int(float(number) * _UNITS[unit.lower()])
    except (ValueError, OverflowError):
        return None


def _find(pattern: str, text: str) -> Optional[int]:
    match = re.search(pattern, text, re.IGNORECASE | re.DOTALL)
    return _size(match.group(1), match.group(2)) if match else None


@dataclass
class OomReading:
    tried: Optional[int] = None
    gpu: Optional[int] = None
    total: Optional[int] = None
    free: Optional[int] = None
    this_process: Optional[int] = None  # all memory of the failing process, non-PyTorch included
    allocated: Optional[int] = None  # in live tensors
    reserved_unallocated: Optional[int] = None  # cached by torch's allocator, not in any tensor
    private_pools: Optional[int] = None
    other_processes: dict[int, int] = field(default_factory=dict)  # pid -> bytes, as torch listed them
    style: str = ""  # "torch>=2.1" or "torch<2.1"
    #: The "Process N" taken to be this process (a container hides its host PID from torch), if any.
    self_pid_guess: Optional[int] = None

    @property
    def reserved(self) -> Optional[int]:
        if self.allocated is None or self.reserved_unallocated is None:
            return None
        return self.allocated + self.reserved_unallocated

    @property
    def non_pytorch(self) -> Optional[int]:
        """CUDA context, cuBLAS/cuDNN handles, NCCL buffers, other libraries' allocations in this process."""
        if self.this_process is None or self.reserved is None:
            return None
        return max(0, self.this_process - self.reserved)

    @property
    def others(self) -> Optional[int]:
        """Memory used by other processes: listed by torch, or what is used but not by this process."""
        if self.other_processes:
            return sum(self.other_processes.values())
        if self.total is None or self.free is None or self.this_process is None:
            return None
        derived = self.total - self.free - self.this_process
        # The message rounds every figure to 0.01 GiB: a derived remainder under 0.5% is rounding, not a process.
        return derived if derived > 0.005 * self.total else 0


def _find_self_in_container(reading: OomReading) -> None:
    """torch labels its own process "this process" by comparing PIDs with NVML's; inside a container the PIDs
    differ and it lists itself as "Process N". With no "this process" line, the listed process that holds at
    least what torch reserved is taken to be this one."""
    if reading.this_process is not None or not reading.other_processes or reading.reserved is None:
        return
    candidates = [(used, pid) for pid, used in reading.other_processes.items() if used >= reading.reserved]
    if candidates:
        used, pid = min(candidates)
        reading.this_process = used
        reading.self_pid_guess = pid
        del reading.other_processes[pid]


def parse_oom(text: str) -> Optional[OomReading]:
    """The numbers in a CUDA out-of-memory message, or None when the text is not one."""
    if not re.search(r"out of memory", text, re.IGNORECASE):
        return None
    reading = OomReading(tried=_find(r"Tried to allocate " + _SIZE, text))
    gpu = re.search(r"GPU " + _ID, text)
    reading.gpu = int(gpu.group(1)) if gpu else None
    if "total capacity of" in text:
        reading.style = "torch>=2.1"
        reading.total = _find(r"total capacity of " + _SIZE, text)
        reading.free = _find(r"of which " + _SIZE + r" is free", text)
        reading.this_process = _find(r"this process has " + _SIZE, text)
        reading.allocated = _find(_SIZE + r" is allocated by PyTorch", text)
        reading.private_pools = _find(_SIZE + r" allocated in private pools", text)
        reading.reserved_unallocated = _find(_SIZE + r" is reserved by PyTorch but unallocated", text)
        for pid, number, unit in re.findall(r"Process " + _ID + r" has " + _SIZE + r" memory in use", text,
                                            re.IGNORECASE):
            size = _size(number, unit)
            if size is not None:
                reading.other_processes[int(pid)] = size
        _find_self_in_container(reading)
    elif "total capacity" in text:
        reading.style = "torch<2.1"
        reading.total = _find(_SIZE + r" total capacity", text)
        reading.allocated = _find(_SIZE + r" already allocated", text)
        reading.free = _find(_SIZE + r" free", text)
        reserved = _find(_SIZE + r" reserved in total by PyTorch", text)
        if reserved is not None and reading.allocated is not None:
            reading.reserved_unallocated = max(0, reserved - reading.allocated)
    return reading


@dataclass
class OomExplanation:
    reading: OomReading
    #: "too_big_for_gpu" / "fragmentation" / "other_processes" / "non_pytorch" / "genuinely_full" / "unknown"
    cause: str
    meaning: list[str]
    try_next: list[str]


def _b(value: Optional[int]) -> str:
    return human_bytes(value) if value is not None else "?"


def explain_oom(text: str) -> Optional[OomExplanation]:
    reading = parse_oom(text)
    if reading is None:
        return None
    r = reading
    meaning = []
    if r.tried is not None:
        meaning.append(f"One allocation of {_b(r.tried)} failed; at that moment {_b(r.free)} of the GPU's "
                       f"{_b(r.total)} was free.")
    if r.allocated is not None:
        meaning.append(f"Live tensors held {_b(r.allocated)}; torch's caching allocator held "
                       f"{_b(r.reserved_unallocated)} more that no tensor used (reserved but unallocated).")
    if r.non_pytorch is not None:
        meaning.append(f"This process used {_b(r.this_process)} in all; {_b(r.non_pytorch)} of it outside torch's "
                       "allocator (CUDA context, cuBLAS/cuDNN handles, NCCL, other libraries).")
    if r.self_pid_guess is not None:
        meaning.append(f"Process {r.self_pid_guess} is most likely this process itself (inside a container torch "
                       "cannot match its own PID with the driver's).")
    if r.others:
        meaning.append(f"Other processes used {_b(r.others)} of this GPU.")
    cause, tips = _diagnose(r)
    return OomExplanation(r, cause, meaning, tips)


def _diagnose(r: OomReading) -> tuple[str, list[str]]:
    tried, total = r.tried or 0, r.total or 0
    cached = r.reserved_unallocated or 0
    if total and tried > total:
        return "too_big_for_gpu", [
            f"A single tensor of {_b(tried)} is larger than the whole GPU ({_b(total)}): no allocator setting helps.",
            "Split the work: process the batch in chunks (torch.split / a loop), or chunk the op itself "
            "(attention over blocks, a matmul by row blocks); or reduce the shape or the dtype (bf16 halves it)."]
    if cached and tried and cached + (r.free or 0) >= tried:
        # Before raising, the allocator already released every wholly unused segment and retried; what it still
        # calls reserved-but-unallocated sits in segments that also hold live tensors: gaps, i.e. fragmentation.
        return "fragmentation", [
            f"Fragmentation: {_b(cached)} was held by torch in gaps between live tensors; with the {_b(r.free)} "
            f"free that is more than the {_b(tried)} asked for, but not in one piece. Set "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (segments grow in place instead of leaving gaps) "
            "before the process starts.",
            "Keep shapes steady between steps (pad variable-length inputs to a few bucket sizes); allocate the "
            "large long-lived tensors first.",
            "torch.cuda.empty_cache() returns only whole unused segments to the driver; it does not defragment."]
    if r.others and total and r.others >= 0.1 * total:
        return "other_processes", [
            f"Other processes hold {_b(r.others)}: stop them, wait for them, or pick another GPU "
            "(CUDA_VISIBLE_DEVICES). `gpu-advisor memory` shows who holds what."]
    if r.non_pytorch and total and r.non_pytorch >= 0.1 * total:
        return "non_pytorch", [
            f"{_b(r.non_pytorch)} of this process is outside torch's allocator: another framework in the same "
            "process (JAX/TensorFlow/CuPy preallocating), NCCL buffers, or many CUDA contexts."]
    if r.allocated is None:
        return "unknown", ["Not enough numbers in the message to say more; run `gpu-advisor memory` on the machine."]
    return "genuinely_full", [
        "The tensors alive at that moment need more memory than the GPU has: use a smaller batch "
        "(`gpu-advisor batch-size` finds the largest that runs), or less memory per sample: bf16 autocast, "
        "activation checkpointing, a fused/foreach-free optimizer step, chunked loss over the vocabulary.",
        "Free what is no longer needed before the peak: drop references (del, optimizer.zero_grad(set_to_none=True)),"
        " evaluate under torch.inference_mode(), and do not keep losses or outputs with their graphs "
        "(use loss.item() or .detach() for logging).",
        "If reserved-but-unallocated grows over a run, PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True helps."]
