"""What a forward-looking call runs that is not a model's inference: a loss or a metric module, a feature transform
with fixed kernels (a spectrogram), one parameter-free torch.nn layer (nn.Softmax), a detector whose wrapper runs its own
inference mode (ultralytics' YOLO, yolov5 from torch.hub), a module of the file with no parameters at all. GA107 skips them: nothing is predicted,
and (for transforms and losses) no parameter records a graph."""
from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.names import last_identifier

# A loss module or a metric module (torchmetrics' are nn.Modules too): no model run for inference.
LOSS_OR_METRIC = re.compile(r"criterion|loss|metric|iou|accuracy|dice|psnr|ssim|auroc", re.IGNORECASE)
_CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict", "Module", "DataParallel",
                         "DistributedDataParallel"})

_FEATURE_TRANSFORMS = re.compile(r"^(torchaudio\.transforms|torchaudio\.compliance|nnAudio|torchvision\.transforms)\.")
# a project's own copy of one, by its class name (data.MelSpectrogramFixed wraps torchaudio's): fixed kernels too
_TRANSFORM_CLASS = re.compile(r"^(Log)?(Mel)?(Spectrogram|STFT|MFCC|Fbank|FilterBank|AmplitudeToDB|Resample)",
                              re.IGNORECASE)


def feature_transform(ctx, model: ast.AST) -> bool:
    """``spec_layer = Spectrogram.STFT(device=device)`` (nnAudio), ``torchaudio.transforms.MelSpectrogram()``: a
    feature transform with fixed kernels -- no parameter requires grad, so calling it records no graph (also a
    project's own MelSpectrogram class)."""
    values = ctx.index.assigned_values.get(model.id, []) if isinstance(model, ast.Name) else [model]
    made = [_unmoved(v) for v in values]
    return bool(made) and all(isinstance(v, ast.Call) and (_FEATURE_TRANSFORMS.match(ctx.qual(v.func) or "")
                                                         or _TRANSFORM_CLASS.match(last_identifier(v.func) or ""))
                              for v in made)


def _unmoved(value: ast.AST) -> ast.AST:
    """``Spectrogram(n_fft).to(device)`` / ``nn.Conv2d(...).cuda().eval()`` -> the constructor call."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in api.MODEL_SELF_METHODS:
        value = value.func.value
    return value


# torch.nn layers without parameters (activations, pooling, padding, resampling, dropout, reshaping): their forward
# on data that carries no graph records nothing. (PReLU, the norms with affine weights, conv/linear/embedding have
# parameters.)
_PARAMETER_FREE_LAYER = re.compile(
    r"^(Soft(max|min|plus|sign)|Softmax2d|LogSoftmax|Sigmoid|LogSigmoid|Tanh|Hardtanh|ReLU6?|LeakyReLU|R?ReLU|ELU|"
    r"SELU|CELU|GELU|SiLU|Mish|Hardswish|Hardsigmoid|Threshold|Softshrink|Hardshrink|Tanhshrink|GLU|"
    r"Upsample\w*|PixelShuffle|PixelUnshuffle|\w*Pad[123]d|\w*Pool[123]d|Dropout\w*|AlphaDropout|FeatureAlphaDropout|"
    r"Flatten|Unflatten|Identity|ChannelShuffle|Fold|Unfold|CosineSimilarity|PairwiseDistance|LocalResponseNorm)$")


def single_layer(ctx, model: ast.AST) -> bool:
    """A name bound only to one parameter-free torch.nn layer (softmax = nn.Softmax(dim=1), interp =
    nn.Upsample(...), a loss): its forward records no graph of its own. A layer with weights (conv =
    nn.Conv2d(...).cuda().half(), timed 150 times) records one on every call like any model; the lint corpora's
    labellers counted those from r44 to r57, against the earlier convention that exempted every single layer."""
    if not isinstance(model, ast.Name):
        return False
    values = ctx.index.assigned_values.get(model.id, [])
    if not values:
        return False
    named_a_model = bool(api.MODEL_NAME_HINT.search(model.id))
    layers = 0
    for value in map(_unmoved, values):  # (.cuda(), .to(device), .eval())
        if isinstance(value, ast.Name) and value.id == model.id:
            continue  # conv = conv.half(): the same layer, cast
        name = ctx.qual(value.func) if isinstance(value, ast.Call) else None
        if not name or not name.startswith("torch.nn.") or name.rsplit(".", 1)[-1] in _CONTAINERS:
            return False
        if name.endswith("Loss") and not named_a_model:
            return True  # nn.CrossEntropyLoss(): no parameters to record a graph for
        if not _PARAMETER_FREE_LAYER.match(name.rsplit(".", 1)[-1]):
            return False
        layers += 1
    return layers > 0


_DETECTOR_NAME = re.compile(r"det|yolo", re.IGNORECASE)


def self_inferring_detector(ctx, model: ast.AST) -> bool:
    """``model = torch.hub.load("ultralytics/yolov5", ...)`` / ``YOLO("best.pt")``: the hub model is wrapped in
    AutoShape, whose forward runs under ``smart_inference_mode()``, and ultralytics' predictor does the same: calling
    it on a frame records no graph."""
    if not isinstance(model, ast.Name):  # self.detector = self._initialize_detector(), which builds YOLO(...)
        return bool(_DETECTOR_NAME.search(last_identifier(model))) and any(
            (ctx.qual(call.func) or "").startswith("ultralytics.") for call in ctx.index.calls)
    values = ctx.index.assigned_values.get(model.id, [])
    for value in values:
        value = _unmoved(value)
        if not isinstance(value, ast.Call):
            continue
        name = ctx.qual(value.func) or ""
        first = value.args[0] if value.args else None
        if name.startswith("ultralytics.") or name == "torch.hub.load" and isinstance(first, ast.Constant) \
                and str(first.value).startswith("ultralytics/"):
            return True
    return False


_PLAIN = (ast.Constant, ast.Name, ast.Attribute, ast.BoolOp, ast.Compare, ast.IfExp, ast.UnaryOp, ast.BinOp,
          ast.Tuple, ast.List, ast.keyword, ast.expr_context, ast.boolop, ast.cmpop, ast.unaryop, ast.operator)


def parameter_free(ctx, model: ast.AST) -> bool:
    """``class AttnProcessor(nn.Module)`` whose ``__init__`` keeps only settings (``self.use_flash = flag``) and whose
    forward calls F.scaled_dot_product_attention: an nn.Module with no parameter to record a graph for. Only the
    file's own classes deriving from nn.Module itself, with an ``__init__`` of their own, every ``self.x = ...`` of them
    plain values (no call: a call may build a layer)."""
    classes = ctx.classes_of(ctx.kind(model))
    return bool(classes) and all(_settings_only(ctx, info.node) for info in classes) or _a_transform(ctx, model)


_KEEPS_IT = frozenset({"to", "cuda", "eval", "float", "double", "half"})  # (the same transform, moved or cast)


def _a_transform(ctx, model: ast.AST) -> bool:
    """``transform_fn = torchaudio.transforms.MFCC(...).to(device)`` (handed back by a helper, perhaps scripted with
    torch.jit.script): a signal transform with buffers and no parameter, so its forward records nothing. The binding
    that reaches the call is the last one written before it in its block."""
    if not isinstance(model, ast.Name):
        return False
    statement = ctx.index.statement_of(model)
    for _ in range(3):  # (transform_fn = torch.jit.script(transform_fn): look one binding further back)
        written = ctx.index.last_write_reaching(model.id, statement)
        assignment = _assignment_in(written, model.id)  # (`if jitted: transform_fn = torch.jit.script(...)`)
        if not isinstance(assignment, ast.Assign) or not isinstance(assignment.value, ast.Call):
            return False
        value = _unmoved(assignment.value)
        if not isinstance(value, ast.Call):
            return False  # (net = model.cuda(): another name's module)
        if ctx.qual(value.func) != "torch.jit.script":
            break
        statement = written
    name, helper = ctx.qual(value.func) or "", ctx.callee(value)
    if name.startswith(api.TRANSFORM_MODULES):
        return True
    if helper is None:
        return False  # (waveform, transform_fn = prepare(...): what the helper binds to that name, every time)
    made = [_unmoved(v) for v in ctx.index.assigned_values.get(model.id, ()) if ctx.index.scope_of(v) is helper.node]
    return bool(made) and all(isinstance(v, ast.Call) and ((ctx.qual(v.func) or "").startswith(api.TRANSFORM_MODULES)
                                                           or _partial_of_another_library(ctx, v)) for v in made)


def _partial_of_another_library(ctx, call: ast.Call) -> bool:
    """``functools.partial(librosa.core.spectrum._spectrogram, n_fft=n)``: a NumPy library's function, no module."""
    if ctx.qual(call.func) != "functools.partial" or not call.args:
        return False
    wrapped = ctx.qual(call.args[0]) or ""
    return bool(wrapped) and wrapped.split(".", 1)[0] in ("librosa", "numpy", "scipy", "sklearn")


def _assignment_in(statement: Optional[ast.stmt], name: str) -> Optional[ast.stmt]:
    """``statement`` itself when it assigns; for a branch that rebinds ``name`` (``if jitted: fn = script(fn)``),
    the last plain assignment of the name inside it."""
    if statement is None or isinstance(statement, ast.Assign):
        return statement
    found = [node for node in ast.walk(statement) if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)]
    return max(found, key=lambda node: node.lineno) if found else None


def _unmoved(value: ast.AST) -> ast.AST:
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _KEEPS_IT:
        value = value.func.value
    return value


def _settings_only(ctx, node: ast.ClassDef) -> bool:
    if not node.bases or any(ctx.qual(base) != "torch.nn.Module" for base in node.bases) or not any(
            isinstance(child, ast.FunctionDef) and child.name == "__init__" for child in node.body):
        return False  # (a class with no __init__ of its own shown -- a sketch -- is not known to be empty)
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and last_identifier(child.func) in ("register_parameter", "add_module",
                                                                          "register_module"):
            return False
        if isinstance(child, (ast.Assign, ast.AnnAssign)) and child.value is not None and any(
                isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                for target in (child.targets if isinstance(child, ast.Assign) else [child.target])) \
                and (not all(isinstance(part, _PLAIN) for part in ast.walk(child.value))
                     or _names_a_network(child.value)):
            return False
    return True


def _names_a_network(node: ast.AST) -> bool:
    """``self.encoder = encoder`` (GraphCL's Encoder(encoder=gconv, ...)): a network handed in and kept is the module's
    own submodule, its parameters the module's -- no setting. (A loss handed in records nothing.)"""
    return isinstance(node, ast.Name) and bool(api.MODEL_NAME_HINT.search(node.id)) \
        and not LOSS_OR_METRIC.search(node.id) and not _A_SETTING.search(node.id)


_A_SETTING = re.compile(r"num|^n_|dim|size|count|len|ratio|rate|type|name|mode|kind|flag|use_", re.IGNORECASE)
# (num_heads, head_dim, layer_norm_eps, model_type: settings whose names mention a network)
