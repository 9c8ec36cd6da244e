"""Writes its pid, then hangs (blocked, no steps)."""
import os
import sys
import time

with open(sys.argv[1], "w") as handle:
    handle.write(str(os.getpid()))
while True:
    time.sleep(1)
