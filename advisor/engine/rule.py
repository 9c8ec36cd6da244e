"""The shape of one rule file (rules/<category>/<id>.yaml)."""

import re
from typing import Any, Literal, Optional, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from advisor.engine.conditions import Condition
from advisor.models.common import Confidence, Severity

#: A rule's category is also the folder its file lives in (rules/<category>/<id>.yaml).
Category = Literal["compat", "perf", "health", "memory", "fleet"]
CATEGORIES: tuple[str, ...] = get_args(Category)
_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class RuleExamples(BaseModel):
    """Fact sets (dotted path -> value) on which the rule must fire, and on which it must not.

    A ``passes`` example must evaluate to a definite "no": a rule that is merely skipped there
    would hide a missing fact in the example, so the test treats skipped as a failure.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    fires: list[dict[str, Any]] = Field(min_length=1)
    passes: list[dict[str, Any]] = Field(min_length=1)


class Rule(BaseModel):
    # Built when the first rule file is read (with RuleExamples and the condition tree inside it), not at import.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    title: str = Field(min_length=3)
    category: Category
    severity: Severity
    confidence: Confidence
    #: "gpu": evaluated once per GPU NVML reports, with ``gpu.*`` paths bound to that GPU.
    for_each: Optional[Literal["gpu"]] = None
    when: Condition
    message: str = Field(min_length=3)
    remediation: str = Field(min_length=3)
    references: list[str] = Field(default_factory=list)
    examples: RuleExamples

    @field_validator("id")
    @classmethod
    def _kebab_case(cls, value: str) -> str:
        if not _KEBAB.match(value):
            raise ValueError(f"rule id {value!r} must be kebab-case (lowercase words joined by '-')")
        return value
