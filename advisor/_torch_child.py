"""Probing torch in a child process that starts before anything else loads. Standard library only.

`gpu-advisor env` should cost no more than `import torch; torch.cuda.init()`. In one process that is out of
reach: the CLI's own imports (typer, pydantic), the rules and the rendering all hold the GIL that torch's import
needs. So the entry point starts this child first thing, the child imports torch and probes it while the parent
loads everything else (and prepares the rules and renderer: env_cmd), and the parent reads the child's facts
as JSON. The child imports torch and the probe module only -- not pydantic -- so nothing of gpu-advisor's own
sits between torch's import and the facts. A torch build that crashes the interpreter on import (a bad CUDA
library can segfault) then costs the child, not the report.

This module must import nothing beyond the standard library: it runs before the rest of gpu-advisor loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

MARKER = "GPU-ADVISOR-TORCH-FACTS "
TIMEOUT_S = 180.0
_CHILD_CODE = (
    "import json, sys\n"
    "failure = None\n"
    "try:\n"
    "    import torch  # the slow part first; its real error is what probe_torch_fields reports\n"
    "except BaseException as error:\n"
    "    failure = error\n"
    "from advisor.probe import torch_env\n"
    "if failure is not None:\n"
    "    torch_env.remember_import_failure(failure)  # a second import would fail differently\n"
    "from advisor.probe.torch_env import probe_torch_fields\n"
    f"sys.stdout.write({MARKER!r} + json.dumps(probe_torch_fields()) + '\\n')\n"
)

_early: Optional[subprocess.Popen] = None


def start() -> subprocess.Popen:
    """Start the child with this interpreter and environment, able to import this copy of gpu-advisor."""
    package_root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-c", _CHILD_CODE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, text=True)


def start_early() -> None:
    """Called by the entry point for commands that probe torch; collect_facts() then adopts the child."""
    global _early
    if _early is None:
        _early = start()


def adopt_early() -> Optional[subprocess.Popen]:
    """The child started by the entry point, if any (each child is adopted once)."""
    global _early
    child, _early = _early, None
    return child


def finish(child: subprocess.Popen, timeout_s: float = TIMEOUT_S) -> tuple[Optional[dict[str, Any]], str]:
    """(the fields of probe_torch_fields(), or None) and why not: the child's last stderr line, its exit signal
    or a timeout."""
    try:
        out, err = child.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return None, f"probing torch took longer than {timeout_s:.0f} s and was stopped"
    for line in reversed(out.splitlines()):
        if line.startswith(MARKER):
            try:
                return json.loads(line[len(MARKER):]), ""
            except ValueError as error:  # a torch that prints over our line: say so rather than crash
                return None, f"the torch probe's output was garbled: {error}"
    if child.returncode < 0:
        return None, f"the interpreter died with signal {-child.returncode} while importing or probing torch"
    last = next((line.strip() for line in reversed(err.splitlines()) if line.strip()), "no output")
    return None, f"probing torch failed (exit code {child.returncode}): {last}"
