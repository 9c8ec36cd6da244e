"""The fix GA104 writes: the factory rewritten to make its tensor on the device it was copied to."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.checks.common import short

_ARGUMENT_FREE_CASTS = frozenset({"long", "int", "float", "double", "half", "bfloat16", "bool", "short", "byte"})


def made_on_the_device(factory: ast.Call, numpy_fill: Optional[ast.Call], device: str,
                       parent: Optional[ast.AST], random_draw: Optional[str] = None,
                       cast: Optional[str] = None) -> ast.AST:
    """``torch.randn(n, device=device)`` for ``torch.randn(n)`` (``torch.zeros(n, dtype=torch.float64, device=...)`` for
    ``torch.tensor(np.zeros(n))``, ``torch.normal(0, 1, (b, d), device=...)`` for ``torch.from_numpy(np.random.normal(0,
    1, (b, d)))``: ``random_draw`` names the torch factory); arithmetic with Python numbers around the factory is kept, and so is
    a cast of its result without arguments (``cast``: ``long`` of ``(torch.ones(n) * i).long()``)."""
    if numpy_fill is not None and random_draw == "randint":
        made = _torch_randint(numpy_fill)
    elif numpy_fill is not None and random_draw is not None:
        made = ast.Call(func=ast.Name(id=f"torch.{random_draw}"), args=numpy_fill.args,
                        keywords=[k for k in numpy_fill.keywords if k.arg == "size"])  # (float32, as it is used)
    else:
        made = torch_fill(numpy_fill, factory) if numpy_fill is not None else factory
    rewritten: ast.AST = ast.Call(func=made.func, args=made.args,
                                  keywords=[k for k in made.keywords if k.arg != "device"]
                                  + [ast.keyword(arg="device", value=ast.Name(id=device))])
    if isinstance(parent, ast.BinOp) and numpy_fill is None:  # torch.zeros(n) + 2.0: keep the + 2.0
        rewritten = ast.BinOp(left=rewritten if parent.left is factory else parent.left, op=parent.op,
                              right=rewritten if parent.right is factory else parent.right)
        if cast is not None:  # (torch.ones(n) * i).long(): keep the cast, the dtype the program uses
            rewritten = ast.Call(func=ast.Attribute(value=rewritten, attr=cast), args=[], keywords=[])
    return rewritten


def _torch_randint(draw: ast.Call) -> ast.Call:
    """``torch.randint(low, high, (size,))`` for ``np.random.randint(low, high, size)``: torch takes the size as a
    tuple, and NumPy's one-bound form ``randint(n, size=k)`` draws from [0, n)."""
    named = {k.arg: k.value for k in draw.keywords}
    bounds = list(draw.args[:2]) + [named[k] for k in ("low", "high") if k in named][:2 - len(draw.args[:2])]
    size = draw.args[2] if len(draw.args) > 2 else named.get("size", ast.Tuple(elts=[], ctx=ast.Load()))
    if not isinstance(size, (ast.Tuple, ast.List)):
        size = ast.Tuple(elts=[size], ctx=ast.Load())
    return ast.Call(func=ast.Name(id="torch.randint"), args=[*bounds, size], keywords=[])


def cast_around(parents: dict, node: Optional[ast.AST]) -> Optional[str]:
    """``long`` when ``node`` is the receiver of a cast with no arguments (``(torch.ones(n) * i).long()``)."""
    func = parents.get(node)
    call = parents.get(func) if isinstance(func, ast.Attribute) else None
    if isinstance(call, ast.Call) and call.func is func and not call.args and func.attr in _ARGUMENT_FREE_CASTS:
        return func.attr
    return None


def torch_fill(numpy_fill: ast.Call, wrapper: ast.Call) -> ast.Call:
    """torch.zeros(n, dtype=torch.float64) for torch.tensor(np.zeros(n)): the same tensor, its dtype kept
    (the wrapper's dtype= if it gives one, else numpy's, float64 by default)."""
    name = numpy_fill.func.attr if isinstance(numpy_fill.func, ast.Attribute) else "zeros"
    keywords = [k for k in numpy_fill.keywords if k.arg != "dtype"]
    dtype = next((k.value for k in wrapper.keywords if k.arg == "dtype"), None)
    if dtype is not None:
        dtype_text = short(dtype, 30)
    else:
        dtype = next((k.value for k in numpy_fill.keywords if k.arg == "dtype"), None)
        dtype_text = ("torch." + dtype.attr) if isinstance(dtype, ast.Attribute) else "torch.float64"
    keywords.append(ast.keyword(arg="dtype", value=ast.Name(id=dtype_text)))
    return ast.Call(func=ast.Name(id=f"torch.{name}"), args=numpy_fill.args, keywords=keywords)


def device_text(func: ast.Attribute, call: ast.Call) -> str:
    """The device a copy names, as code: ``"cuda"``, ``device``, ``src.device``, ``.cuda(i)``'s ``i``."""
    if func.attr == "type":  # .type(torch.cuda.FloatTensor)
        return '"cuda"'
    if func.attr == "type_as" and call.args:  # .type_as(imgs): the batch's device and its dtype
        held = short(call.args[0], 24)
        return f"{held}.device, dtype={held}.dtype"
    if func.attr == "cuda":  # .cuda(i) means device i
        index = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
        return short(index, 30) if index is not None else '"cuda"'
    device = next((k.value for k in call.keywords if k.arg == "device"), call.args[0] if call.args else None)
    return short(device, 30) if device is not None else '"cuda"'
