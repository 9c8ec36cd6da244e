"""GA108: debugging switches left on in code that runs for real.

Must match:   os.environ["CUDA_LAUNCH_BLOCKING"] = "1";  %env CUDA_LAUNCH_BLOCKING=1
              torch.autograd.set_detect_anomaly(True);  with torch.autograd.detect_anomaly(): train()
              torch.autograd.set_detect_anomaly(True) in an entry point that only calls run_training()
              torch.autograd.set_detect_anomaly(True) in a CPU program whose work is elsewhere (it slows that too)
              pl.Trainer(accelerator="gpu", detect_anomaly=True)   (Lightning switches it on for the whole run)
              os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1";  torch.cuda.set_sync_debug_mode("warn")
              with torch.profiler.profile() as prof: for step in ...   (no schedule: every step profiled)
              torch.cuda.memory._record_memory_history()  never turned off
              env = os.environ.copy(); env["CUDA_LAUNCH_BLOCKING"] = "1"; subprocess.Popen(cmd, env=env)
              subprocess.run(cmd, env={**os.environ, "PYTORCH_NO_CUDA_MEMORY_CACHING": "1"})
Must not:     os.environ["CUDA_LAUNCH_BLOCKING"] = "0";  set_detect_anomaly(False) / (args.debug)
              anomaly detection in a program that builds its model and trains it here, all on the CPU
              if args.debug: torch.autograd.set_detect_anomaly(True)    (on only when asked for: the fix)
              torch.profiler.profile(schedule=torch.profiler.schedule(wait=1, warmup=1, active=3))
"""

from __future__ import annotations

import ast
import re
from typing import Iterator, Optional

from advisor.lint.checks.debug_environment import environment_switches, is_off
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import last_identifier

DOC = CheckDoc(
    what=('Finds debugging switches left on: CUDA_LAUNCH_BLOCKING=1, PYTORCH_NO_CUDA_MEMORY_CACHING=1 (also '
          'in the environment a launcher hands to the process it starts: env = os.environ.copy(); '
          'env["CUDA_LAUNCH_BLOCKING"] = "1"; subprocess.run(..., env=env)), '
          'anomaly detection (also in an entry point that hands the work to other modules), sync debug mode, '
          'memory history recording never stopped, a profiler without a schedule around a loop (also a bare '
          'profile(activities=..., record_shapes=...) in a snippet quoted without its imports).'),
    why=('Debug modes are slow by design: every kernel launch waits for the GPU, every allocation becomes a '
         'cudaMalloc, every autograd op records a stack trace, every op of every step is profiled.'),
    bad="""\
import os
import torch

os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
torch.autograd.set_detect_anomaly(True)
""",
    good="""\
import os
import torch

DEBUG = os.environ.get("MY_DEBUG") == "1"
torch.autograd.set_detect_anomaly(DEBUG)  # on only when asked for
""",
)

INFO = CheckInfo(
    id="GA108", name="debug-switch-left-on", title="Debugging switch left on",
    severity="high", confidence="inferred",
    cost="Debug modes are slow by design: CUDA_LAUNCH_BLOCKING=1 makes every kernel launch wait for the GPU "
         "(~+34% on a loop of small ops on an H100, no CPU/GPU overlap); anomaly detection checks every "
         "backward op and records stack traces; a profiler without a schedule records every op of every step.",
    fix="Remove it, or tie it to an explicit debug flag (if args.debug: ...); profile a few steps with "
        "torch.profiler.schedule(wait=1, warmup=1, active=3) and prof.step().",
    references=("https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution",
                "https://pytorch.org/docs/stable/autograd.html#anomaly-detection",
                "https://pytorch.org/docs/stable/profiler.html"),
    doc=DOC,
)
_COSTS = {
    "CUDA_LAUNCH_BLOCKING": "Every kernel launch waits for the kernel to finish, so the CPU never runs ahead of the "
                            "GPU: ~+34% on a loop of small ops on an H100, more on real models.",
    "PYTORCH_NO_CUDA_MEMORY_CACHING": "Every tensor allocation and free becomes a cudaMalloc/cudaFree, which "
                                      "synchronize the device: typically several times slower.",
    "anomaly": "Every autograd op records a stack trace and backward checks every gradient for NaN: training "
               "runs several times slower.",
    "profiler": "Every op of every iteration is recorded (host overhead per op, plus memory for the trace); a "
                "long loop produces a trace too large to open.",
    "sync_debug": "Every synchronizing call is checked, and warns or raises.",
    "memory_history": "Every CUDA allocation records a Python stack trace, kept in host memory.",
}
_ANOMALY = ("torch.autograd.set_detect_anomaly", "torch.autograd.detect_anomaly",
            "torch.autograd.anomaly_mode.set_detect_anomaly", "torch.autograd.anomaly_mode.detect_anomaly")
_LIGHTNING_TRAINERS = frozenset({"pytorch_lightning.Trainer", "lightning.Trainer", "lightning.pytorch.Trainer",
                                 "pytorch_lightning.trainer.Trainer", "lightning.pytorch.trainer.Trainer"})
_DEBUG_FLAG = re.compile(r"debug|anomal|detect|profil|verbose|sanity|blocking|sync_check|replay|(^|_)bad_|non_?finite|"
                         r"(^|_)(nan|inf)(_|$)", re.IGNORECASE)  # (a replay of a bad batch to find its NaN: on demand)
_PROFILERS = ("torch.profiler.profile", "torch.autograd.profiler.profile")
_NVTX_EMITTERS = frozenset({"torch.autograd.profiler.emit_nvtx", "torch.autograd.profiler_legacy.emit_nvtx"})
_PROFILER_KEYWORDS = frozenset({"activities", "record_shapes", "profile_memory", "with_stack", "with_flops",
                                "on_trace_ready", "use_cuda"})


def run(ctx) -> Iterator[Hit]:
    for hit in _switches(ctx):
        if hit.node is None or not _under_debug_flag(ctx, hit.node):
            yield hit


def _under_debug_flag(ctx, node: ast.AST) -> bool:
    """``if args.debug:`` / ``if DEBUG:`` / ``if cfg.detect_anomaly:`` around it: on only when asked for (what
    the fix recommends), not left on."""
    child = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, ast.If) and child in parent.body and not _opt_out(parent.test) and any(
                _DEBUG_FLAG.search(text) for text in _words(parent.test)):
            return True
        if isinstance(parent, ast.ClassDef) and _DEBUG_FLAG.search(parent.name) and not _is_module_class(parent):
            return True  # class AnomalyDetection: a debugging tool, on for whoever picks it
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.name.startswith("on_") \
                and _switched_off_in_class(ctx, node, parent):
            return True  # a callback's on_train_start / on_train_end pair: a plugin the user turns on
        child = parent
    return False


def _opt_out(test: ast.AST) -> bool:
    """``if not args.no_anomaly:``: on unless the user turns it off -- on by default, not asked for."""
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) \
        and _OPT_OUT.match(last_identifier(test.operand) if isinstance(test.operand, (ast.Name, ast.Attribute)) else "")


_OPT_OUT = re.compile(r"(no|disable|skip|without)_", re.IGNORECASE)


def _is_module_class(cls: ast.ClassDef) -> bool:
    return any((ast.unparse(base).rsplit(".", 1)[-1]) in ("Module", "LightningModule") for base in cls.bases)


def _switched_off_in_class(ctx, node: ast.AST, method: ast.AST) -> bool:
    """A sibling hook of the same class switches the same thing off again (set_detect_anomaly(False))."""
    cls = ctx.index.parents.get(method)
    if not isinstance(cls, ast.ClassDef) or not isinstance(node, ast.Call):
        return False
    name = ast.unparse(node.func)
    return any(isinstance(other, ast.Call) and ast.unparse(other.func) == name and other.args
               and is_off(other.args[0]) for other in ast.walk(cls))


def _words(test: ast.AST) -> Iterator[str]:
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def _switches(ctx) -> Iterator[Hit]:
    if ctx.uses_cuda or not _runs_on_the_cpu(ctx):
        yield from environment_switches(ctx, _COSTS)  # (they slow CUDA only: a CPU program pays nothing)
    # Anomaly detection is process-wide: an entry point or module that switches it on and hands the work to code
    # elsewhere (run_training(...), an imported simulator) slows that code down, CUDA or not in this file. Only a
    # program that visibly builds its model and trains it here, all on the CPU (a tutorial), is not this tool's
    # business -- a helper drawing noise with torch.normal is no such program (session 6, corpora 6 and 7).
    anomaly_matters: Optional[bool] = None
    for call in ctx.index.calls:
        name = ctx.qual(call.func) or ""
        if name in _LIGHTNING_TRAINERS and any(k.arg == "detect_anomaly" and isinstance(k.value, ast.Constant)
                                               and k.value.value is True for k in call.keywords):
            yield Hit("anomaly detection is on (Trainer(detect_anomaly=True)): every autograd op of the run is "
                      "checked and traced", node=call, evidence={"switch": "detect_anomaly"}, cost=_COSTS["anomaly"])
            continue
        if name in _ANOMALY:
            if anomaly_matters is None:
                anomaly_matters = ctx.uses_cuda or not _trains_here(ctx)
            if anomaly_matters and _switched_on(call, default=name.endswith("detect_anomaly")) \
                    and not (name.endswith(".detect_anomaly") and _not_entered(ctx, call)):
                yield Hit(f"anomaly detection is on ({name.rsplit('.', 1)[-1]}): every autograd op is checked "
                          "and traced", node=call, evidence={"switch": name}, cost=_COSTS["anomaly"])
            continue
        if not ctx.uses_cuda and name not in _NVTX_EMITTERS:
            continue  # a profiler in a CPU-only program is not this tool's business (NVTX ranges are for CUDA's)
        if name == "torch.cuda.set_sync_debug_mode" and call.args and not is_off(call.args[0]) \
                and not _switched_back(ctx, call, name):
            yield Hit("torch.cuda.set_sync_debug_mode is on: every synchronizing call is checked",
                      node=call, severity="medium", cost=_COSTS["sync_debug"])
        elif name == "torch.cuda.memory._record_memory_history" and _switched_on(call, default=True, key="enabled") \
                and not _memory_history_stopped(ctx):
            yield Hit("CUDA memory history recording is on and never turned off: every allocation records a "
                      "stack trace", node=call, severity="medium", cost=_COSTS["memory_history"])
        elif name in _PROFILERS or _unimported_profiler(ctx, call):
            hit = _profiler(ctx, call)
            if hit is not None:
                yield hit
        elif name in _NVTX_EMITTERS:
            hit = _profiler(ctx, call)  # (it has no schedule: around a loop it annotates every op of every step)
            if hit is not None:
                yield Hit("emit_nvtx() wraps a loop (or the whole run): the autograd profiler annotates every op of every "
                          "iteration with an NVTX range (useful only under Nsight Systems)", node=call, severity="medium",
                          cost=_COSTS["profiler"])


def _wraps_the_program(block: ast.AST) -> bool:
    """``with emit_nvtx(): main()``: the whole program's run (its entry point, shown or not) is under the profiler."""
    return any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
               and s.value.func.id in ("main", "run", "train") for s in block.body)


def _not_entered(ctx, call: ast.Call) -> bool:
    """``torch.autograd.detect_anomaly(check_nan=True)`` as a statement: a context manager made and dropped, never
    entered (nor used as a decorator) -- it switches nothing on, unlike ``set_detect_anomaly(True)``."""
    return isinstance(ctx.index.parents.get(call), ast.Expr)


def _runs_on_the_cpu(ctx) -> bool:
    """``pipe = pipe.to("cpu")`` / ``device = torch.device("cpu")`` in a file that never names CUDA: its work runs on
    the CPU (a launcher that only sets the switch and hands the work on names no device either, and is reported)."""
    return any(isinstance(a, ast.Constant) and a.value == "cpu" for call in ctx.index.calls
               if (getattr(call.func, "attr", "") == "to" or ctx.qual(call.func) == "torch.device") for a in call.args)


def _trains_here(ctx) -> bool:
    """Does this file train itself: a backward pass, or an optimizer over a model? (A module that only defines the
    model, switching anomaly detection on in its __init__, hands the training to whoever builds it.)"""
    if any(last_identifier(base).endswith("LightningModule") for c in ctx.index.classes for base in c.bases):
        return False  # a LightningModule: the Trainer that runs it (elsewhere) picks the device, often a GPU
    trains = bool(ctx.index.calls_by_name.get("backward")) or any(
        (ctx.qual(call.func) or "").startswith("torch.optim.") for call in ctx.index.calls)
    return trains and _builds_a_model(ctx)  # (a train_model(model, ...) handed its model trains code from elsewhere)


def _builds_a_model(ctx) -> bool:
    """torch.nn layers made here, or a model class of the file's own."""
    return bool(ctx.index.classes) or any((ctx.qual(call.func) or "").startswith("torch.nn.")
                                          and (ctx.qual(call.func) or "")[9:10].isupper() for call in ctx.index.calls)


def _switched_on(call: ast.Call, default: bool, key: str = "mode") -> bool:
    value = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in (key, "mode")), None)
    if value is None:
        return default
    return isinstance(value, ast.Constant) and bool(value.value)


def _switched_back(ctx, call: ast.Call, name: str) -> bool:
    """``set_sync_debug_mode("error"); try: run() finally: set_sync_debug_mode("default")``: on around one piece of
    work in the same function (a test that no sync sneaks in), then off again -- not left on."""
    return any(other.lineno > call.lineno and other.args and is_off(other.args[0]) and ctx.qual(other.func) == name
               for other in ctx.calls_in(ctx.index.scope_of(call)))


def _memory_history_stopped(ctx) -> bool:
    for call in ctx.index.calls:
        if (ctx.qual(call.func) or "").endswith("_record_memory_history"):
            value = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "enabled"), None)
            if isinstance(value, ast.Constant) and value.value in (None, False):
                return True
    return False


def _unimported_profiler(ctx, call: ast.Call) -> bool:
    """``profile(activities=[...], record_shapes=True)`` in a snippet quoted without its imports: a name bound
    nowhere in the file, called with keywords only torch's profiler takes."""
    func = call.func
    return isinstance(func, ast.Name) and func.id == "profile" and ctx.qual(func) is None \
        and func.id not in ctx.index.bound_names and any(k.arg in _PROFILER_KEYWORDS for k in call.keywords)


def _runs_steps(ctx, loop: ast.AST) -> bool:
    """A loop that runs work (``for _ in range(10): model(x)``), not one that zeroes its inputs' grads."""
    return bool(ctx.iteration_events(loop)) or any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                                    for n in ast.walk(loop))


def _calls_a_looping_function(ctx, block: ast.AST) -> bool:
    """``with profile(): res = conv_loop(x, 10)``: the loop is in the user's function the block calls."""
    for statement in block.body:  # type: ignore[attr-defined]
        for node in ast.walk(statement):
            if isinstance(node, ast.Call):
                for callee in ctx.callees(node):
                    if any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(callee.node)):
                        return True
    return False


def _profiler(ctx, call: ast.Call) -> Optional[Hit]:
    keywords = {k.arg: k.value for k in call.keywords}
    if "schedule" in keywords or ("enabled" in keywords and is_off(keywords["enabled"])):
        return None
    parent = ctx.index.parents.get(call)
    if isinstance(parent, ast.withitem):
        block = ctx.index.parents.get(parent)
        if any(isinstance(n, (ast.For, ast.While)) and _runs_steps(ctx, n) for s in block.body for n in ast.walk(s)) \
                or _calls_a_looping_function(ctx, block) or _wraps_the_program(block):
            return Hit("a profiler without a schedule wraps a loop: every iteration is profiled", node=call,
                       severity="medium", cost=_COSTS["profiler"])
        return None
    started = any(isinstance(c.func, ast.Attribute) and c.func.attr == "start" for c in ctx.index.calls)
    stopped = any(isinstance(c.func, ast.Attribute) and c.func.attr in ("stop", "__exit__") for c in ctx.index.calls)
    if started and not stopped:
        return Hit("a profiler is started and never stopped: everything after it is profiled", node=call,
                   severity="medium", cost=_COSTS["profiler"])
    return None
