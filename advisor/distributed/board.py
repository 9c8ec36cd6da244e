"""A notice board in the rendezvous store: each rank's phase, heartbeat and finished summary.

torch.distributed's own store (the TCPStore behind env://) survives a rank's death, so rank 0 can still read
what every rank got to: who reported, who is alive but stuck, who stopped beating (died or was killed),
and who was stopped by the launcher. Keys are namespaced by the run, so a reused port never mixes two runs.
"""

from __future__ import annotations

import datetime
import os
import threading
import time
from typing import Any, Optional

HEARTBEAT_S = 0.25
_READ_TIMEOUTS = (datetime.timedelta(seconds=3), datetime.timedelta(seconds=10))


class Board:
    def __init__(self, store: Any, rank: int, world_size: int) -> None:
        self.store = store
        self.rank = rank
        self.world_size = world_size
        run = os.environ.get("TORCHELASTIC_RUN_ID") or os.environ.get("SLURM_JOB_ID") or "run"
        self._prefix = f"gpu_advisor/{run}/"
        self._stop = threading.Event()
        self._beater: Optional[threading.Thread] = None

    def _key(self, kind: str, rank: int) -> str:
        return f"{self._prefix}{kind}/{rank}"

    def _set(self, kind: str, value: str) -> None:
        try:
            self.store.set(self._key(kind, self.rank), value)
        except Exception:  # noqa: BLE001 - the board is best effort: a dead store must not kill the rank
            pass

    def phase(self, name: str) -> None:
        self._set("phase", name)

    def node(self, name: str) -> None:
        self._set("node", name)

    def stopped(self, why: str) -> None:
        self._set("stopped", why)

    def post_summary(self, summary_json: str) -> None:
        self._set("summary", summary_json)

    def start_heartbeat(self) -> None:
        def beat() -> None:
            while not self._stop.wait(HEARTBEAT_S):
                try:
                    self.store.add(self._key("beat", self.rank), 1)
                except Exception:  # noqa: BLE001 - the store's host went away: nothing left to tell
                    return

        self._beater = threading.Thread(target=beat, name="gpu-advisor-heartbeat", daemon=True)
        self._beater.start()

    def stop_heartbeat(self) -> None:
        self._stop.set()

    # --- rank 0 reads -------------------------------------------------------------------------------------

    def read(self, kind: str, rank: int) -> Optional[str]:
        """What a rank posted under ``kind``, or None when it posted nothing. A read that times out (a store slowed
        by a loaded host) is tried once more with a longer wait: "no phase" must mean the rank wrote none."""
        key = self._key(kind, rank)
        for timeout in _READ_TIMEOUTS:
            try:
                self.store.set_timeout(timeout)
                if not self.store.check([key]):
                    return None
                return self.store.get(key).decode(errors="replace")
            except Exception:  # noqa: BLE001 - the store's host went away, or answered too slowly: try once more
                continue
        return None

    def beats(self) -> dict[int, int]:
        counts = {}
        for rank in range(self.world_size):
            try:
                counts[rank] = int(self.store.add(self._key("beat", rank), 0))
            except Exception:  # noqa: BLE001
                counts[rank] = -1
        return counts

    def alive(self, wait_s: float = 3 * HEARTBEAT_S + 0.5) -> set[int]:
        """Ranks whose heartbeat still advances (read twice, ``wait_s`` apart)."""
        before = self.beats()
        time.sleep(wait_s)
        after = self.beats()
        return {rank for rank in range(self.world_size) if after[rank] > before[rank] >= 0}
