"""Recommendations: concrete settings the tool proposes (batch size, memory limits), with their reasoning."""

from typing import Any, Optional

from pydantic import Field

from advisor.models.common import Confidence, StrictModel


class Recommendation(StrictModel):
    kind: str  # "batch_size", "memory_fit", ...
    title: str
    #: The answer in one line, e.g. "batch size 96 (largest that fits: 107, margin 10%)".
    summary: str
    value: Optional[Any] = None
    confidence: Confidence = Confidence.measured
    reasoning: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
