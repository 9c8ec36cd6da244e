"""What torch ops and methods do to the number of elements of their tensor: keep it (elementwise math, moves,
casts), rearrange it (views), reduce it, or multiply matrices. Shared by the size reader (sizes.py), the models it
sizes (tiny_models.py) and the launch-bound check (GA110)."""

from __future__ import annotations

import ast
from typing import Optional

# Methods that keep the element count: moves, casts, copies, elementwise math.
SAME_SIZE_METHODS = frozenset({
    "to", "cuda", "float", "half", "double", "bfloat16", "clone", "detach", "contiguous", "add", "add_", "sub",
    "sub_", "mul", "mul_", "div", "div_", "pow", "pow_", "neg", "neg_", "abs", "abs_", "exp", "exp_", "log",
    "log_", "sqrt", "sqrt_", "sin", "sin_", "cos", "cos_", "tanh", "tanh_", "sigmoid", "sigmoid_", "relu",
    "relu_", "clamp", "clamp_", "fill_", "zero_", "copy_", "lerp", "lerp_", "addcmul_", "addcdiv_", "square",
    "rsqrt", "reciprocal", "sign", "floor", "ceil", "round", "fmod", "remainder", "maximum", "minimum",
    "tan", "tan_", "atan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "atan2", "log2", "log10",
    "log1p", "expm1", "erf", "erfc", "exp2", "trunc", "frac", "hypot", "clip", "clip_", "masked_fill",
    "masked_fill_", "nan_to_num", "square_", "exp2_", "logical_not", "logical_and", "logical_or",
    "bernoulli", "bernoulli_", "normal_", "uniform_", "exponential_", "random_", "poisson",
})
# torch.<name>(t, ...) functions that keep the element count of their tensor argument.
SAME_SIZE_FUNCTIONS = frozenset({
    "add", "sub", "mul", "div", "pow", "neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
    "relu", "clamp", "where", "maximum", "minimum", "square", "rsqrt", "reciprocal", "sign", "floor", "ceil",
    "round", "lerp", "addcmul", "addcdiv", "fmod", "remainder", "tan", "atan", "asin", "acos", "sinh", "cosh",
    "asinh", "acosh", "atanh", "atan2", "log2", "log10", "log1p", "expm1", "erf", "erfc", "exp2", "trunc", "frac",
    "hypot", "clip", "nan_to_num", "logical_not", "logical_and", "logical_or", "true_divide",
    "bernoulli", "normal", "poisson",  # draws shaped like their tensor arguments
})
# Reductions (and softmax-like ops along a dimension): at most their operand's elements.
REDUCING_FUNCTIONS = frozenset({
    "sum", "mean", "prod", "amax", "amin", "norm", "std", "var", "logsumexp", "softmax", "log_softmax", "cumsum",
    "cumprod", "argmax", "argmin", "all", "any", "count_nonzero", "dist",
})
REDUCING_METHODS = REDUCING_FUNCTIONS | {"max", "min"}
# Products of matrices: at most (elements of one) x (elements of the other) elements -- a loose bound that
# stays small when both are tiny (a 5x2 @ 2x1 step of hand-written regression).
MATMUL_FUNCTIONS = frozenset({"matmul", "mm", "bmm", "mv", "dot", "outer", "inner"})
# nn loss modules as cheap as an elementwise op and a reduction on their inputs.
ELEMENTWISE_LOSSES = frozenset({"MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss"})
# Methods that rearrange the same elements (no op of their own to count: views): x.reshape(-1, 1) keeps x's size.
VIEWS = frozenset({"reshape", "view", "view_as", "flatten", "ravel", "squeeze", "unsqueeze", "t", "permute",
                  "transpose", "movedim"})


def expanded_like(call: ast.Call) -> Optional[ast.AST]:
    """The tensor whose elements ``x.expand_as(y)`` or ``x.expand(y.shape)`` / ``x.expand(y.size())`` has: ``y``."""
    if not isinstance(call.func, ast.Attribute) or len(call.args) != 1 or call.keywords:
        return None
    argument = call.args[0]
    if call.func.attr == "expand_as":
        return argument
    if isinstance(argument, ast.Attribute) and argument.attr == "shape":
        return argument.value
    if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute) and argument.func.attr == "size" \
            and not argument.args:
        return argument.func.value
    return None
