"""The first ten minutes of a new user, replayed: every command with typical arguments and with bad ones, at 80
and at 120 columns, through the real console entry (`python -m advisor`, stdin closed, as a pipe would run it).

Fails on what such a user trips over first:
- a traceback, anywhere;
- an error that is not one line on stderr in the `gpu-advisor: error: ...` form (usage errors included);
- an exit code other than the one the README promises for that case;
- --help that does not read like a Unix tool's (Python types as metavars, truncation, words broken at the
  edge, lines wider than the terminal, options named that the command lacks) -- tests/cli/help_check.py;
- Markdown that does not render what it says (GFM via markdown-it: stray HTML, lost placeholders, longer than
  one GitHub comment) -- tests/cli/markdown_check.py.

    PYTHONPATH=. python benchmarks/first_ten_minutes.py            # both widths
    PYTHONPATH=. python benchmarks/first_ten_minutes.py --width 80 # one

Exit 0 when every case passes; otherwise each problem is listed and the exit code is 1. On a machine without a
GPU the measuring commands are expected to stop with exit 3 and one line saying why.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.cli.help_check import COMMANDS, help_problems  # noqa: E402
from tests.cli.markdown_check import markdown_problems  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures"
H200 = FIXTURES / "reports" / "h200_diagnose.json"
CPU_ONLY = FIXTURES / "reports" / "cpu_only_diagnose.json"
PASTE = FIXTURES / "collect_env" / "linux_3x3090_torch1.12_cu116.txt"
SMI = FIXTURES / "nvidia_smi" / "rtx4090x8_driver535_processes.txt"
SCRIPTS = REPO / "tests" / "lint_corpus" / "scripts"
NOTEBOOK = REPO / "tests" / "lint_corpus" / "notebooks" / "explore_faulty.ipynb"
OOM = ("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.19 GiB total capacity; 75.10 GiB already "
       "allocated; 1.5 GiB free; 77.0 GiB reserved in total by PyTorch)")
#: Exit codes the README promises: 0 ok, 1 findings at or above --fail-on, 2 bad usage or input, 3 no GPU/failure.
OK, FINDINGS, BAD, NO_GPU = {0}, {1}, {2}, {3}


@dataclass
class Case:
    args: list[str]
    exits: set[int]
    markdown: bool = False  # the output is Markdown to check
    stdin: str | None = None
    what: str = ""
    parser: bool = False  # a usage error the command-line parser itself reports (unknown option, bad choice)


@dataclass
class Outcome:
    case: Case
    width: int
    code: int
    seconds: float
    problems: list[str] = field(default_factory=list)


def cases(scratch: Path) -> list[Case]:
    binary = scratch / "weights.py"
    binary.write_bytes(b"\x00\x01\x02\xff\xfe")
    model = scratch / "net.py"
    model.write_text("import torch\n\ndef build():\n    return torch.nn.Linear(16, 4)\n")
    oom_file = scratch / "oom.txt"
    oom_file.write_text(OOM)
    gpu = NO_GPU | OK  # a measuring command: exit 3 on a machine without a GPU, 0 on one with
    typical = [
        Case(["--version"], OK), Case([], OK | BAD, what="no arguments: the help"),
        Case(["env"], OK | FINDINGS), Case(["env", "-f", "markdown"], OK, markdown=True),
        Case(["env", "-f", "JSON"], OK), Case(["env", "-o", str(scratch / "env.md")], OK),
        Case(["env", "--verbose", "-f", "markdown"], OK, markdown=True),
        Case(["diagnose", "--quick", "-f", "markdown"], OK, markdown=True),
        Case(["diagnose", "--quick", "--code", str(SCRIPTS), "--fail-on", "high", "-f", "markdown"], FINDINGS,
             markdown=True),
        Case(["crossover", "--op", "matmul", "--dtype", "float32"], gpu),
        Case(["memory"], gpu), Case(["memory", "--explain-oom", OOM, "-f", "markdown"], OK, markdown=True),
        Case(["memory", "--explain-oom", str(oom_file)], OK), Case(["memory", "--explain-oom", "-"], OK, stdin=OOM),
        Case(["batch-size", "--model", "mlp", "--budget", "10"], gpu),
        Case(["batch-size", "--model", f"{model}:build", "--input-shape", "16"], gpu),
        Case(["explain", str(H200), "-f", "markdown"], OK, markdown=True),
        Case(["explain", str(PASTE), "-f", "markdown"], OK | FINDINGS, markdown=True),
        Case(["explain", str(SMI)], OK), Case(["explain", "-", "-f", "markdown"], OK, markdown=True,
                                              stdin=PASTE.read_text()),
        Case(["compare", str(CPU_ONLY), str(H200)], OK),
        Case(["compare", str(CPU_ONLY), str(H200), "-f", "markdown", "--fail-on", "high"], OK, markdown=True),
        Case(["lint", str(SCRIPTS)], FINDINGS), Case(["lint", str(NOTEBOOK), "-f", "sarif"], FINDINGS),
        Case(["lint", str(SCRIPTS), "-f", "markdown"], FINDINGS, markdown=True),
        Case(["lint", str(SCRIPTS), "-o", str(scratch / "lint.sarif"), "--fail-on", "never"], OK),
        Case(["rules", "list"], OK), Case(["rules", "show", "GA101"], OK),
        Case(["rules", "show", "no-nvidia-driver"], OK), Case(["rules", "validate"], OK),
        Case(["schema"], OK), Case(["schema", "-o", str(scratch / "schema.json")], OK),
    ]
    bad = [
        Case(["frobnicate"], BAD, what="unknown command", parser=True), Case(["env", "--frobnicate"], BAD, what="unknown option", parser=True),
        Case(["env", "-f", "yaml"], BAD, parser=True), Case(["env", "-o", str(scratch / "missing" / "env.md")], BAD),
        Case(["env", "-o", str(scratch / "env.html")], BAD), Case(["env", "--rules-dir", "no/such/rules"], BAD),
        Case(["diagnose", "--budget", "1"], BAD, parser=True), Case(["diagnose", "--device", "-1"], BAD, parser=True),
        Case(["diagnose", "--code", "no/such/file.py"], BAD),
        Case(["crossover", "--op", "conv3d"], BAD, parser=True), Case(["crossover", "-o", str(scratch / "missing" / "c.md")], BAD),
        Case(["memory", "--op", "conv"], BAD), Case(["memory", "--explain-oom", "nosuch.txt"], BAD),
        Case(["memory", "--explain-oom", "RuntimeError: shapes do not match"], BAD),
        Case(["memory", "--explain-oom", OOM, "--shape", "10,10"], BAD),
        Case(["batch-size"], BAD, what="missing --model", parser=True), Case(["batch-size", "--model", "no_such_pkg:build"], BAD),
        Case(["batch-size", "--model", "no/such/net.py:build"], BAD),
        Case(["explain"], BAD, what="missing INPUT", parser=True), Case(["explain", "no/such/report.json"], BAD),
        Case(["explain", str(FIXTURES)], BAD), Case(["explain", str(binary)], BAD),
        Case(["compare", str(H200)], BAD, what="missing B", parser=True), Case(["compare", "-", "-"], BAD, stdin=""),
        Case(["lint"], BAD, what="no paths"), Case(["lint", "no/such/file.py"], BAD), Case(["lint", str(binary)], BAD),
        Case(["lint", str(SCRIPTS), "--select", "GA999"], BAD), Case(["lint", str(SCRIPTS), "-o", "x.html"], BAD),
        Case(["rules", "show", "no-such-rule"], BAD), Case(["rules", "validate", "no/such/dir"], BAD),
        Case(["schema", "-o", str(scratch / "schema.yaml")], BAD),
    ]
    helps = [Case([*command, "--help"], OK, what="help") for command in COMMANDS]
    return typical + bad + helps


def run_case(case: Case, width: int) -> Outcome:
    env = {**os.environ, "COLUMNS": str(width), "PYTHONPATH": str(REPO), "PYTHONWARNINGS": ""}
    env.pop("GPU_ADVISOR_DEBUG", None)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "advisor", *case.args], cwd=REPO, env=env, text=True,
                          input=case.stdin if case.stdin is not None else "", capture_output=True, timeout=600)
    outcome = Outcome(case, width, done.returncode, time.monotonic() - started)
    problems = outcome.problems
    if "Traceback" in done.stdout + done.stderr:
        problems.append("a traceback")
    if done.returncode not in case.exits:
        problems.append(f"exit {done.returncode}, expected {sorted(case.exits)}")
    if done.returncode in (2, 3) and case.args:
        lines = done.stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("gpu-advisor: error: "):
            problems.append(f"the error is not one `gpu-advisor: error:` line: {done.stderr.strip()[:300]!r}")
    if case.what == "help":
        problems += help_problems(done.stdout, width)
    if case.markdown and done.returncode in (0, 1):
        problems += [f"Markdown: {p}" for p in markdown_problems(done.stdout)]
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, action="append", help="terminal width(s) to try (default 80 and 120)")
    widths = parser.parse_args().width or [80, 120]
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="gpu-advisor-first-minutes-") as scratch:
        for width in widths:
            for case in cases(Path(scratch)):
                outcomes.append(run_case(case, width))
                mark = "ok  " if not outcomes[-1].problems else "FAIL"
                print(f"{mark} {width:>3} cols  exit {outcomes[-1].code}  {outcomes[-1].seconds:5.1f} s  "
                      f"gpu-advisor {' '.join(a if len(a) < 40 else a[:37] + '...' for a in case.args)}", flush=True)
    failed = [o for o in outcomes if o.problems]
    print(f"\n{len(outcomes) - len(failed)} of {len(outcomes)} runs passed "
          f"({len(outcomes) // len(widths)} cases at {' and '.join(map(str, widths))} columns).")
    for outcome in failed:
        print(f"\n{outcome.width} cols: gpu-advisor {' '.join(outcome.case.args)}")
        for problem in outcome.problems:
            print(f"  - {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
