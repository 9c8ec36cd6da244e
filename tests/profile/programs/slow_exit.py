"""A small CPU training loop whose exit is slow: an atexit handler of its own sleeps, then notes that it ran.

    python slow_exit.py OUT_DIR EXIT_SECONDS

Writes OUT_DIR/pid first and OUT_DIR/exited when its handler ends: the profile tests check that the program's
exit is waited for (and its handler run), and that an exit which never ends is stopped at --timeout.
"""
import atexit
import os
import sys
import time

import torch

out_dir, exit_seconds = sys.argv[1], float(sys.argv[2])
with open(os.path.join(out_dir, "pid"), "w") as handle:
    handle.write(str(os.getpid()))


def slow_cleanup() -> None:
    time.sleep(exit_seconds)
    with open(os.path.join(out_dir, "exited"), "w") as handle:
        handle.write("done")


atexit.register(slow_cleanup)
model = torch.nn.Sequential(torch.nn.Linear(128, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(30):
    loss = torch.nn.functional.cross_entropy(model(torch.randn(128, 128)), torch.randint(0, 10, (128,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
