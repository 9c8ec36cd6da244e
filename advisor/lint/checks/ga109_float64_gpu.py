"""GA109: float64 data on the GPU.

Must match:   torch.from_numpy(np.random.rand(64, 3)).to("cuda")   (NumPy's default dtype is float64)
              x_cuda.double();  torch.zeros(8, dtype=torch.float64, device="cuda");  model.cuda().double()
              netG = GenLSTM(stride=500).double().cuda()   (a model of a class the file imports)
              torch.set_default_dtype(torch.float64) in a file that uses CUDA
              torch.tensor([0], dtype=float, device="cuda")   (the builtin float is torch.float64)
              torch.from_numpy(np.random.multivariate_normal(...)).to("cuda")   (every numpy distribution)
              torch.zeros(8, dtype=torch.complex128, device="cuda")   (complex128: pairs of float64, same units)
Must not:     torch.from_numpy(a.astype(np.float32)).to("cuda");  torch.from_numpy(a).float().cuda()
              torch.zeros(8, dtype=torch.complex64, device="cuda")
              metric.cpu().double() (float64 on the CPU);  float64 tensors that never reach CUDA
"""

from __future__ import annotations

import ast
import re
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short
from advisor.lint.checks.dtype_origins import attribute_dtype_choices, dtype_origin, named_dtype_choices
from advisor.lint.flow import CUDA_MODEL, CUDA_TENSOR, DTYPE_F64, F64
from advisor.lint.flow.kinds import INSTANCE_BITS, MODEL_BITS
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds float64 data on the GPU: NumPy arrays (float64 by default) moved as they are, .double(), '
          'dtype=torch.float64 (or dtype=float, which torch reads as float64), complex128 (pairs of float64), '
          'torch.set_default_dtype(torch.float64) in a program that uses CUDA. A chain split over lines '
          '(.double() or .to(torch.float64) on one line, .cuda() on the next) is reported at the cast.'),
    why=('GPUs run float64 at 1/2 of the float32 rate on data-centre parts and 1/32-1/64 on GeForce/RTX '
         'cards, with no tensor-core path; it also doubles memory and bandwidth.'),
    bad="""\
import numpy as np
import torch

features = torch.from_numpy(np.random.rand(1024, 64)).to("cuda")
""",
    good="""\
import numpy as np
import torch

features = torch.from_numpy(np.random.rand(1024, 64).astype(np.float32)).to("cuda")
""",
)

INFO = CheckInfo(
    id="GA109", name="float64-on-gpu", title="float64 on the GPU",
    severity="medium", confidence="heuristic",
    cost="GPUs run float64 at 1/2 of float32 speed on data-centre parts (A100, H100) and 1/32-1/64 on GeForce/RTX "
         "cards, with no tensor-core path; it also doubles memory and bandwidth. NumPy arrays are float64 by "
         "default and torch.from_numpy keeps that.",
    fix="Convert before moving: torch.from_numpy(a).float().to(device) or a.astype(np.float32); create tensors "
        "with dtype=torch.float32 (the default); keep float64 for the few steps that need it, on the CPU.",
    references=("https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#arithmetic-instructions",),
    doc=DOC,
)
_COMPLEX_FIX = ("Use complex64 (dtype=torch.cfloat, np.complex64 before moving) unless the computation needs double "
                "precision; keep complex128 for the few steps that need it, on the CPU.")
_BOUND = re.compile(r"\s*([A-Za-z_]\w*)\s*=[^=]")
_COMPLEX = re.compile(r"complex128|cdouble|\bc16\b|dtype=complex\b|\.to\(complex\)")
_CUDA = CUDA_TENSOR | CUDA_MODEL
_DEFAULT_DTYPE_SETTERS = ("torch.set_default_dtype", "torch.set_default_tensor_type")
_SAME_DATA = frozenset({"unsqueeze", "squeeze", "view", "reshape", "flatten", "contiguous", "permute", "transpose"})


def run(ctx) -> Iterator[Hit]:
    complex_lines = None  # (most files never write a complex dtype: looked for once, when a hit needs it)
    for hit in _float64_hits(ctx):
        node = hit.node
        if node is not None and "float64" in hit.message:
            complex_lines = complex_lines if complex_lines is not None else _complex_lines(ctx.unit.text)
            if _is_complex(node, *complex_lines):
                hit.message, hit.fix = hit.message.replace("float64", "complex128"), _COMPLEX_FIX
        yield hit


def _complex_lines(text: str) -> tuple[set[int], set[str]]:
    """The lines that write a complex dtype, and the names bound on them (``h = np.zeros(n, dtype=np.complex128)``)."""
    lines: set[int] = set()
    names: set[str] = set()
    if not _COMPLEX.search(text):
        return lines, names
    for number, line in enumerate(text.splitlines(), start=1):
        if _COMPLEX.search(line):
            lines.add(number)
            bound = _BOUND.match(line)
            if bound:
                names.add(bound.group(1))
    return lines, names


def _is_complex(node: ast.AST, lines: set[int], names: set[str]) -> bool:
    """complex128 rather than float64 (by the call's own lines, or the lines that bound the names it uses): only the
    wording and the fix change."""
    if any(line in lines for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)):
        return True
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _float64_hits(ctx) -> Iterator[Hit]:
    casts = _model_casts(ctx)  # .double() of a module made on the CPU (a layer in __init__, a model in a helper)
    moved: set[int] = set()  # the casts a move reaches in its own chain; 0: a move of a float64 model from elsewhere
    chosen: set[int] = set()  # the returns that chose a float64 dtype handed around by name, reported once
    for call in ctx.index.calls:
        name = ctx.qual(call.func) or ""
        if name in _DEFAULT_DTYPE_SETTERS and ctx.uses_cuda and call.args and _is_f64_default(ctx, call.args[0]):
            origin = dtype_origin(ctx, call, call.args[0])  # set_default_dtype(dtype) of dtype = get_dtype(cfg)
            if origin is None:
                yield Hit(f"{short(call)} makes every new tensor float64 in a program that uses the GPU", node=call)
            elif id(origin) not in chosen:
                chosen.add(id(origin))
                yield Hit(f"{short(call)} makes every new tensor float64 in a program that uses the GPU", node=origin)
            continue
        value = ctx.kind(call)
        if not (value & F64 and value & _CUDA) or _calls_user_code(ctx, call):
            continue  # a call into the user's own function: reported inside it, where the float64 appears
        inputs = [call.func] + list(call.args) + [k.value for k in call.keywords]
        if isinstance(call.func, ast.Attribute) and name == "":
            inputs.append(call.func.value)
        if any(ctx.kind(node) & F64 and ctx.kind(node) & _CUDA for node in inputs):
            continue  # already float64 on the GPU: reported where it got there
        if casts and _float64_model_at_work(ctx, call):
            if _a_move(call):
                moved.add(id(call.func.value) if call.func.value in casts else 0)  # type: ignore[union-attr]
            continue  # self.fc1(x) of a layer cast in __init__, model.to(device) of a model cast in a helper: at the cast
        converted = _converted_before(ctx, call)
        if converted is not None:  # x = x.double() / x = x.to(device) on the next line: at the conversion
            yield Hit(_message(call, name), node=call, line=converted.lineno, column=converted.func.end_col_offset
                      - len("double") if converted.func.end_col_offset else 0)
            continue
        # dtype=self._tensorType of a tensorType=torch.float64 parameter, dtype=dtype of DTYPE = torch.double,
        # a dtype=torch.float64 default: once, where float64 is written
        made = call.func.value if _a_move(call) and isinstance(call.func.value, ast.Call) else call  # (torch.zeros(n,
        # dtype=tensor_type).to(device): the factory's dtype)
        choices = attribute_dtype_choices(ctx, made) or named_dtype_choices(ctx, made)
        if choices:
            for choice in (c for c in choices if id(c) not in chosen):
                chosen.add(id(choice))
                yield Hit(f"{short(choice)} makes {short(call)} and every other tensor made with that dtype float64 "
                          "on the GPU", node=choice)
            continue
        origin = dtype_origin(ctx, call)
        if origin is not None:  # dtype = get_dtype(cfg) handed to every factory: once, where float64 is chosen
            if id(origin) not in chosen:
                chosen.add(id(origin))
                chooser = ctx.function_of(origin)
                yield Hit(f"{chooser.name if chooser else 'this function'}() returns {short(origin.value)}: "
                          f"{short(call)} and every other tensor made with that dtype is float64 on the GPU",
                          node=origin)
            continue
        yield _hit(ctx, call, name)
    for cast in casts:  # (after every call: which casts a move reaches is known only then)
        cls = ctx.class_of_method(cast)
        if id(cast) in moved or (cls is not None and ctx.instances_on_cuda(cls)) or (cls is None and 0 in moved):
            if _layer_made_float64(ctx, cast):
                yield Hit(f"{short(cast)} makes a float64 layer, and the program runs it on the GPU", node=cast)
                continue
            yield Hit(f"{short(cast)} makes a model float64, and the program runs it on the GPU", node=cast,
                      line=cast.func.end_lineno, column=(cast.func.end_col_offset or 0) - len("double"))  # (the .double)


def _model_casts(ctx) -> list[ast.Call]:
    """``self.fc1 = nn.Linear(n, h).double()`` in a model's __init__, ``model = model_class(dims).double()`` in a
    helper: a module cast to float64 before it is moved (the move, or the forwards, would repeat the one mistake)."""
    return [call for call in ctx.index.calls_by_name.get("double", [])
            if isinstance(call.func, ast.Attribute) and not call.args
            and ctx.kind(call) & MODEL_BITS and not ctx.kind(call) & CUDA_MODEL] + [
        call for call in ctx.index.calls if _layer_made_float64(ctx, call)]


def _layer_made_float64(ctx, call: ast.Call) -> bool:
    """``nn.Conv1d(c, l, 3, dtype=float)`` / ``nn.Linear(n, 1, dtype=torch.float64)``: a layer made float64 where it
    is built -- the same mistake as ``.double()`` on it."""
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    return dtype is not None and (ctx.qual(call.func) or "").startswith("torch.nn.") \
        and bool(ctx.kind(call) & MODEL_BITS) and not ctx.kind(call) & CUDA_MODEL \
        and (bool(ctx.kind(dtype) & DTYPE_F64) or isinstance(dtype, ast.Name) and dtype.id == "float")


def _float64_model_at_work(ctx, call: ast.Call) -> bool:
    """A forward of a float64 layer or of an instance of the user's model class, or the move of a float64 model
    (``model.to(device)``): the float64 came from a module's cast, reported there."""
    func = call.func
    if _a_move(call):
        return bool(ctx.kind(func.value) & MODEL_BITS and ctx.kind(func.value) & F64)  # type: ignore[union-attr]
    callee = ctx.kind(func)
    return bool(callee & MODEL_BITS and (callee & F64 or callee & INSTANCE_BITS))


def _a_move(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda")


def _converted_before(ctx, call: ast.Call) -> Optional[ast.Call]:
    """``x, y = x.double(), y.long()`` then ``x = x.to(device)``: the ``.double()`` of the last assignment to the
    moved name before the move, in the same function -- the line split over two statements, like a chain split
    over two lines."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and not isinstance(func.value, ast.Name):
        return _float64_part(ctx, call, func.value)
    if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and isinstance(func.value, ast.Name)):
        return None
    scope, name = ctx.index.scope_of(call), func.value.id
    values = [value for value in ctx.index.assigned_values.get(name, ()) if ctx.index.scope_of(value) is scope]
    last = max((v for v in values if v.lineno < call.lineno), key=lambda v: (v.lineno, v.col_offset), default=None)
    while _reshapes_itself(last, name):  # x = x.double(); x = x.unsqueeze(0); x.to(device): the cast two lines up
        last = max((v for v in values if v.lineno < last.lineno), key=lambda v: (v.lineno, v.col_offset), default=None)
    if isinstance(last, ast.Call) and isinstance(last.func, ast.Attribute) and last.func.attr == "double" \
            and isinstance(last.func.value, ast.Name) and last.func.value.id == func.value.id:
        return last
    if isinstance(last, ast.Call) and (ctx.qual(last.func) or "").startswith("torch.") \
            and (ctx.qual(last.func) or "").rsplit(".", 1)[-1] in api.FILL_WRAPPERS and ctx.kind(last) & F64 \
            and not ctx.kind(last) & _CUDA:
        return last  # t = torch.from_numpy(a) of a float64 array; t.cuda(): at the wrap, where float64 was taken on
    return _float64_cast_in(ctx, last) if last is not None else None


def _float64_part(ctx, call: ast.Call, moved: ast.AST) -> Optional[ast.Call]:
    """``v = torch.ones(n, dtype=torch.float64)``; ``torch.sparse.FloatTensor(i, v, shape).to_dense().to(device)``: the
    one part of the moved expression made float64 on the CPU by a factory of this function, on an earlier line."""
    scope, found = ctx.index.scope_of(call), []
    for node in ast.walk(moved):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            values = [v for v in ctx.index.assigned_values.get(node.id, ()) if ctx.index.scope_of(v) is scope
                      and v.lineno < call.lineno]
            last = max(values, key=lambda v: (v.lineno, v.col_offset), default=None)
            if isinstance(last, ast.Call) and (ctx.qual(last.func) or "").startswith("torch.") \
                    and ctx.kind(last) & F64 and not ctx.kind(last) & _CUDA:
                found.append(last)
    return found[0] if len(found) == 1 else None


def _reshapes_itself(value: Optional[ast.AST], name: str) -> bool:
    """``x = x.unsqueeze(0)`` / ``x.view(-1, d)``: the same data, another shape."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_DATA \
        and isinstance(value.func.value, ast.Name) and value.func.value.id == name


def _float64_cast_in(ctx, value: ast.AST) -> Optional[ast.Call]:
    """``images = Variable(torch.from_numpy(images.astype(np.double)))``: the call in the assigned value that makes
    CPU data float64 (its result is float64, what it was handed is not) -- the line that chose float64."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and ctx.qual(node.func) is None \
                and ctx.kind(node) & F64 and not ctx.kind(node) & _CUDA and not ctx.kind(node.func.value) & F64:
            return node
    return None


def _hit(ctx, call: ast.Call, name: str) -> Hit:
    """At the call's line; in a chain split over lines (model = (Net()\n .double()\n .cuda())), at the line
    of the .double() that made the data float64 before the move, else at the line of the method that put float64
    data on the GPU (issue 12's line rule: the offending call)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and isinstance(func.value, ast.Call) \
            and isinstance(func.value.func, ast.Attribute) and func.value.func.attr == "double" \
            and func.value.func.end_lineno != call.lineno:
        double = func.value.func
        return Hit(_message(call, name), node=call, line=double.end_lineno,
                   column=(double.end_col_offset or 0) - len("double"))
    if isinstance(func, ast.Attribute) and func.end_lineno != call.lineno and not ctx.kind(func.value) & F64:
        # torch.FloatTensor(\n x).to(device).to(torch.float64): the cast made it float64, not the factory above
        return Hit(_message(call, name), node=call, line=func.end_lineno,
                   column=(func.end_col_offset or 0) - len(func.attr))
    origin = _float64_origin_below(ctx, call)
    if origin is not None:  # torch.nextafter(\n torch.tensor(1.0, dtype=torch.float64), ...).to(device): at the maker
        return Hit(_message(call, name), node=call, line=origin.lineno, column=origin.col_offset)
    return Hit(_message(call, name), node=call)


def _float64_origin_below(ctx, call: ast.Call) -> Optional[ast.Call]:
    """The call nested in a moved expression, on a later line, that made float64 data out of none."""
    func = call.func
    if not (_a_move(call) and isinstance(func.value, ast.Call)):  # type: ignore[union-attr]
        return None
    for node in ast.walk(func.value):  # type: ignore[union-attr]
        if isinstance(node, ast.Call) and node is not func.value and node.lineno != call.lineno \
                and ctx.kind(node) & F64 and not any(ctx.kind(a) & F64 for a in node.args):
            return node
    return None


def _calls_user_code(ctx, call: ast.Call) -> bool:
    func = call.func
    scope = ctx.index.scope_of(call)
    if isinstance(func, ast.Name):  # (also loss_func(x) of a parameter the calls fill with the file's function)
        return ctx.resolve(func.id, scope) is not None or bool(ctx.callees(call))
    if isinstance(func, ast.Attribute):  # self.step(x), model.LossFunctions(x): a method of the file's own class
        return ctx.callee(call) is not None
    return False


def _message(call: ast.Call, name: str) -> str:
    if isinstance(call.func, ast.Attribute) and not name:
        if call.func.attr in ("double", "type"):
            return f"{short(call)} converts GPU data to float64"
        if call.func.attr in ("to", "cuda"):
            return f"{short(call)} moves float64 data to the GPU"
    return f"{short(call)} creates float64 data on the GPU"


def _is_f64_default(ctx, node: ast.AST) -> bool:
    if ctx.kind(node) & DTYPE_F64:
        return True
    text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ctx.qual(node) or ""
    return text.endswith("DoubleTensor")  # torch.DoubleTensor, or the string form 'torch.DoubleTensor'
