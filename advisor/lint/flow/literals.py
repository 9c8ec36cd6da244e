"""What an expression says by its syntax alone, before any data flow: a literal's type, a name's hint, a key.

Shared by the expression and call layers (exprs.py, calls.py) and by effects.py.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    DTYPE,
    DTYPE_F64,
    F64,
    FRESH,
    MODEL_BITS,
    NUMPY,
    TENSOR_BITS,
)
from advisor.lint.names import last_identifier


def has_float_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(has_float_literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return has_float_literal(node.operand)
    return False


def name_hint(name: str, index=None) -> int:
    """What a name nothing in the file binds (or a parameter no call site fills) holds, by its name. (``in_gpu`` in a
    file that drives the GPU through pycuda, CuPy or TensorRT is that library's buffer, not a torch tensor.)"""
    if api.names_a_device(name):  # device, DEVICE, def_device / train_device of a helper module (not cpu_device)
        return CUDA_DEVICE
    if index is not None and uses_another_gpu_library(index):
        return 0
    return CUDA_TENSOR if api.CUDA_TENSOR_NAME_HINT.match(name) else 0


_OTHER_GPU_LIBRARIES = frozenset({"pycuda", "cupy", "tensorrt"})


def uses_another_gpu_library(index) -> bool:
    """Does the file import a GPU library other than torch (pycuda, CuPy, TensorRT) -- whose buffers it names
    ``*_gpu``? (Asked once per file: the answer is kept on the index.)"""
    return index.memo("another_gpu_library", lambda: _imports_another_gpu_library(index))


def _imports_another_gpu_library(index) -> bool:
    return any((alias.name if isinstance(node, ast.Import) else node.module or "").split(".")[0] in _OTHER_GPU_LIBRARIES
               for node in index.imports for alias in (node.names if isinstance(node, ast.Import) else [None]))


def is_device_key(node: Optional[ast.AST]) -> bool:
    """``'device'`` in ``cfg['device']`` / ``config.get('device')``: the key a configuration names its device by."""
    return isinstance(node, ast.Constant) and node.value in api.DEVICE_NAME_HINT


def is_cpu_device(index, node: Optional[ast.AST], depth: int = 0) -> bool:
    """"cpu", torch.device("cpu"), or a name every assignment of which in the file is one of those."""
    if isinstance(node, ast.Constant):
        return node.value == "cpu"
    if isinstance(node, ast.Call) and last_identifier(node.func) == "device" and node.args:
        return isinstance(node.args[0], ast.Constant) and node.args[0].value == "cpu"
    if isinstance(node, ast.Name) and depth < 2:
        values = index.assigned_values.get(node.id, [])
        return bool(values) and all(is_cpu_device(index, value, depth + 1) for value in values)
    return False


_GPU_INDEX = re.compile(r"^(local_rank|rank|gpu|gpu_id|gpu_idx|device_id|device_idx|cuda_id)$", re.IGNORECASE)
_GPU_INDEXES = re.compile(r"^(gpu_ids|gpus|device_ids|cuda_ids|gpu_list)$", re.IGNORECASE)


def is_device_number(node: ast.AST, assigned: dict[str, list[ast.AST]]) -> bool:
    """``0`` in ``x.to(0)``, or a name bound only to such numbers (``device = 0``): a CUDA device index; so is a
    process's GPU index by its name (``x.to(self.local_rank)``, ``.to(gpu_id)``: DDP's one GPU per process), and an
    entry of a list of GPU indexes (``x.to(self.gpu_ids[0])``: the first of the GPUs a trainer was given)."""
    if isinstance(node, (ast.Name, ast.Attribute)) and _GPU_INDEX.match(last_identifier(node)):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)) \
            and _GPU_INDEXES.match(last_identifier(node.value)):
        return True
    values = assigned.get(node.id, []) if isinstance(node, ast.Name) else [node]
    return bool(values) and all(isinstance(v, ast.Constant) and type(v.value) is int or _gpu_of_rank(v)
                                for v in values)


def _gpu_of_rank(node: ast.AST) -> bool:
    """``rank % torch.cuda.device_count()``: the GPU a distributed process takes (DiT's and its forks' idiom)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.right, ast.Call) \
        and last_identifier(node.right.func) == "device_count"


def is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def dtype_kind(node: Optional[ast.AST], kind: int) -> int:
    """A dtype argument's kind; the builtins ``float`` and ``complex`` as dtypes are float64 and complex128."""
    if isinstance(node, ast.Name) and node.id in ("float", "complex"):
        return DTYPE | DTYPE_F64
    return kind


_DATA_MAKER = re.compile(r"_*(noise|latent|sample|random|rand|batch|data|input)s?_", re.IGNORECASE)


def looks_like_model(node: ast.AST) -> bool:
    """Nothing is known about ``node``: is it a model by how it is made or named?"""
    if isinstance(node, ast.Call):
        name = last_identifier(node.func)
        if name in ("Variable", "deepcopy"):  # Variable(images).to(device): pre-0.4 autograd's wrapper of the data it
            return bool(node.args) and looks_like_model(node.args[0])  # is handed; deepcopy(self.model): a copy
        if name[:1].isupper() and not api.NOT_A_MODEL.search(name):
            return True
        if _DATA_MAKER.match(name):
            return False  # noise_generator(batch).to(device): noise, not a generator network
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("apply", "train", "eval"):
            return True  # net_class(args).apply(weights_init): methods only an nn.Module has, returning the module
    return bool(api.MODEL_NAME_HINT.search(last_identifier(node)))


def is_text_data(node: ast.AST, assigned_values: dict[str, list[ast.AST]], depth: int = 0) -> bool:
    """Strings, lists of strings (``["a", "b"] * 8``), or a name bound only to those: text handed to a model."""
    if is_text(node):
        return True
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(is_text_data(e, assigned_values, depth) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # (texts * (batch // len(texts)): a count)
        return any(is_text_data(side, assigned_values, depth) for side in (node.left, node.right))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # ["a"] + others, prefix + "b"
        return all(is_text_data(side, assigned_values, depth) for side in (node.left, node.right))
    if isinstance(node, ast.Name) and depth < 4:
        values = assigned_values.get(node.id, [])
        return bool(values) and all(is_text_data(v, assigned_values, depth + 1) for v in values)
    return False


def made_by_library_class(values, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """``pdist = distances.CosineSimilarity()``: a name bound only to instances of an imported class (not the
    standard library's) -- a module or callable object of a library built on torch, which computes on what it is
    handed (``pdist(a, b)`` of CUDA embeddings is on the GPU)."""
    names = [qual(v.func) if isinstance(v, ast.Call) and last_identifier(v.func)[:1].isupper() else None
             for v in values]
    return bool(names) and all(name is not None and name.split(".", 1)[0] not in api.NOT_ON_CUDA for name in names)


def type_cast(target: ast.AST, receiver: int, qual: Callable[[ast.AST], Optional[str]],
              assigned_values: dict[str, list[ast.AST]]) -> int:
    """``x.type(torch.cuda.FloatTensor)``: a copy to the GPU; ``x.type(torch.DoubleTensor)``: a cast on the CPU
    (still just made); ``x.type(torch.float64)``: a cast on x's device; 0 for any other target."""
    text = target.value if isinstance(target, ast.Constant) and isinstance(target.value, str) else qual(target) or ""
    if not text and isinstance(target, ast.Name):  # dtype = torch.cuda.FloatTensor if GPU else ...: may be CUDA
        values = [part for v in assigned_values.get(target.id, ())
                  for part in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else (v,))]
        texts = [qual(v) or "" for v in values]
        text = next((t for t in texts if t.startswith("torch.cuda.")), "")
    if text.startswith("torch.cuda."):
        return CUDA_TENSOR | (F64 if text.endswith("DoubleTensor") else 0)
    if text.startswith("torch.") and text.endswith("Tensor"):
        return CPU_TENSOR | (receiver & FRESH) | (F64 if text.endswith("DoubleTensor") else 0)
    if text in api.F64_DTYPES and text.startswith("torch."):  # x.type(torch.float64): a cast where x is
        return receiver & (CUDA_TENSOR | CPU_TENSOR | FRESH) | F64
    if text in _NARROWER_DTYPES:  # torch.tensor(points).type(torch.float32): float64 NumPy data cast down, where it is
        return receiver & (CUDA_TENSOR | CPU_TENSOR | FRESH)
    return 0


_NARROWER_DTYPES = frozenset(f"torch.{name}" for name in (
    "float32", "float", "float16", "half", "bfloat16", "int64", "long", "int32", "int", "int16", "int8", "uint8",
    "bool"))


def came_from_generate(node: ast.AST, index, depth: int = 0) -> bool:
    """``ids = model.generate(...)``, ``ids[0]``, ``for row in ids:`` (a loop or a comprehension): token ids generate()
    made. It has read every step's tokens to test for the end, so the GPU is idle when they are decoded: that decode
    waits for nothing."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "generate"
    if not isinstance(node, ast.Name) or depth > 3:
        return False
    sources = list(index.assigned_values.get(node.id, ())) + [
        loop.iter for loop in index.loops if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
        and loop.target.id == node.id] + [  # [tokenizer.decode(g) for g in generated_ids]
        drawn.iter for drawn in (index.parents.get(n) for n in index.names_by_id.get(node.id, ()))
        if isinstance(drawn, ast.comprehension) and isinstance(drawn.target, ast.Name) and drawn.target.id == node.id]
    return bool(sources) and all(came_from_generate(source, index, depth + 1) for source in sources)


def made_by_predictor_library(node: ast.AST, qual: Callable[[ast.AST], Optional[str]],
                              assigned_values: dict[str, list[ast.AST]]) -> bool:
    """``YOLO("best.pt")``, ``pipeline("ocr")`` (or a name bound only to such calls): a predictor that runs and
    reads back its results itself, so ``.to(device)`` on it places nothing the file then computes with."""
    name = node.id if isinstance(node, ast.Name) else None
    values = assigned_values.get(name, []) if name is not None else [node]
    made = [v for v in values if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)  # (pipe =
                                      and isinstance(v.func.value, ast.Name) and v.func.value.id == name)]  # pipe.to())
    made = [_under_moves(v) for v in made]  # YOLO("yolov8n.pt").to(device): the YOLO object, moved
    return bool(made) and all(isinstance(value, ast.Call) and (api.PREDICTOR_LIBRARIES.match(qual(value.func) or "")
                                                                or _hub_detector(value, qual)) for value in made)


_MOVES = frozenset({"to", "cuda", "eval", "half", "float"})


def _under_moves(value: ast.AST) -> ast.AST:
    """``YOLO(...).to(device).eval()`` -> ``YOLO(...)``: a chain of moves and mode switches returns the object."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES \
            and isinstance(value.func.value, ast.Call):
        value = value.func.value
    return value


def _hub_detector(value: ast.Call, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """``torch.hub.load("ultralytics/yolov5", ...)``: an AutoShape model, which preprocesses, runs under inference
    mode and runs NMS itself -- a predictor that reads back its results, like ultralytics' YOLO."""
    first = value.args[0] if value.args else None
    return qual(value.func) == "torch.hub.load" and isinstance(first, ast.Constant) \
        and str(first.value).startswith("ultralytics/")


def alias_names(assigned_values: dict[str, list[ast.AST]], name: str) -> list[str]:
    """``f = model`` / ``net = self.model``: the names (last identifiers) an alias is bound to, when every
    assignment of ``name`` in the file is a plain name or attribute; else none. A call through the alias runs
    what those names hold (issue 12: ``f = model; f(x)``)."""
    values = assigned_values.get(name, [])
    if not values or not all(isinstance(value, (ast.Name, ast.Attribute)) for value in values):
        return []
    return [last_identifier(value) for value in values]


def makes_new_data(name: str, call: ast.Call, first_kind: int, kinds: Optional[dict] = None) -> bool:
    """Does this factory make new values on the CPU (torch.randn(n), torch.tensor([1.0, 2.0]), torch.tensor of
    a Python list, torch.FloatTensor(64, 3)) -- or wrap data that exists already (torch.from_numpy(a),
    torch.tensor(numpy_array), torch.FloatTensor(observation)), where the copy to the GPU is the point?"""
    if name in api.WRAPPING_FACTORIES:
        return False
    if name != "tensor" and name not in api.LEGACY_CONSTRUCTORS:
        return True
    if not call.args:
        return True
    if name in api.LEGACY_CONSTRUCTORS and any(isinstance(a, ast.Constant) and isinstance(a.value, float)
                                               for a in call.args):
        return False  # torch.Tensor(0.0) raises TypeError (sizes are ints, data a sequence): nothing is made
    first = call.args[0]
    if isinstance(first, (ast.List, ast.Tuple, ast.ListComp, ast.Constant)):
        return True  # a literal, or sizes
    if name == "tensor":
        return not first_kind & (NUMPY | CPU_TENSOR | CUDA_TENSOR)  # a list of Python numbers, unless known data
    if len(call.args) > 1 or isinstance(first, ast.Starred):
        return True  # FloatTensor(n, m), Tensor(*shape): sizes (unpacked, a shape is separate ints)
    if isinstance(first, ast.Attribute) and first.attr == "shape":
        # torch.Tensor(x.shape): a tensor's torch.Size is sizes; a gym space's or an array's .shape is a tuple of
        # numbers, which torch.Tensor takes as data (``kinds``: what the pass knows of each expression)
        return kinds is None or bool(kinds.get(first.value, 0) & TENSOR_BITS)
    return isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and first.func.attr == "size"


def holds_literal_data(name: str, call: ast.Call) -> bool:
    """``torch.tensor([0.2, 0.8])``, ``torch.FloatTensor([[0, 1], [1, 0]])``, ``torch.tensor(0.)``: values the program
    spells out in Python (or any data handed to ``torch.tensor``). They start on the host whatever the call: ``torch.tensor([...], device="cuda")`` builds
    the same CPU tensor and copies it, so making such a tensor on the CPU and moving it costs nothing extra
    (session 6 convention: not GA104; rebuilt in a loop it is still GA105's repeated copy). Sizes
    (``torch.FloatTensor(64, 3)``, ``torch.Tensor(5)``) are not data: that memory could be made on the GPU."""
    if name != "tensor" and name not in api.LEGACY_CONSTRUCTORS or not call.args:
        return False
    first = call.args[0]
    if name == "tensor":
        return True  # torch.tensor takes data, never sizes: torch.tensor(weights) copies a Python list too, and
        # torch.tensor(cfg.get("alpha", 0.2)) a number (a NumPy constant fill, torch.tensor(np.zeros(n)), is
        # still GA104's: the check asks for that before this)
    if isinstance(first, (ast.List, ast.Tuple, ast.ListComp)):
        return True
    return isinstance(first, ast.Constant) and isinstance(first.value, (float, bool))  # Tensor(5): 5 values made


def placed_on(name: str, pos: list[int], kw: dict) -> int:
    """A function the file does not show, named for fetching or placing data or a model, handed a CUDA device
    and no tensor (``get_batch("train", device)``, ``load_data(path, device=device)``): what it returns is on
    that device (``compute_metrics(path, device)`` says nothing of what it returns) -- a model when it is named like
    one (``build_model(cfg, device)``), tensors otherwise. A class (``Trainer(model, device)``) is left alone, but for a
    Dataset handed a device (its items are made there) and a class named like a model handed only a device (a
    model built there)."""
    every = 0
    for kind in list(pos) + list(kw.values()):
        every |= kind
    if name.endswith("Dataset") and every & CUDA_DEVICE and not every & (TENSOR_BITS | MODEL_BITS):
        return CUDA_TENSOR  # LibriSpeechDataset(split, device=DEVICE), FLATDataset(samples, vocab, config.device):
        # its items are made on that device
    if name[:1].isupper() and api.MODEL_NAME_HINT.search(name) and every & CUDA_DEVICE \
            and not every & (TENSOR_BITS | MODEL_BITS) and not api.NOT_DATA_HINT.search(name):
        return CUDA_MODEL  # SpeakerEncoder(device, loss_device) of another module: a model built on that device
    if not every & CUDA_DEVICE or every & (TENSOR_BITS | MODEL_BITS) or name[:1].isupper() \
            or not api.DATA_ON_DEVICE_HINT.search(name) or api.NOT_DATA_HINT.search(name):
        return 0
    return CUDA_MODEL if api.MODEL_NAME_HINT.search(name) else CUDA_TENSOR


_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "norm", "numel", "std"})


def own_reduction(side: ast.AST, other: ast.AST) -> bool:
    """``x.sum()`` (no argument) beside ``x``: one number the tensor gives itself, so ``x / x.sum()`` is made from x
    alone (a fill normalised by its own sum is still a fill)."""
    return isinstance(side, ast.Call) and isinstance(side.func, ast.Attribute) and side.func.attr in _REDUCTIONS \
        and not side.args and not side.keywords and ast.dump(side.func.value) == ast.dump(other)


def is_mask(index, node: ast.AST) -> bool:
    """``x > 0``, ``~mask``, ``(a > 0) & (b < 1)``, or a name bound only to such: a boolean mask. Indexing a CUDA
    tensor with one must count its True elements on the host before it can size the result."""
    if isinstance(node, ast.Name):
        values = index.assigned_values.get(node.id, [])
        return bool(values) and all(isinstance(v, ast.Compare) or _mask_op(v) for v in values)
    return isinstance(node, ast.Compare) or _mask_op(node)


def _mask_op(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return isinstance(node.operand, ast.Compare)
    return isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)) \
        and isinstance(node.left, ast.Compare) and isinstance(node.right, ast.Compare)


_HOST_CONTAINERS = (ast.List, ast.Tuple, ast.ListComp)  # (a dict hashes the tensor object: no read)


def _a_host_list(value: ast.AST) -> bool:
    """``[0.] * 10``, ``list(0. for i in range(10))``: a Python list (a dict hashes the tensor object: no read); a
    string (``string.printable``, ``"ACGT"``): indexing it asks the index for its integer too."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        value = value.left if isinstance(value.left, _HOST_CONTAINERS) else value.right
    if isinstance(value, ast.Constant) and isinstance(value.value, str) or isinstance(value, ast.Attribute) \
            and isinstance(value.value, ast.Name) and value.value.id == "string":
        return True
    return isinstance(value, _HOST_CONTAINERS) or isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
        and value.func.id in ("list", "tuple")


def indexes_host_data(node: ast.Subscript, kind: Callable[[ast.AST], int],
                      assigned_values: dict[str, list[ast.AST]]) -> bool:
    """``confusion[t, p] += 1`` of a numpy array (or a CPU tensor it writes into), ``classes[pred]`` of a list, with
    CUDA tensors as indices: each index is read back to the host first (``__index__``), one wait per element."""
    value = node.value
    held = kind(value)
    host = bool(held & NUMPY) or bool(held & CPU_TENSOR) and not held & CUDA_TENSOR and isinstance(node.ctx, ast.Store) \
        or isinstance(value, ast.Name) and bool(assigned_values.get(value.id)) \
        and all(_a_host_list(v) for v in assigned_values[value.id]) \
        or isinstance(value, (ast.Call, ast.Attribute, ast.Constant)) and _a_host_list(value)  # list(d)[i]
    indices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return host and any(kind(index) & CUDA_TENSOR and not kind(index) & CONTAINER for index in indices)


def fixed_flag(test: ast.AST, index) -> Optional[bool]:
    """``USE_CUDA = torch.cuda.is_available()`` then ``USE_CUDA = False`` ... ``"cuda" if USE_CUDA else "cpu"``: at
    the module's top level, straight-line, the last assignment before the statement fixes the flag (True/False); in a
    function, a module constant bound once to a bool and never rebound (``gpu = False``) does. None when anything
    else decides it (a parameter, a branch, a value not a bool literal)."""
    statement = index.statement_of(test) if isinstance(test, ast.Name) else None
    if statement is None:
        return None
    if index.parents.get(statement) is not index.tree:  # in a function: a module constant bound once, never rebound
        values = index.assigned_values.get(test.id, [])
        single = len(values) == 1 and test.id not in index.parameters and isinstance(values[0], ast.Constant) \
            and isinstance(values[0].value, bool) and index.parents.get(index.statement_of(values[0])) is index.tree
        return values[0].value if single else None
    earlier = index.last_write_before(test.id, statement)  # (written some other way -- a branch, a loop, a tuple --
    value = earlier.value if isinstance(earlier, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == test.id for t in earlier.targets) else None  # fixes nothing)
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, bool) else None


def makes_a_pil_image(call: ast.Call, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """``TF.to_pil_image(t)``, ``transforms.ToPILImage()(t)``: torchvision copies the tensor to the host."""
    func = call.func
    return qual(func) in api.PIL_CONVERTERS or (isinstance(func, ast.Call) and qual(func.func) in api.PIL_CONVERTERS)
