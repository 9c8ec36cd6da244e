"""DriverFacts and GpuFacts from `nvidia-smi -q` text, from driver 418 to 610.

Field names moved between drivers ("Clocks Throttle Reasons" became "Clocks Event Reasons" in 535, "Power
Readings" became "GPU Power Readings", "Driver Version" gave way to "KMD Version" in 610); each fact below reads
every spelling it has had. GPUs are indexed in the order printed, which is NVML's index order.

PCIe generations: "GPU Link Info > PCIe Generation" prints Max, Current, Device Max, Device Current, Host Max.
  Current    -> pcie_gen_current  (NVML CurrPcieLinkGeneration: the link as trained now; idle GPUs drop to Gen1)
  Max        -> pcie_gen_max      (NVML MaxPcieLinkGeneration: the best GPU and slot can both do)
  Device Max -> pcie_gen_gpu_max  (NVML GpuMaxPcieLinkGeneration: the GPU's own best; printed since ~515)
"Device Current" repeats Current as the GPU sees it and "Host Max" is the slot's side; neither has a field.
"""

from __future__ import annotations

from typing import Optional

from advisor.ingest.shell import unavailable_model
from advisor.ingest.smi_tree import Node, parse_tree
from advisor.ingest.smi_values import ecc_counts, number, printed, reasons, remapped_rows
from advisor.ingest.values import is_no_value, parse_bool, parse_int
from advisor.models.common import Fact, missing
from advisor.models.facts import DriverFacts, GpuFacts, GpuProcess

NOT_IN = "not in nvidia-smi -q output"
#: GPUs kept from one paste ("Attached GPUs" still says how many there are): no machine has more.
MAX_GPUS = 4096
MIB = 1024 * 1024
_COMPUTE_MODES = {"default": "default", "exclusive_process": "exclusive_process",
                  "exclusive_thread": "exclusive_thread", "prohibited": "prohibited"}


def parse_nvidia_smi(text: str) -> tuple[DriverFacts, list[GpuFacts]]:
    root = parse_tree(text)
    gpu_nodes = [node for node in root.children if node.key.startswith("GPU ") and node.children]
    gpus = [_gpu(index, node) for index, node in enumerate(gpu_nodes[:MAX_GPUS])]
    return _driver(root), gpus


def _driver(root: Node) -> DriverFacts:
    # 610+ marks "Driver Version" and "CUDA Version" deprecated in favour of "KMD Version"/"CUDA UMD Version".
    version = root.get("KMD Version") or _strip_note(root.get("Driver Version"))
    cuda = root.get("CUDA UMD Version") or _strip_note(root.get("CUDA Version"))
    attached = parse_int(root.get("Attached GPUs"))
    return unavailable_model(
        DriverFacts, NOT_IN,
        version=printed(version, "driver version") if version is not None else missing(NOT_IN),
        cuda_version=printed(cuda, "CUDA version") if cuda is not None else missing(NOT_IN),
        gpu_count=attached if attached is not None else missing(NOT_IN),
    )


def _strip_note(text: Optional[str]) -> Optional[str]:
    return text.split("[", 1)[0].strip() if text is not None else None


def _gpu(index: int, node: Node) -> GpuFacts:
    link = node.child("PCI", "GPU Link Info")
    clocks, max_clocks = node.child("Clocks"), node.child("Max Clocks")
    return unavailable_model(
        GpuFacts, NOT_IN,
        index=index,
        name=_text(node, "Product Name"),
        uuid=_text(node, "GPU UUID"),
        serial=_optional_text(node, "Serial Number"),
        pci_bus_id=_text(node, "PCI", "Bus Id") if node.child("PCI", "Bus Id") else node.key.split(" ", 1)[1],
        architecture=_text(node, "Product Architecture"),
        compute_capability=missing("nvidia-smi -q does not print the compute capability"),
        sm_count=missing("nvidia-smi -q does not print the SM count"),
        memory_total_bytes=number(node, ("FB Memory Usage", "Total"), scale=MIB),
        memory_used_bytes=number(node, ("FB Memory Usage", "Used"), scale=MIB),
        memory_free_bytes=number(node, ("FB Memory Usage", "Free"), scale=MIB),
        pcie_gen_current=number(link, ("PCIe Generation", "Current")),
        pcie_gen_max=number(link, ("PCIe Generation", "Max")),
        pcie_gen_gpu_max=number(link, ("PCIe Generation", "Device Max")),
        pcie_width_current=number(link, ("Link Width", "Current")),
        pcie_width_max=number(link, ("Link Width", "Max")),
        clock_sm_mhz=number(clocks, ("SM",)),
        clock_sm_max_mhz=number(max_clocks, ("SM",)),
        clock_mem_mhz=number(clocks, ("Memory",)),
        clock_mem_max_mhz=number(max_clocks, ("Memory",)),
        clock_event_reasons=reasons(node.child("Clocks Event Reasons") or node.child("Clocks Throttle Reasons")),
        power_draw_w=_power_draw(node),
        power_limit_w=_power_limit(node),
        temperature_c=number(node, ("Temperature", "GPU Current Temp")),
        ecc_enabled=_ecc_enabled(node),
        **ecc_counts(node.child("ECC Errors")),
        **remapped_rows(node),
        mig_enabled=_mig_enabled(node),
        compute_mode=_compute_mode(node),
        persistence_mode=_persistence(node),
        processes=_processes(node),
        other_processes_memory_bytes=missing("only known when probed from inside the user's own process"),
        torch_index=missing("nvidia-smi does not know torch's device numbering"),
    )


def _text(node: Node, *path: str) -> Fact[str]:
    value = node.get(*path)
    if value is None:
        return missing(NOT_IN)
    return missing(f"nvidia-smi printed {value!r}") if is_no_value(value) else value


def _optional_text(node: Node, *path: str) -> Fact[Optional[str]]:
    value = node.get(*path)
    if value is None:
        return missing(NOT_IN)
    return None if is_no_value(value) else value  # consumer boards have no serial: N/A means "none", not unknown


def _power_section(node: Node) -> Optional[Node]:
    return node.child("GPU Power Readings") or node.child("Power Readings")


def _power_draw(node: Node) -> Fact[float]:
    # Drivers >= 580 print average and instantaneous draw; NVML's power usage (what the probe reads) is the
    # 1-second average on current GPUs, so the average is the comparable figure.
    section = _power_section(node)
    key = "Average Power Draw" if section is not None and section.child("Average Power Draw") else "Power Draw"
    return number(section, (key,), integer=False)


def _power_limit(node: Node) -> Fact[float]:
    section = _power_section(node)
    if section is None:
        return missing(NOT_IN)
    for path in (("GPU Ceiling Power Limit", "Current Power Limit"), ("Current Power Limit",),
                 ("Enforced Power Limit",), ("Power Limit",)):
        if section.child(*path) is not None:
            return number(section, path, integer=False)
    return missing(NOT_IN)


def _ecc_enabled(node: Node) -> Fact[Optional[bool]]:
    current = node.get("ECC Mode", "Current")  # "Ecc Mode" before ~525; lookups ignore case
    if current is None:
        return missing(NOT_IN)
    return parse_bool(current) if not is_no_value(current) else None  # N/A: this GPU has no ECC


def _mig_enabled(node: Node) -> Fact[bool]:
    current = node.get("MIG Mode", "Current")
    if current is None:
        return missing(f"{NOT_IN} (drivers before 450 print no MIG mode)")
    # N/A means the GPU cannot do MIG, so MIG is certainly not enabled on it.
    enabled = parse_bool(current)
    if enabled is not None:
        return enabled
    return False if is_no_value(current) else missing(f"nvidia-smi printed {current!r}")


def _compute_mode(node: Node) -> Fact[str]:
    value = node.get("Compute Mode")
    if value is None:
        return missing(NOT_IN)
    mode = _COMPUTE_MODES.get(value.strip().lower().replace(" ", "_"))
    return mode if mode else missing(f"nvidia-smi printed {value!r}")


def _persistence(node: Node) -> Fact[bool]:
    value = node.get("Persistence Mode")
    if value is None:
        return missing(NOT_IN)
    parsed = parse_bool(value)
    if parsed is None:
        return missing(f"nvidia-smi printed {value!r} (there is no persistence mode on Windows)")
    return parsed


def _processes(node: Node) -> Fact[list[GpuProcess]]:
    section = node.child("Processes")
    if section is None:
        return missing(NOT_IN)
    if not section.children:
        # "Processes : None" is an empty list; any other word is a failure to list them.
        if (section.value or "").strip().lower() in ("none", "no running processes found"):
            return []
        return missing(f"nvidia-smi printed {section.value!r} for processes")
    found = []
    for entry in section.children:
        pid = parse_int(entry.value) if entry.key.lower() == "process id" else None
        if pid is None:
            continue
        name = entry.get("Name")
        memory = entry.get("Used GPU Memory")
        found.append(GpuProcess(
            pid=pid,
            name=name if name else missing("nvidia-smi printed no process name"),
            used_memory_bytes=(int(parse_int(memory) * MIB) if memory and parse_int(memory) is not None
                               else missing(f"nvidia-smi printed {memory!r}" if memory else NOT_IN)),
        ))
    return found
