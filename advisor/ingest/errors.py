"""The one error ingest raises: the text is none of the formats it reads."""

from __future__ import annotations

import re

EXPECTED = ("expected a gpu-advisor JSON report, the output of `python -m torch.utils.collect_env`, "
            "or `nvidia-smi -q`")
# The summary table plain `nvidia-smi` prints: "| NVIDIA-SMI 535.154.05   Driver Version: 535.154.05 ...".
_SUMMARY_TABLE = re.compile(r"NVIDIA-SMI\s+\S+\s+Driver Version:")


class UnrecognisedInput(ValueError):
    """Pasted text that holds neither collect_env output nor nvidia-smi -q output (a ValueError: bad input)."""


def unrecognised(text: str) -> UnrecognisedInput:
    """The error for ``text``, naming the usual mix-up when there is one. Callers prefix the input's name."""
    if _SUMMARY_TABLE.search(text):
        return UnrecognisedInput("this is the summary table of plain `nvidia-smi`, which lacks clocks, PCIe and "
                                 f"ECC; run `nvidia-smi -q` instead ({EXPECTED})")
    return UnrecognisedInput(f"found neither collect_env nor nvidia-smi -q output; {EXPECTED}")
