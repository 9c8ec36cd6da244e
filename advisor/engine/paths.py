"""Fact paths: checking them against the report's schema when rules load, and resolving them when rules run.

Namespaces a rule may read:
    host.* torch.* driver.* env.NAME packages.NAME   facts from the probe (or a pasted text)
    measurements.*                                   numbers timed on the machine
    derived.*                                        machine-wide conclusions (engine/derive.py)
    fleet.*                                          a distributed job's conclusions (models/fleet.FleetFacts);
                                                     missing outside ``gpu-advisor cluster``
    profile.*                                        the user's program under torch.profiler (profile reports)
    gpu.*                                            in rules with ``for_each: gpu``: that GPU's facts and
                                                     its derived facts (GpuFacts + GpuDerived)
Lists (``gpus``, ``measurements.crossover``) are not addressable: rules reach GPUs through ``for_each`` and
crossover results through derived facts, so a path always names one value.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel

from advisor.engine.derive import DISPLAY_ONLY, DerivedFacts, GpuDerived
from advisor.models.common import Unavailable, missing
from advisor.models.env_allowlist import env_name_allowed
from advisor.models.facts import DriverFacts, EnvFacts, GpuFacts, HostFacts, TorchFacts
from advisor.models.fleet import FleetFacts
from advisor.models.measurements import CrossoverMode, DType, Measurements, Op
from advisor.models.profile import ProfileFacts


class UnknownFactPath(ValueError):
    pass


_ROOTS: dict[str, type] = {
    "host": HostFacts, "torch": TorchFacts, "driver": DriverFacts, "measurements": Measurements,
    "derived": DerivedFacts, "fleet": FleetFacts, "profile": ProfileFacts,
}


def _strip_optional(annotation: Any) -> Any:
    """Unwrap ``Fact[T]`` / ``Optional[T]`` to T (the union arms other than Unavailable and None)."""
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        arms = [a for a in typing.get_args(annotation) if a not in (Unavailable, type(None))]
        return arms[0] if len(arms) == 1 else Union[tuple(arms)]  # type: ignore[return-value]
    return annotation


def check_path(path: str, *, gpu_scope: bool) -> None:
    """Raise UnknownFactPath unless ``path`` names a value in the report's schema."""
    head, _, rest = path.partition(".")
    if head == "env":
        if not rest or "." in rest or not env_name_allowed(rest):
            raise UnknownFactPath(f"{path!r}: env.NAME must name one allowlisted variable (see models/env_allowlist.py)")
        return
    if head == "packages":
        if not rest or "." in rest:
            raise UnknownFactPath(f"{path!r}: packages.NAME names one distribution, e.g. packages.torchvision")
        return
    if head == "gpu":
        if not gpu_scope:
            raise UnknownFactPath(f"{path!r}: gpu.* paths need 'for_each: gpu' in the rule")
        field = rest.split(".")[0]
        model = GpuDerived if field in GpuDerived.model_fields else GpuFacts
        _walk_type(model, rest.split(".") if rest else [], path)
        return
    if head not in _ROOTS:
        known = ", ".join(sorted([*_ROOTS, "env", "packages", "gpu"]))
        raise UnknownFactPath(f"{path!r}: unknown namespace {head!r}; known: {known}")
    _walk_type(_ROOTS[head], rest.split(".") if rest else [], path)


def check_condition_path(path: str, *, gpu_scope: bool) -> None:
    """``check_path``, and a condition reads values: never a derived fact that is display text."""
    check_path(path, gpu_scope=gpu_scope)
    if path in DISPLAY_ONLY:
        raise UnknownFactPath(f"{path!r} is text for messages, not a value for a condition "
                              "(crossover sizes are in derived.crossover.*)")


#: In an example, ``measurements.crossover.OP.DTYPE.MODE: <size | never | {result fields}>`` stands for one
#: measured crossover result (engine/examples.py builds it).
EXAMPLE_CROSSOVER = "measurements.crossover."


def check_example_path(path: str, *, gpu_scope: bool) -> None:
    """A key of a rule example: a fact or measurement the example sets. Derived facts are not among them:
    they are computed from the example exactly as from a real report."""
    head, _, rest = path.partition(".")
    if head == "derived" or (head == "gpu" and rest.split(".")[0] in GpuDerived.model_fields):
        raise UnknownFactPath(f"{path!r}: derived facts are computed from an example's facts and measurements; "
                              "give those instead")
    if path.startswith(EXAMPLE_CROSSOVER):
        parts = path[len(EXAMPLE_CROSSOVER):].split(".")
        choices = (typing.get_args(Op), typing.get_args(DType), typing.get_args(CrossoverMode))
        if len(parts) != 3 or any(part not in allowed for part, allowed in zip(parts, choices, strict=True)):
            raise UnknownFactPath(f"{path!r}: a crossover in an example is measurements.crossover.OP.DTYPE.MODE")
        return
    check_path(path, gpu_scope=gpu_scope)


def _walk_type(annotation: Any, segments: list[str], path: str) -> None:
    current = annotation
    for index, segment in enumerate(segments):
        current = _strip_optional(current)
        origin = typing.get_origin(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            if segment not in current.model_fields:
                fields = ", ".join(current.model_fields)
                raise UnknownFactPath(f"{path!r}: {segment!r} is not a field of {current.__name__} ({fields})")
            current = current.model_fields[segment].annotation
        elif origin is dict:
            key_type, value_type = typing.get_args(current)
            if typing.get_origin(key_type) is Literal and segment not in typing.get_args(key_type):
                raise UnknownFactPath(f"{path!r}: {segment!r} is not one of {typing.get_args(key_type)}")
            current = value_type
        elif origin is list:
            where = ".".join(segments[:index]) or path
            raise UnknownFactPath(f"{path!r}: {where!r} is a list; rules read lists through for_each or derived facts")
        else:
            raise UnknownFactPath(f"{path!r}: cannot look inside {segments[index - 1]!r}, it is a plain value")
    # Ending on a whole list is fine: it is one value (contains / contains_any work on it).


class FactView:
    """Resolves fact paths on one report (plus its derived facts), optionally bound to one GPU."""

    def __init__(self, roots: dict[str, Any], *, env: EnvFacts, packages: Any,
                 gpu: Optional[tuple[GpuFacts, GpuDerived]] = None) -> None:
        self._roots = roots
        self._env = env
        self._packages = packages
        self._gpu = gpu

    def for_gpu(self, gpu: GpuFacts, derived: GpuDerived) -> "FactView":
        return FactView(self._roots, env=self._env, packages=self._packages, gpu=(gpu, derived))

    def resolve(self, path: str) -> Any:
        """The value at ``path``, or Unavailable(reason) when it (or anything on the way) is missing."""
        head, _, rest = path.partition(".")
        if head == "env":
            if rest in self._env.variables:
                return self._env.variables[rest]
            return None if self._env.complete else missing(f"{rest} was not recorded in this source")
        if head == "packages":
            if isinstance(self._packages, Unavailable):
                return self._packages
            return self._packages.get(rest)  # None: not installed
        segments = rest.split(".") if rest else []
        if head == "gpu":
            if self._gpu is None:
                raise UnknownFactPath(f"{path!r} read outside a for_each: gpu rule")
            facts, derived = self._gpu
            current: Any = derived if segments and segments[0] in GpuDerived.model_fields else facts
        else:
            current = self._roots[head]
        for segment in segments:
            if isinstance(current, Unavailable):
                return current
            if isinstance(current, BaseModel):
                current = getattr(current, segment)
            elif isinstance(current, dict):
                if segment not in current:
                    # In words, not the path again (the skip lists the path): "crossover matmul float32 resident".
                    return missing(f"{' '.join(segments)} was not measured")
                current = current[segment]
            else:  # pragma: no cover - paths are checked when rules load
                raise UnknownFactPath(path)
        return current
