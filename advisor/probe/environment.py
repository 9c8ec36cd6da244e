"""Environment variables from the allowlist, and versions of related packages, without importing them.

The allowlist itself lives in ``advisor.models.env_allowlist`` so that the rule engine (which may not import
the probe) validates ``env.NAME`` paths against the very list this module reads; it is re-exported here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Optional

from advisor.models.common import Fact, missing
from advisor.models.env_allowlist import ENV_EXACT, ENV_PREFIXES, ENV_SECRET_MARKERS, env_name_allowed
from advisor.models.facts import EnvFacts, normalise_name

__all__ = [
    "ENV_EXACT", "ENV_PREFIXES", "ENV_SECRET_MARKERS", "PACKAGE_NAMES", "PACKAGE_PREFIXES",
    "env_name_allowed", "probe_env", "probe_packages",
]

#: Distributions whose presence or version changes what torch does on a GPU (normalised names, PEP 503).
PACKAGE_NAMES = frozenset({
    "torch", "torchvision", "torchaudio", "lightning", "pytorch-lightning", "accelerate", "transformers",
    "triton", "pytorch-triton", "pytorch-triton-rocm", "numpy", "deepspeed", "xformers", "flash-attn",
    "bitsandbytes", "jax", "jaxlib", "nvidia-ml-py", "pynvml", "onnxruntime-gpu", "tensorrt", "torch-tensorrt",
})
#: Whole families: every CUDA library wheel (nvidia-cublas-cu12, nvidia-cudnn-cu12 ...) and every cupy build.
PACKAGE_PREFIXES = ("nvidia-", "cupy", "jax-cuda")

# "<name>-<version>.dist-info": the wheel spec fixes this folder name, so name and version can be read from it
# without parsing METADATA (which costs ~1 ms per distribution and holds the GIL that `import torch` needs).
_DIST_INFO = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)\.dist-info$")


def probe_env(environ: Optional[Mapping[str, str]] = None) -> EnvFacts:
    source = os.environ if environ is None else environ
    variables = {name: value for name, value in sorted(source.items()) if env_name_allowed(name)}
    return EnvFacts(variables=variables, complete=True)


def _wanted(normalised: str) -> bool:
    return normalised in PACKAGE_NAMES or normalised.startswith(PACKAGE_PREFIXES)


def _name_and_version(dist: object) -> tuple[str, Optional[str]]:
    """The distribution's normalised name, and its version when the folder name already says it."""
    folder = getattr(getattr(dist, "_path", None), "name", "")  # PathDistribution; other finders lack it
    match = _DIST_INFO.match(folder) if isinstance(folder, str) else None
    if match:
        return normalise_name(match["name"]), match["version"]
    return normalise_name(dist.metadata["Name"] or ""), None  # type: ignore[attr-defined]


def select_packages(distributions: Iterable[object]) -> dict[str, str]:
    found: dict[str, str] = {}
    for dist in distributions:
        try:
            name, version = _name_and_version(dist)
            # The first one on sys.path wins, as it does for `import`.
            if not name or name in found or not _wanted(name):
                continue
            found[name] = version or dist.version  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - one broken METADATA must not hide the other packages
            continue
    return dict(sorted(found.items()))


def probe_packages() -> Fact[dict[str, str]]:
    try:
        import importlib.metadata

        return select_packages(importlib.metadata.distributions())
    except Exception as error:  # noqa: BLE001 - a broken site-packages is a fact, not a crash
        return missing(f"could not list installed packages: {error}")
