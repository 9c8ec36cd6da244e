"""The flow analysis of one file, in the order it runs (each module imports only those above it):

kinds.py     abstract values as bit flags (CUDA_TENSOR, MODEL, F64, ...)
scopes.py    the user's functions and classes, what a name calls, per-function summaries
env.py       the environment with cheap branching (a trail of writes, no copies)
literals.py  what an expression says by its syntax alone (a literal, a name's hint, a config key)
exprs.py     what kind of value each expression produces
numpy_kinds.py  what numpy's functions return
method_results.py  ... what a method call on a held value returns (a tensor's, a model's, a cast), and calling one
calls.py     ... and each call: torch, numpy, models, the user's own functions
conditions.py  tests that ask where the program runs (if device.type == 'cuda':)
expression_statements.py  ... a call on its own line: list.append, model.to(device), to_device(batch, device)
analyzer.py  the pass itself (statements, worklist over functions): FlowResult
view.py      what the later analyses read: index, names, FlowResult
literal_sizes.py  element counts written out: shape arguments, literal data, numpy factories
shapes.py    shapes of tensors the code spells out (t[i] of a 1-D tensor: one element; 32x32 @ 32x1: 32)
int_values.py  the integers a script spells out through names (loop counts, sizes, option defaults)
sizes.py     element counts of tensors whose shape the code spells out (exact, or a bound)
name_effects.py  ... what a call by a plain name does (a mixin of effects.py)
effects.py   what each expression does to the GPU: work, compute, sync, host read, clock
walks.py     loops over the parts of one step (parameters, a few registered components)
steps.py     loop bodies that run the training update (backward, optimizer.step), or run once
read_arguments.py  whether a helper's read of its own parameter happens at one call (that call hands it CUDA)
branch_shapes.py  what a branch does to its own test's variables (a running value, a reset counter, a countdown)
loops.py     hot loops, and the host reads on each of their iterations
regions.py   a timed region: the GPU effects between the reads that measure it
wrappers.py  timings that wrap what they measure: timing decorators, timing context managers
helper_clocks.py  clocks closed in a helper the start is handed to (report(name, start))
timeline.py  timed regions and program order (the first CUDA work)

Checks do not import these analyses: they ask lint/context.py's FileContext, which builds them. They may
import the constants re-exported here.
"""

from advisor.lint.flow.effects import CLOCK, COMPUTE, HOST_READ, KERNEL, SYNC, WORK, Event
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    CUDA_WORKER,
    DTYPE,
    DTYPE_F64,
    EVAL,
    F64,
    FRESH,
    MODEL,
)
from advisor.lint.flow.scopes import FunctionInfo

__all__ = ["CLOCK", "COMPUTE", "CONTAINER", "CPU_DEVICE", "CPU_TENSOR", "CUDA_DEVICE", "CUDA_MODEL", "CUDA_TENSOR",
           "CUDA_WORKER", "DTYPE", "DTYPE_F64", "EVAL", "Event", "F64", "FRESH", "FunctionInfo", "HOST_READ", "KERNEL", "MODEL",
           "SYNC", "WORK"]
