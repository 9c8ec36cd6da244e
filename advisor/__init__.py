"""gpu-advisor: why is my GPU code slow or broken, answered from measurements on this machine."""

import time as _time

__version__ = "0.1.0"

#: When this process started using gpu-advisor: wall-time budgets (diagnose --budget) count from here.
PROCESS_START = _time.perf_counter()
