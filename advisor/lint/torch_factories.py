"""Which call makes a tensor from nothing: ``torch.randn(...)``, ``torch.fft.fftfreq(...)`` (torch_api's tables)."""

from __future__ import annotations

from typing import Optional

from advisor.lint.torch_api import FACTORIES, SUBMODULE_FACTORIES


def torch_factory(qualified: str) -> Optional[str]:
    """``randn`` for ``torch.randn``, ``fftfreq`` for ``torch.fft.fftfreq``: the factory an import path names, else
    None."""
    if qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:] in FACTORIES:
        return qualified[6:]
    return SUBMODULE_FACTORIES.get(qualified)
