"""Facts from text people paste: `python -m torch.utils.collect_env` output, `nvidia-smi -q` output, or both.

Pure text to pydantic: nothing here imports torch or pynvml, so `gpu-advisor explain` runs anywhere.
"""

from __future__ import annotations

from advisor.ingest.collect_env import parse_collect_env
from advisor.ingest.detect import find_sections
from advisor.ingest.errors import UnrecognisedInput, unrecognised
from advisor.ingest.merge import driver_conflict, merge_smi
from advisor.ingest.nvidia_smi import parse_nvidia_smi
from advisor.ingest.shell import unavailable_model
from advisor.ingest.text import clean_paste
from advisor.models.facts import Facts

__all__ = ["COLLECT_ENV", "NVIDIA_SMI", "UnrecognisedInput", "facts_from_text"]

COLLECT_ENV = "collect_env text"
NVIDIA_SMI = "nvidia-smi -q text"
_ONLY_SMI = "not in nvidia-smi -q output (paste `python -m torch.utils.collect_env` output for it)"


def facts_from_text(text: str, source_name: str) -> tuple[Facts, list[str]]:
    """Facts from pasted collect_env and/or nvidia-smi -q text, and the kinds of text recognised in it.

    ``source_name`` (a path, "<stdin>") is kept for the signature callers share: messages leave it out because
    the caller already prefixes them with it. Raises UnrecognisedInput (a ValueError) when the text holds neither.
    """
    cleaned = clean_paste(text)
    sections = find_sections(cleaned)
    kinds: list[str] = []
    facts = None
    if sections.collect_env is not None:
        facts = parse_collect_env(sections.collect_env, cleaned)
        kinds.append(COLLECT_ENV)
    if sections.nvidia_smi is not None:
        driver, gpus = parse_nvidia_smi(sections.nvidia_smi)
        conflict = driver_conflict(facts, driver) if facts is not None else None
        if conflict:
            kinds.append(f"{NVIDIA_SMI}, left out: {conflict}")
        elif facts is None:
            facts = unavailable_model(Facts, _ONLY_SMI, driver=driver, gpus=gpus)
            kinds.append(NVIDIA_SMI)
        elif gpus:  # a banner with no GPU sections under it adds nothing to collect_env's facts
            facts = merge_smi(facts, driver, gpus)
            kinds.append(NVIDIA_SMI)
    if facts is None:
        raise unrecognised(cleaned)
    return facts, kinds
