"""What a call by a plain name does to the GPU (``helper(x)``, ``net(x)``, ``print(t)``, ``pipe(prompt)``): the user's
function or class it resolves to (their summary), a model's forward, a builtin that reads a CUDA tensor, a function
handed in, a predictor library's object. A mixin of Effects (it needs the summaries, the kinds and the scopes)."""

from __future__ import annotations

import ast
import builtins
import re
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.events import COMPUTE, HOST_READ, SYNC, WORK
from advisor.lint.flow.kinds import CPU_TENSOR, CUDA_DEVICE, CUDA_FN, CUDA_MODEL, CUDA_TENSOR, INSTANCE_BITS, MODEL
from advisor.lint.flow.literals import is_text_data
from advisor.lint.flow.predictors import predictor_on_cuda
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo

# print(model), str(model), isinstance(model, nn.Module): Python's own functions never run a model handed to them.
_BUILTIN_NAMES = frozenset(dir(builtins))
# Return annotations that promise host data: what the function computed on the GPU was read back before it returned.
_HOST_RESULT = re.compile(r"^(np|numpy)\.ndarray$|^(float|int|str|bool)$|^(List|list)\[(float|int|str)\]$")


class NameCallEffects:
    def _name_effect(self, call: ast.Call, func: ast.Name, value: int) -> tuple[int, Optional[FunctionInfo]]:
        arguments = self._arguments_kind(call)
        scope = self.index.scope_of(call)
        found = self.flow.scopes.resolve(func.id, scope)
        if isinstance(found, FunctionInfo):
            bits = self.summary(found).bits
            return bits | (SYNC if bits & WORK and _returns_host_data(found.node) else 0), found
        if isinstance(found, ClassInfo):
            init = found.methods.get("__init__")
            return (self.summary(init).bits if init is not None else 0), init
        if found is None:
            held = self.flow.scopes.held_functions(func, scope)  # step = make_step(model); step(x, y)
            if held:  # (one of several: extract_fn; what any of them may do)
                bits = 0
                for function in held:
                    bits |= self.summary(function).bits
                return bits, held[0]
        forward = self._forward_of(func)
        if forward is not None:  # net(x), net an instance of the user's nn.Module: runs net.forward(x)
            return (WORK | COMPUTE if value & CUDA_TENSOR else 0) | self.summary(forward).bits, forward
        if func.id in api.SYNC_BUILTINS and arguments & CUDA_TENSOR:
            return SYNC | HOST_READ, None
        if value & CUDA_TENSOR and not found and arguments & CUDA_DEVICE \
                and not arguments & (CUDA_TENSOR | CUDA_MODEL) and not self.kind(func) & (CUDA_FN | CUDA_MODEL | MODEL):
            return WORK, None  # a helper the file does not show, handed only a device: data placed there
        if found is None and arguments & CUDA_TENSOR and api.WRITES_OUT.match(func.id) \
                and isinstance(self.index.parents.get(call), ast.Expr):  # (out = render_rays(model, rays) computes)
            return SYNC, None  # save_hdf(probs, names): writing GPU results out copies them to the host first
        if found is None and arguments & CUDA_TENSOR and api.TO_HOST.match(func.id):
            return SYNC, None  # tensor2array(pred) of a star import: the prediction copied to host data
        if value & CUDA_TENSOR and not self._predictor_on_cuda(func.id) or self.kind(func) & CUDA_FN:
            return WORK | COMPUTE, None
        if found is None and arguments & CUDA_MODEL and not self.qual(func) and func.id not in _BUILTIN_NAMES:
            return WORK | COMPUTE, None  # a snippet's helper handed the CUDA model runs it: warmup(model, x)
        info = self.flow.scopes.functions.get(scope)
        if info is not None and func.id in info.positional + info.keyword_only and arguments & CUDA_TENSOR:
            return WORK | COMPUTE, None  # a function handed in (benchmark(fn, x)), called on CUDA tensors
        if self._predictor_on_cuda(func.id):
            return WORK | COMPUTE | SYNC, None  # pipe(prompt) of a diffusers pipeline on CUDA: images read back
        return 0, None

    def _predictor_on_cuda(self, name: str) -> bool:
        known = self._predictors.get(name)
        if known is None:
            known = self._predictors[name] = predictor_on_cuda(name, self.index, self.kind, self.qual)
        return known

    def _text_only(self, call: ast.Call) -> bool:
        """The data handed in is text (strings, lists of strings, names bound only to those), and no keyword
        hands in a tensor (beam=5, batch_size=bs are settings)."""
        return bool(call.args) and all(is_text_data(a, self.index.assigned_values) for a in call.args) \
            and not any(self.kind(k.value) & (CUDA_TENSOR | CPU_TENSOR) for k in call.keywords)

    def _forward_of(self, func: ast.AST) -> Optional[FunctionInfo]:
        """What calling an instance of the file's own class runs: an nn.Module's forward, or a plain class's
        ``__call__`` (``metric(y, preds)`` of a metrics object)."""
        kind = self.kind(func)
        if not kind & INSTANCE_BITS:
            return None
        if kind & (MODEL | CUDA_MODEL):
            found = [c.methods["forward"] for c in self.flow.scopes.classes_of(kind)
                     if c.is_model and "forward" in c.methods]
        else:
            found = [c.methods["__call__"] for c in self.flow.scopes.classes_of(kind) if "__call__" in c.methods]
        return found[0] if len(found) == 1 else None


def _returns_host_data(node: ast.AST) -> bool:
    """``def embed(model, sentences) -> np.ndarray:``: the function says it hands back host data."""
    returns = getattr(node, "returns", None)
    return returns is not None and bool(_HOST_RESULT.match(ast.unparse(returns)))
