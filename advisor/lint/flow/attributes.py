"""Attribute half of the expression pass: what ``a.b`` holds -- a dtype, a configured device (``args.device``,
``config.DEVICE``), what the file's own class stored in ``self.b``, a model's submodule or parameter."""

from __future__ import annotations

import ast
import builtins
import re

from advisor.lint import torch_api as api
from advisor.lint.flow.device_sources import handed_device
from advisor.lint.flow.kinds import (
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_FN,
    CUDA_MODEL,
    CUDA_TENSOR,
    DTYPE,
    DTYPE_F64,
    F64,
    INSTANCE_BITS,
    LOADER,
    MODEL,
    NUMPY,
)
from advisor.lint.names import dotted, last_identifier

# Libraries whose own `device` attributes are no configured device (torch.device is a class; jax.devices a list).
_LIBRARIES = frozenset({"torch", "numpy", "jax", "tensorflow", "cupy", "numba", "pycuda", "mxnet", "paddle"})
# A layer's parameters: tensors where the module is (model.fc1.weight of a CUDA model is on the GPU).
_PARAMETER_ATTRS = frozenset({"weight", "bias"})
# A container's sizes and counts: Python ints, whatever it holds.
_COUNT = re.compile(r"^_*(batch_size|capacity|max_?size|maxlen|buffer_size|memory_size|num_\w+|n_\w+)$")


def _a_module_setting(parts: list[str]) -> bool:
    """``world.device``: a module's own setting -- not a member of a class or enum it defines (``Split.dev`` of
    ``from utils import Split``: dev is a dataset split), nor the ``dev`` abbreviation on its own."""
    return parts[-1].lower() != "dev" and not any(part[:1].isupper() for part in parts[1:-1])


class AttributeReads:
    """Mixed into the expression evaluator (flow/exprs.py), which supplies ``ev``, ``lookup``, ``qual_here``,
    ``scopes`` and the command-line options (``parsed_args``, ``argparse_defaults``)."""

    def _option_default(self, attr: str) -> int:
        default = self.argparse_defaults.get(attr)  # args.device: what --device defaults to
        kind = self.ev(default) if default is not None else 0
        if not kind and api.names_a_device(attr) and (default is not None or attr in self.required_options):
            return CUDA_DEVICE  # --device auto: resolved at run time, the GPU when there is one; --device with no
            # default and required=True: whatever device the user names, the GPU among them
        return kind | CUDA_DEVICE if kind & CPU_DEVICE else kind  # --device cpu: a switch, made to be set

    def bind_option_defaults(self, node: ast.If) -> None:
        """``if not torch.cuda.is_available(): args.device = torch.device("cpu")``: the path that skips the branch
        keeps ``--device``'s default, so an option the branch sets starts from it (else the join forgets it)."""
        for target in (t for n in (ast.walk(node) if self.parsed_args else ()) if isinstance(n, ast.Assign)
                       for t in n.targets):
            key = dotted(target) if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and target.value.id in self.parsed_args else None
            if key is not None and self.lookup(key) is None:
                self.bind(key, self._option_default(target.attr))

    def _attribute(self, node: ast.Attribute) -> int:
        if not isinstance(node.ctx, ast.Load):
            return 0
        qualified = self.qual_here(node)
        if qualified is not None:
            if qualified in api.F64_DTYPES:
                return DTYPE | DTYPE_F64
            parts = qualified.split(".")
            if api.names_a_device(node.attr) and (any(api.DEVICE_HOLDER.search(p) for p in parts[:-1])
                                                  or parts[0] not in _LIBRARIES and _a_module_setting(parts)):
                return CUDA_DEVICE  # config.DEVICE of the project's `import config`, world.device of `import world`:
                # a device the project configures in one of its own modules, can be CUDA
            return DTYPE if qualified.startswith(api.OTHER_DTYPE_PREFIXES) else 0
        key = dotted(node)
        held = self.lookup(key) if key is not None else None
        if held is not None:
            return held
        attr = node.attr
        base = self.ev(node.value, keep_fresh=attr in api.TENSOR_META_ATTRS)  # x.shape reads no values
        of_a_class = bool(base & INSTANCE_BITS)  # (an instance of the file's own class, stripped below)
        if not base and isinstance(node.value, ast.Name) and node.value.id in self.parsed_args \
                and attr in self.argparse_defaults:  # (args.device = device set after parsing: not an option)
            return self._option_default(attr)
        if base & INSTANCE_BITS:  # trainer.model: what the class's methods stored in self.model
            held = 0
            for info in self.scopes.classes_of(base):
                held |= info.attrs.get("self." + attr, 0)
            if held:  # (a submodule of a model moved to CUDA went with it: model.linear of Model().to("cuda"))
                return held | (CUDA_MODEL if held & MODEL and base & CUDA_MODEL else 0)
            for info in self.scopes.classes_of(base):
                method = info.methods.get(attr)
                if method is not None and _a_property(method.node):  # self.device of @property def device(self)
                    return self.return_kind_of(method)
                if method is not None and (method.touches_cuda or (method.is_abstract and info.holds_cuda)):
                    # forward_fn = self.forward_torch: the computation (a subclass's, for an abstract one)
                    return CUDA_FN  # of an object that keeps its tensors on the GPU
            if attr in api.DEVICE_NAME_HINT and isinstance(node.value, ast.Name) and node.value.id == "self" and all(
                    info.node.bases and "self." + attr not in info.attrs for info in self.scopes.classes_of(base)):
                return CUDA_DEVICE  # self.device that a base class of another file sets: a device, can be CUDA
            base &= ~INSTANCE_BITS
        if api.names_a_device(attr):  # (cfg.resolved_device, args.train_device)
            holder = (dotted(node.value) or last_identifier(node.value)).split(".")  # config.optimization.device
            if not base and (any(api.DEVICE_HOLDER.search(part) for part in holder) or isinstance(node.value, ast.Name)
                             and node.value.id == "self" and not of_a_class):  # (def step(self, ...) outside a class)
                return CUDA_DEVICE  # args.device / run_context.device: a device configured elsewhere, can be CUDA
            if not base and isinstance(node.value, ast.Name) and self._unbound(node.value.id):
                return CUDA_DEVICE  # world.device of a project module the excerpt uses without its import
            if not base and handed_device(node, self.scope):
                return CUDA_DEVICE  # .to(x_t.device) of the tensor the function is handed: wherever the caller put it
            if not base and attr == "device" and api.MODEL_NAME_HINT.search(holder[-1]):
                return CUDA_DEVICE  # pipe.unet.device, model.device: where a model the file did not place lives
            if not base and attr == "device" and self._made_with_a_cuda_device(holder[0]):
                return CUDA_DEVICE  # kin = TorchKinematics(M, S, "cuda:0"); kin.M.device: where it was told to live
            return (CUDA_DEVICE if base & (CUDA_TENSOR | CUDA_MODEL) else 0) | \
                (CPU_DEVICE if base & CPU_TENSOR else 0)
        if attr in api.TENSOR_META_ATTRS or base & LOADER or api.DECODER_HOLDER.search(attr) or _COUNT.match(attr):
            return 0  # (loader.num_neighbors: a setting, not a batch; model.processor, model.tokenizer: no module;
            # buffer._batch_size, memory.capacity of a store of CUDA tensors: its sizes are Python ints)
        out = base & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY)
        if base & (MODEL | CUDA_MODEL) and not base & (CUDA_TENSOR | CPU_TENSOR):
            if attr in _PARAMETER_ATTRS:
                return CUDA_TENSOR | (base & F64) if base & CUDA_MODEL else 0  # model.fc1.weight: a parameter
            out |= base & (MODEL | CUDA_MODEL)  # a submodule
        return out

    def _unbound(self, name: str) -> bool:
        """A name the file never binds (no import, parameter, assignment, loop or ``with`` target) and reads several
        settings of (``world.device``, ``world.topks``): another module of the project, used by an excerpt that
        dropped its imports -- not a tensor of another module, whose ``.device`` is wherever that tensor is."""
        uses = self.index.names_by_id.get(name, ())
        if name in self.index.parameters or name in self.names.imports or hasattr(builtins, name) \
                or not all(isinstance(n.ctx, ast.Load) for n in uses):
            return False
        read = {parent.attr for n in uses if isinstance(parent := self.index.parents.get(n), ast.Attribute)}
        return len(read) > 1 and not (read - {"device", "DEVICE"}) & api.TENSOR_META_ATTRS

    def _made_with_a_cuda_device(self, name: str) -> bool:
        """``name = SomeClass(..., device)`` (a class of another module) handed a device that can be CUDA, on every
        binding of the name in this function."""
        made = [v for v in self.index.assigned_values.get(name, ()) if self.index.scope_of(v) is self.scope]
        return bool(made) and all(
            isinstance(v, ast.Call) and (self.names.qual(v.func) or "").split(".")[0] not in ("torch", "")
            and any(self.values.get(a, 0) & CUDA_DEVICE for a in list(v.args) + [k.value for k in v.keywords])
            for v in made)


def _a_property(node: ast.AST) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("property", "cached_property")
               or isinstance(d, ast.Attribute) and d.attr == "cached_property" for d in node.decorator_list)
