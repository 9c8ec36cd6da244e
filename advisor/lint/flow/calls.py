"""Call half of the CUDA data-flow pass: what torch, numpy, models and the user's functions return.

The rules follow PyTorch: a factory's tensor lives where ``device=`` says (or the default device); ``.to()`` /
``.cuda()`` copy tensors, move modules in place; torch ops keep their inputs' device; CUDA models return CUDA.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.device_sources import ENVIRONMENT_READERS, environment_device, sets_default_cuda
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_FN,
    CUDA_MODEL,
    CUDA_TENSOR,
    CUDA_WORKER,
    DEVICE_BITS,
    DTYPE_F64,
    EVAL,
    EVENT,
    F64,
    FRESH,
    INSTANCE_BITS,
    LOADER,
    MODEL,
    MODEL_BITS,
    NUMPY,
)
from advisor.lint.flow.literals import (
    alias_names,
    dtype_kind,
    holds_literal_data,
    is_device_number,
    looks_like_model,
    made_by_library_class,
    makes_new_data,
    placed_on,
)
from advisor.lint.flow.method_results import Kw, MethodResults, every_kind
from advisor.lint.flow.moves import is_module
from advisor.lint.flow.numpy_kinds import numpy_result
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo
from advisor.lint.loaders import is_loader
from advisor.lint.names import dotted, last_identifier, named_like_loader
from advisor.lint.torch_factories import torch_factory

_MATH_BUILTINS = frozenset({"sum", "min", "max", "abs", "pow", "round"})  # on tensors they return tensors
_BUILTINS = frozenset(dir(builtins))
_COPYING_FACTORIES = frozenset({"tensor", "as_tensor", "asarray"})
_MOVE_RECEIVER_METHODS = frozenset({"to", "cuda", "double", "float", "half", "bfloat16", "pin_memory"})


_PREFETCHER = re.compile(r"prefetcher$", re.IGNORECASE)


def _moved_to_gpu(kind: int) -> int:
    """What a helper that moves its argument to the GPU (to_var(x), device.data_to_device(batch)) hands back."""
    return CUDA_MODEL | (kind & (MODEL | F64)) if kind & MODEL else CUDA_TENSOR | (kind & F64)


def _keyword(call: ast.Call, name: str) -> Optional[ast.AST]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _builds_a_loss(name: str, pos: list[int]) -> bool:
    """``FocalLoss(weights)``: a Loss-named class built from a tensor is a module; ``infoNCELoss(q, k, queue, T)`` /
    ``MaskedMSELoss(preds, labels)``, handed two CUDA tensors or more, computes a loss value."""
    return name.endswith("Loss") and sum(1 for kind in pos if kind & CUDA_TENSOR) < 2


class CallEvaluator(MethodResults):
    def _call(self, node: ast.Call) -> int:
        func = node.func
        qualified = self.qual_here(func)
        if qualified is not None and isinstance(func, ast.Name) and self.lookup(func.id):
            return self._name_call(node, func.id)  # `from model import model; model = model.cuda(); model(x)`
        if qualified is not None:
            if isinstance(func, ast.Attribute) and func.attr in api.MODEL_SELF_METHODS \
                    and qualified.split(".", 1)[0] not in api.NOT_ON_CUDA | {"torch"} and looks_like_model(func.value):
                return self._method_call(node, func)  # `from model import model; model.cuda()`: a module moved
            pos, kw = self.eval_args(node, keep_first_fresh=qualified.startswith("torch.") and qualified.endswith("_like"))
            return self._library_call(qualified, node, pos, kw)
        if isinstance(func, ast.Attribute):
            return self._method_call(node, func)
        if isinstance(func, ast.Name):
            return self._name_call(node, func.id)
        callee = self.ev(func)
        pos, kw = self.eval_args(node)
        out = self.call_value(callee, pos, kw)
        if not out and every_kind(pos, kw) & CUDA_TENSOR and (isinstance(func, ast.Subscript) or isinstance(func, ast.Call)
                                                       and api.COMPUTES_ON_ITS_INPUTS.search(dotted(func.func) or "")):
            return CUDA_TENSOR  # criterion()(out, y): a loss class handed in; heads["bbox"](x): a table of modules
        return out

    # -- torch / numpy / stdlib -------------------------------------------------------------------
    def _library_call(self, name: str, node: ast.Call, pos: list[int], kw: Kw) -> int:
        last = name.rsplit(".", 1)[-1]
        if name in api.DEVICE_CONSTRUCTORS:
            first = node.args[0] if node.args else _keyword(node, "type") or _keyword(node, "device")
            if isinstance(first, ast.Constant) and type(first.value) is int:
                return CUDA_DEVICE  # (torch.device(device="cuda:0"): the overload that takes a whole device)
            return (pos[0] if pos else kw.get("type", 0) | kw.get("device", 0)) & DEVICE_BITS
        if name in api.CUDA_DEVICE_FUNCTIONS:
            return CUDA_DEVICE
        if name in api.OTHER_DEVICE_FUNCTIONS:
            return CPU_DEVICE  # torch_directml.device(): another accelerator, not CUDA (what CUDA costs is not its)
        if api.DEVICE_PICKER.match(last) and not name.startswith("torch."):
            return CUDA_DEVICE  # get_device(args.device) of the project's utils: the GPU when there is one ("auto")
        if name in api.METADATA_FUNCTIONS:
            return 0  # torch.is_tensor(x): a Python bool about the object, its data untouched
        if name in api.EVENT_CONSTRUCTORS:
            return EVENT
        if name in api.CUDA_WORKER_CONSTRUCTORS:
            return CUDA_WORKER
        if name in api.LEGACY_CUDA_CONSTRUCTORS:  # torch.cuda.FloatTensor(3, 4): a CUDA tensor
            return CUDA_TENSOR | (F64 if name.endswith("DoubleTensor") else 0)
        if name.startswith("torch.cuda."):
            return 0
        default = sets_default_cuda(name, node, every_kind(pos, kw), self.names.qual)
        if default is not None:
            self.default_cuda = self.default_cuda or default
            return 0
        if name in ENVIRONMENT_READERS:
            return environment_device(node, pos)
        if torch_factory(name):
            return self._factory(torch_factory(name), node, pos, kw)
        if is_loader(name, node):  # batches keep the dataset's dtype, and its device (a TensorDataset of CUDA tensors)
            dataset = pos[0] if pos else kw.get("dataset", 0)
            return LOADER | (dataset & (F64 | CUDA_TENSOR)) | self._items_on_cuda(dataset)
        if name in api.DATASETS_OF_TENSORS:
            return every_kind(pos, kw) & (CUDA_TENSOR | CPU_TENSOR | F64)
        if name in api.MODULE_PARAMETERS and pos and self._in_module_method():
            return pos[0] & ~(CPU_TENSOR | FRESH) | (0 if pos[0] & F64 else CUDA_TENSOR)  # self.log_std =
            # nn.Parameter(torch.zeros(1, n)) in a module: the parameter lives where the module is moved -- in a file
            # that shows CUDA (the checks stay silent on one that does not), the GPU -- not on the CPU it was made
            # on. (A float64 one is left where it is unknown: its creation is no float64 made on the GPU.)
        if name in api.PASSTHROUGH_CALLS or name in api.SPLITTING_CALLS:  # (X_train, X_test, ... = split(X, y))
            return (pos[0] if name in api.PASSTHROUGH_CALLS else every_kind(pos, {})) if pos else 0
        if name.startswith("numpy."):
            return numpy_result(name, node, pos, kw)
        if last == "from_pretrained":
            if api.NOT_A_MODEL.search(name):
                return 0
            device_map = _keyword(node, "device_map")  # "auto" / "cuda" / {"": 0} all place it on GPUs
            placed = isinstance(device_map, (ast.Constant, ast.Dict)) and getattr(device_map, "value", 1) is not None
            return CUDA_MODEL if placed else MODEL
        if name.startswith(api.MODEL_CONSTRUCTOR_PREFIXES):  # timm.create_model(name, device="cuda") places it
            return CUDA_MODEL if kw.get("device", 0) & CUDA_DEVICE else MODEL
        if name in api.SCRIPTED_MODEL_LOADERS:
            placed = (pos[1] if len(pos) > 1 else kw.get("map_location", 0)) & CUDA_DEVICE
            return CUDA_MODEL if placed else MODEL
        if name in api.MODEL_COMPILERS:
            return pos[0] & (MODEL | CUDA_MODEL | EVAL | F64) if pos else 0
        if name.startswith(api.OPTIMIZER_PREFIXES) and last[:1].isupper() or api.SCHEDULE_FACTORY.match(last):
            return CUDA_WORKER if every_kind(pos, kw) & (CUDA_TENSOR | CUDA_MODEL) else 0  # (a schedule of one: numbers)
        if name.startswith("torch.nn.") and last[:1].isupper():
            out = MODEL | (every_kind(pos, {}) & (MODEL | CUDA_MODEL | F64))  # wrappers keep what they wrap
            if kw.get("device", 0) & CUDA_DEVICE or last == "DataParallel":
                out |= CUDA_MODEL
            if dtype_kind(_keyword(node, "dtype"), kw.get("dtype", 0)) & DTYPE_F64:
                out |= F64
            return out
        if name.startswith("torch."):
            every = every_kind(pos, kw)
            out = every & (MODEL | CUDA_MODEL)  # torch.jit.script(model), torch.compile(model)
            if every & CUDA_TENSOR:
                out |= CUDA_TENSOR | (every & F64)
            elif every & CPU_TENSOR:  # (made from fills only, F.one_hot(torch.arange(n)) is still a fill)
                fresh = all(kind & FRESH for kind in list(pos) + list(kw.values()) if kind & CPU_TENSOR) \
                    and not self._joins_other_data(name, node)
                out |= CPU_TENSOR | (every & F64) | (FRESH if fresh else 0)
            return out
        if not name.startswith("torch.") and api.TO_HOST.match(last):
            return NUMPY  # from utils.vis import tensor2array: host data, whatever it was handed
        if _PREFETCHER.search(last) and len(node.args) == 1 and isinstance(node.args[0], (ast.Name, ast.Attribute)) \
                and (pos[0] & LOADER or named_like_loader(last_identifier(node.args[0]))):
            return LOADER | CUDA_TENSOR  # DataPrefetcher(train_loader) (apex's data_prefetcher): batches copied to the
            # GPU on a side stream, handed out by .next()
        if name.split(".", 1)[0] not in api.NOT_ON_CUDA and every_kind(pos, kw) & CUDA_TENSOR \
                and not api.TEXT_DECODING.search(last):  # a library built on torch (from train import ctc_decode: text)
            if last.endswith("Loader"):  # NeighborLoader(data_on_cuda, ...): batches of CUDA data, not a tensor
                return LOADER | CUDA_TENSOR
            return CUDA_MODEL if _builds_a_loss(last, pos) else CUDA_TENSOR  # fed CUDA tensors
        if name.split(".", 1)[0] not in api.NOT_ON_CUDA and api.MOVES_TO_GPU.match(last) and pos \
                and not every_kind(pos, kw) & CPU_DEVICE:  # from utils import to_var; x = to_var(batch)
            return _moved_to_gpu(pos[0])
        if name.split(".", 1)[0] not in api.NOT_ON_CUDA:
            return placed_on(last, pos, kw)
        return 0

    def _items_on_cuda(self, dataset: int) -> int:
        """CUDA_TENSOR for an instance of the file's Dataset class whose ``__getitem__`` returns CUDA tensors
        (``{"X": torch.tensor(x).to(device)}``): every batch the loader collates is on the GPU already."""
        for info in self.scopes.classes_of(dataset):
            getitem = info.methods.get("__getitem__")  # (nothing in the file calls it: the loader does)
            if getitem is not None and self.return_kind_of(getitem) & CUDA_TENSOR:
                return CUDA_TENSOR
        return 0

    def _joins_other_data(self, name: str, node: ast.Call) -> bool:
        """``torch.cat([enc_in[:, :w], dec_in])``: a join with a piece that is no fresh fill (data of unknown kind
        from a loader) is data, whatever fills it also holds."""
        pieces = node.args[0] if name in api.JOINS and node.args else None
        return isinstance(pieces, (ast.List, ast.Tuple)) and any(
            not self.values.get(piece, 0) & FRESH for piece in pieces.elts)

    def _in_module_method(self) -> bool:
        """Is the code evaluated now a method of one of the file's nn.Module classes?"""
        info = self.scopes.functions.get(self.scope)
        return info is not None and info.of_a_model

    def _factory(self, name: str, node: ast.Call, pos: list[int], kw: Kw) -> int:
        if "device" in kw:  # (device=0: a GPU's index)
            device = CUDA_DEVICE if is_device_number(_keyword(node, "device"), self.index.assigned_values) else kw["device"]
            out = CUDA_TENSOR if device & CUDA_DEVICE else (CPU_TENSOR | FRESH if device & CPU_DEVICE else 0)
        elif name in _COPYING_FACTORIES and pos and pos[0] & CUDA_TENSOR and not pos[0] & CONTAINER:
            out = CUDA_TENSOR  # torch.tensor(x) of a CUDA tensor copies it on its device
        elif pos and (name.endswith("_like") or name in api.SAMPLING_FACTORIES and (
                pos[0] & (CUDA_TENSOR | CPU_TENSOR) or not isinstance(node.args[0], ast.Constant))):
            out = pos[0] & (CUDA_TENSOR | CPU_TENSOR)  # zeros_like(x), bernoulli(p): made where x, p are (unknown: so)
            out |= FRESH if out == CPU_TENSOR else 0
        elif self.default_cuda and name != "from_numpy":  # (from_numpy shares the array's memory: on the CPU)
            out = CUDA_TENSOR
        else:
            out = CPU_TENSOR | (FRESH if makes_new_data(name, node, pos[0] if pos else 0, self.values)
                                and not holds_literal_data(name, node) else 0)  # (data spelled out: no fill)
        if name == "DoubleTensor":
            out |= F64
        if "dtype" in kw:  # dtype=float is torch.float64, as in numpy
            out |= F64 if dtype_kind(_keyword(node, "dtype"), kw["dtype"]) & DTYPE_F64 else 0
        elif pos and (name in api.WRAPPING_FACTORIES or name == "tensor" or name.endswith("_like")):
            out |= pos[0] & F64
        return out

    # -- methods ----------------------------------------------------------------------------------
    def _method_call(self, node: ast.Call, func: ast.Attribute) -> int:
        key = dotted(func)
        held = self.lookup(key) if key is not None else None
        if held:  # `self.model(x)`: an attribute holding a model, not a method
            self.values[func] = self.values.get(func, 0) | held
            pos, kw = self.eval_args(node)
            return self.call_value(held, pos, kw) | self.run_forward(held, node, pos, kw)
        attr = func.attr
        receiver_node = func.value
        receiver = self.ev(receiver_node, keep_fresh=attr in _MOVE_RECEIVER_METHODS or attr in api.SHAPE_QUERY_METHODS)
        pos, kw = self.eval_args(node)
        if isinstance(receiver_node, ast.Name) and receiver_node.id == "self":
            method = self.scopes.method_of(self.scope, attr)
            if method is not None:  # (and what the file's subclasses put in its place)
                out = self._call_each([method, *self.scopes.overrides(method)], node, pos, kw, own_methods=True)
                if not out and method.is_abstract and every_kind(pos, kw) & CUDA_TENSOR:
                    return CUDA_TENSOR  # loss = self.train_step(batch) of a base class: a subclass computes it there
                return out
        if isinstance(receiver_node, ast.Name) and not receiver:
            owner = self.scopes.resolve(receiver_node.id, self.scope)
            if isinstance(owner, ClassInfo) and attr in owner.methods:  # GnnTrainer.compute_accuracy(out, y): a
                method = owner.methods[attr]  # static method of the file's own class runs its own code
                return self.call_function(method, node, pos, kw, skip_self=method.is_classmethod)
        if receiver & INSTANCE_BITS:  # an instance of the user's own class: run its method
            methods = [c.methods[attr] for c in self.scopes.classes_of(receiver) if attr in c.methods]
        elif isinstance(receiver_node, ast.Name) and not receiver:  # agent.choose_action(obs), `agent` a parameter
            methods = self.scopes.duck_typed_methods(receiver_node.id, attr, self.scope)  # of the classes named for it
        else:
            methods = []
        if methods:
            out = 0
            for method in methods:
                out |= self.call_function(method, node, pos, kw, skip_self=method.takes_self)
            if attr == "forward" and receiver & CUDA_MODEL:  # model.forward(x) of a model moved to CUDA
                out |= CUDA_TENSOR | (receiver & F64)  # gives what model(x) gives
            return out
        out = self.method_result(receiver & ~INSTANCE_BITS, attr, node, pos, kw)  # Net().cuda(): still a Net
        if not out and len(pos) == 1 and not kw and isinstance(receiver_node, ast.Name) \
                and receiver_node.id == "self" and api.TRANSFORM_NAME.search(attr):
            return pos[0] & (CUDA_TENSOR | CPU_TENSOR | F64)  # self.preprocess(img) of a transform handed in: the
            # input transformed, on its device
        if not out and pos and not receiver & (CUDA_TENSOR | CPU_TENSOR) and api.MOVES_TO_GPU.match(attr) \
                and not every_kind(pos, kw) & CPU_DEVICE:  # device.data_to_device(batch) of a multi-GPU helper object
            return _moved_to_gpu(pos[0])
        return out | (receiver & INSTANCE_BITS if attr in api.MODEL_SELF_METHODS and is_module(out) else 0)

    # -- plain names: builtins, the user's functions and classes, values held in variables ------------
    def _name_call(self, node: ast.Call, name: str) -> int:
        held = self.lookup(name)
        if held:
            self.values[node.func] = self.values.get(node.func, 0) | held
        pos, kw = self.eval_args(node)
        if held is None:
            if name in ("iter", "next", "list", "tuple", "sorted", "reversed", "map"):  # map(to_cuda, batch): its results
                return (CUDA_TENSOR if pos[0] & CUDA_FN else 0) if name == "map" and pos else pos[0] if pos else 0
            if name in _MATH_BUILTINS:
                return every_kind(pos, kw) & (CUDA_TENSOR | CPU_TENSOR | F64)
            found = self.scopes.resolve(name, self.scope)
            if found is None:  # a parameter the calls fill with functions (acc_fn; extract_fn, one of two extractors)
                held = self.scopes.held_functions(node.func, self.scope)
                return self._call_each(held, node, pos, kw) if held else self._unknown_name_call(node, name, pos, kw)
            if isinstance(found, FunctionInfo):
                return self.call_function(found, node, pos, kw, skip_self=False)
            if isinstance(found, ClassInfo):
                return self.instantiate(found, node, pos, kw)
            return self._unknown_name_call(node, name, pos, kw)
        if not held & ~CUDA_FN:  # a name bound to one of the user's functions: step = make_step(model)
            functions = self.scopes.held_functions(node.func, self.scope)
            if functions:
                return self._call_each(functions, node, pos, kw)
        out = self.call_value(held, pos, kw) | self.run_forward(held, node, pos, kw)
        if not out and held & CUDA_TENSOR and not held & (MODEL_BITS | CUDA_FN) and pos:
            # `loss_fn = losses.structure_loss().to(device)`, then loss_fn(pred, y): what .to() moved was no tensor
            # (a tensor is not callable) but a module the file's factory built -- run on the GPU, it hands back CUDA data
            return CUDA_TENSOR
        if every_kind(pos, kw) & CUDA_TENSOR and not held & (CUDA_MODEL | CUDA_TENSOR | CPU_TENSOR) \
                and (held & MODEL or not held and api.MODEL_NAME_HINT.search(name)):
            self.bind(name, held | MODEL | CUDA_MODEL)  # model(x) of CUDA data: the module is on the GPU too
        if not out and not held and every_kind(pos, kw) & CUDA_TENSOR and (
                api.COMPUTES_ON_ITS_INPUTS.search(name) or name in self.index.parameter_owners
                or made_by_library_class(self.index.assigned_values.get(name, ()), self.names.qual)
                or any(api.MODEL_NAME_HINT.search(a) for a in alias_names(self.index.assigned_values, name))):
            # a name like a model (or one whose .parameters() are taken, or an alias of one), fed CUDA tensors
            return CUDA_TENSOR
        if not out and not held and len(pos) == 1 and api.TRANSFORM_NAME.search(name):
            return pos[0] & (CUDA_TENSOR | CPU_TENSOR | F64)  # _transforms(samples): an augmentation of one input
            # hands back its input's like, on its device
        return out

    def _call_each(self, functions, node: ast.Call, pos: list[int], kw: Kw, own_methods: bool = False) -> int:
        """A call that runs one of the user's functions, which one the file does not fix: any of their results."""
        out = 0
        for function in functions:
            out |= self.call_function(function, node, pos, kw, skip_self=own_methods and function.takes_self)
        return out

    def _unknown_name_call(self, node: ast.Call, name: str, pos: list[int], kw: Kw) -> int:
        """A bare name the file neither holds nor defines: a builtin, a star import, a snippet's model."""
        if name == "Variable" and node.args and name not in self.index.bound_names:
            return pos[0]  # pre-0.4 code quoted without its imports: torch.autograd.Variable is its tensor
        if api.TO_HOST.match(name):
            return NUMPY  # tensor2array(pred) of a star import: host data
        if api.MOVES_TO_GPU.match(name) and pos and not every_kind(pos, kw) & CPU_DEVICE:
            handed = node.args[0]  # model = cuda(model), to_var(x) of a star import: put on the GPU (a model when
            model = isinstance(handed, ast.Name) and (handed.id in self.index.parameter_owners  # its parameters are
                                                      or bool(api.MODEL_NAME_HINT.search(handed.id)))  # taken)
            return _moved_to_gpu(pos[0] | (MODEL if model else 0))
        if api.COMPUTES_ON_ITS_INPUTS.search(name) and every_kind(pos, kw) & CUDA_TENSOR \
                and not api.TEXT_DECODING.search(name):  # named like a model or a loss,
            return CUDA_MODEL if _builds_a_loss(name, pos) else CUDA_TENSOR  # fed CUDA tensors
        if name[:1].isupper() and api.FREE_MODEL_NAME.match(name) and not every_kind(pos, kw) & (CUDA_TENSOR | CPU_TENSOR):
            return MODEL  # `Net()` of a star import: the class is made, not a snippet's model run
        if name not in _BUILTINS:
            placed = placed_on(name, pos, kw)
            if placed:
                return placed
        return self.call_value(self._name(node.func), pos, kw)  # a snippet's model (exprs._name)
