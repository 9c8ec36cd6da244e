"""Which calls build a torch DataLoader: torch's own, a subclass (PyG, MONAI), or the project's re-export of it --
not another framework's loader, nor a project's own class that only shares the name (told apart by what it is
handed)."""

from __future__ import annotations

import ast

from advisor.lint.torch_api import LOADERS

_OTHER_FRAMEWORKS = frozenset({"paddle", "mxnet", "tensorflow", "tf", "keras", "jax", "flax", "mindspore", "oneflow",
                               "jittor", "megengine", "dgl"})


def is_loader(name: str, call) -> bool:
    """torch's DataLoader or a subclass (PyG, MONAI), also re-exported by the project's own module (``from preprocess
    import DataLoader``, handed a dataset: the project's data module passes torch's on) -- not another framework's,
    nor a project's own class of that name built with no dataset (``dl = DataLoader()``)."""
    if name in LOADERS:
        return True
    return name.endswith(".DataLoader") and name.split(".", 1)[0] not in _OTHER_FRAMEWORKS \
        and not name.startswith("torch.") and bool(call.args or any(k.arg == "dataset" for k in call.keywords)) \
        and not _not_torchs_signature(call)


# The keywords torch's DataLoader takes.
_LOADER_KEYWORDS = frozenset({
    "dataset", "batch_size", "shuffle", "sampler", "batch_sampler", "num_workers", "collate_fn", "pin_memory",
    "drop_last", "timeout", "worker_init_fn", "multiprocessing_context", "generator", "prefetch_factor",
    "persistent_workers", "pin_memory_device", "in_order"})


def _not_torchs_signature(call) -> bool:
    """A project's own loader of that name, by what it is handed: inputs and targets
    (``DataLoader(data['x_train'], data['y_train'], batch_size)``; torch's takes one dataset, then the batch size), a
    file path (``DataLoader(opt['data_dir'] + '/train.json', ...)``), or a keyword torch's does not take
    (``forcePreProcess=True``, ``evaluation=False``)."""
    first = call.args[0] if call.args else None
    return len(call.args) >= 3 and isinstance(call.args[1], ast.Subscript) and isinstance(first, ast.Subscript) \
        or _text(first) or any(k.arg is not None and k.arg not in _LOADER_KEYWORDS for k in call.keywords)


def _text(node) -> bool:
    """A string the code spells out or builds: ``"train.json"``, ``f"{root}/train"``, ``opt['dir'] + '/train.json'``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) or _text(node.right)
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)
