"""The GPU's clock-event (formerly "throttle") reasons: every name the probe can report, and which cost speed.

One list for the probe (which decodes NVML's bit mask into these names), the derived facts (which pick the
ones that matter) and the rules. Plain data: no pydantic, no NVML.
"""

#: Bits of nvmlDeviceGetCurrentClocksEventReasons (nvml.h nvmlClocksEventReason*; same bits as the older
#: ...ThrottleReasons). Fixed ABI values, so decoding needs no pynvml and works on a loaded report's raw mask.
CLOCK_EVENT_REASONS: tuple[tuple[int, str], ...] = (
    (0x001, "gpu_idle"),
    (0x002, "applications_clocks_setting"),
    (0x004, "sw_power_cap"),
    (0x008, "hw_slowdown"),
    (0x010, "sync_boost"),
    (0x020, "sw_thermal_slowdown"),
    (0x040, "hw_thermal_slowdown"),
    (0x080, "hw_power_brake_slowdown"),
    (0x100, "display_clock_setting"),
    (0x200, "board_limit"),
    (0x400, "reliability"),
)

#: Reasons that cost performance (gpu_idle, sync_boost and the settings reasons do not).
PERFORMANCE_LIMITING_REASONS = (
    "hw_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown", "sw_thermal_slowdown", "sw_power_cap",
)

#: Those of them that mean trouble while the GPU is busy: a GPU under full load is expected to sit at its
#: software power cap, so only the slowdowns count there.
SLOWDOWN_REASONS = tuple(reason for reason in PERFORMANCE_LIMITING_REASONS if reason != "sw_power_cap")
