"""The condition language of rules: a small pydantic-validated tree, evaluated without eval().

    all: [c, ...]            every child holds
    any: [c, ...]            at least one child holds
    not: c                   the child does not hold
    exists: path             the fact was obtained (it is not Unavailable); never unknown
    known: path              the fact has a value: true for a value, false when it is known to be none,
                             unknown (the rule is skipped, with the fact's reason) when it was not obtained
    fact: path  OP: operand  a comparison, exactly one OP:
        eq ne lt le gt ge       plain comparison (``eq: null`` tests "known to be None"); ``never``, the
                                crossover of a GPU that never won, orders above every number
        in not_in               membership of the fact in a literal list
        contains contains_any   the fact (a list or string) holds the operand / one of the operands
        matches                 the fact (a string) matches a regular expression (re.search)
        version_lt version_le version_gt version_ge version_eq
                                versions compared with packaging.version ("580.65.06" < "580.159.04")

An operand is a literal or ``{fact: other.path}`` with an optional ``times: k`` factor, so a rule can say
"the transfer crossover is more than 4 times the resident one" without arithmetic in strings.
"""

import re
from typing import Annotated, Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

COMPARISON_OPS = (
    "eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "contains", "contains_any", "matches",
    "version_lt", "version_le", "version_gt", "version_ge", "version_eq",
)
VERSION_OPS = frozenset(op for op in COMPARISON_OPS if op.startswith("version_"))
#: The value of a crossover size (or ratio of sizes) where the GPU never won in the range tried.
NEVER = "never"
_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_\-]+)*$")


class _Node(BaseModel):
    # Built on first use, when the whole tree exists. Built as each class is created, the branches would first
    # fail on ``Condition`` (named before it is defined), then need rebuilding one by one, each inlining the others.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


def _check_path(path: str) -> str:
    if not _PATH.match(path):
        raise ValueError(f"{path!r} is not a dotted fact path such as 'torch.cuda_version'")
    return path


class FactRef(_Node):
    """An operand read from another fact, optionally scaled."""

    fact: str
    times: float = 1.0

    _validate_fact = field_validator("fact")(classmethod(lambda cls, v: _check_path(v)))


class AllOf(_Node):
    all: list["Condition"] = Field(min_length=1)


class AnyOf(_Node):
    any: list["Condition"] = Field(min_length=1)


class NotOf(_Node):
    not_: "Condition" = Field(alias="not")


class Exists(_Node):
    exists: str

    _validate_path = field_validator("exists")(classmethod(lambda cls, v: _check_path(v)))


class Known(_Node):
    known: str

    _validate_path = field_validator("known")(classmethod(lambda cls, v: _check_path(v)))


class Compare(_Node):
    """``fact: path`` plus exactly one operator key. Which operator was given is kept in ``op``."""

    fact: str
    op: str
    operand: Any = None

    @model_validator(mode="before")
    @classmethod
    def _pick_operator(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "op" in data:
            return data
        ops = [key for key in data if key in COMPARISON_OPS]
        unknown = [key for key in data if key != "fact" and key not in COMPARISON_OPS]
        if unknown:
            raise ValueError(f"unknown operator {unknown[0]!r}; known: {', '.join(COMPARISON_OPS)}")
        if len(ops) != 1:
            raise ValueError(f"a comparison needs exactly one operator, got {ops or 'none'}")
        op = ops[0]
        operand = data[op]
        if isinstance(operand, dict):
            operand = FactRef.model_validate(operand)
        return {"fact": data.get("fact"), "op": op, "operand": operand}

    @model_validator(mode="after")
    def _check_operand(self) -> "Compare":
        _check_path(self.fact)
        operand = self.operand
        if self.op in VERSION_OPS and not isinstance(operand, (str, FactRef)):
            # YAML reads 12.10 as the float 12.1: a version must be quoted to mean what it says.
            raise ValueError(f"{self.op} needs a quoted version string, got {operand!r}")
        if self.op in ("in", "not_in", "contains_any") and not isinstance(operand, list):
            raise ValueError(f"{self.op} needs a list, got {operand!r}")
        if self.op == "matches":
            if not isinstance(operand, str):
                raise ValueError(f"matches needs a regular expression string, got {operand!r}")
            from advisor.engine.safe_regex import vet_pattern  # no backtracking bombs: see safe_regex

            vet_pattern(operand)
        if self.op in ("lt", "le", "gt", "ge") and not isinstance(operand, (int, float, FactRef)):
            raise ValueError(f"{self.op} needs a number or a {{fact: ...}} operand, got {operand!r}")
        return self


def _condition_kind(data: Any) -> Optional[str]:
    if isinstance(data, BaseModel):
        return {AllOf: "all", AnyOf: "any", NotOf: "not", Exists: "exists", Known: "known",
                Compare: "fact"}.get(type(data))
    if isinstance(data, dict):
        for key in ("all", "any", "not", "exists", "known", "fact"):
            if key in data:
                return key
    return None


Condition = Annotated[
    Union[
        Annotated[AllOf, Tag("all")],
        Annotated[AnyOf, Tag("any")],
        Annotated[NotOf, Tag("not")],
        Annotated[Exists, Tag("exists")],
        Annotated[Known, Tag("known")],
        Annotated[Compare, Tag("fact")],
    ],
    Discriminator(
        _condition_kind,
        custom_error_type="unknown_condition",
        custom_error_message="a condition is one of all / any / not / exists / known / fact+operator",
    ),
]


def iter_paths(condition: Condition) -> list[str]:
    """Every fact path a condition reads, in order (for load-time validation and evidence)."""
    if isinstance(condition, AllOf):
        return [p for child in condition.all for p in iter_paths(child)]
    if isinstance(condition, AnyOf):
        return [p for child in condition.any for p in iter_paths(child)]
    if isinstance(condition, NotOf):
        return iter_paths(condition.not_)
    if isinstance(condition, Exists):
        return [condition.exists]
    if isinstance(condition, Known):
        return [condition.known]
    paths = [condition.fact]
    if isinstance(condition.operand, FactRef):
        paths.append(condition.operand.fact)
    return paths
