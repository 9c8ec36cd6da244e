"""The rule engine: rules are data (rules/*.yaml), evaluated three-valued over a Report. No torch, no pynvml."""

from advisor.engine.evaluate import evaluate_rules
from advisor.engine.loader import LoadedRule, RuleLoadError, builtin_rules_dir, load_rules

__all__ = ["LoadedRule", "RuleLoadError", "builtin_rules_dir", "evaluate_rules", "load_rules"]
