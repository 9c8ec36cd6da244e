"""Builders for compare tests: real fixture reports, and small synthetic reports for one behaviour each."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from advisor.models.findings import Finding, SkippedRule
from advisor.models.load import load_report_json
from advisor.models.measurements import CrossoverResult, MeasurementRun, Measurements, ScalarMeasurement, TimingStats
from advisor.models.report import Report, ReportMeta

FIXTURES = Path(__file__).parent.parent / "fixtures"
H200 = FIXTURES / "reports" / "h200_diagnose.json"
CPU_ONLY = FIXTURES / "reports" / "cpu_only_diagnose.json"
CPU_ONLY_ENV = FIXTURES / "reports" / "cpu_only_env.json"
H200_COLLECT_ENV = FIXTURES / "collect_env" / "linux_h200_torch2.11_cu130.txt"
H200_SMI = FIXTURES / "nvidia_smi" / "h200_driver580.txt"


def fixture_report(path: Path) -> Report:
    return load_report_json(path.read_text(encoding="utf-8"), str(path))


def meta(command: str = "diagnose") -> ReportMeta:
    return ReportMeta(tool_version="0.1.0", command=command, created_utc="2026-01-01T00:00:00Z", sources=["probe"])


def stats(rel_spread: float = 0.02, *, stable: bool = True, method: str = "cuda_events") -> TimingStats:
    return TimingStats(median_s=1e-5, q1_s=1e-5, q3_s=1e-5, min_s=1e-5, max_s=1e-5, samples=50,
                       rel_spread=rel_spread, stable=stable, method=method)


def scalar(name: str, value: Optional[float], unit: str, *, spread: float = 0.02, stable: bool = True,
           single: bool = False, workload: str = "w", status: str = "ok", reason: Optional[str] = None) -> ScalarMeasurement:
    return ScalarMeasurement(name=name, value=value, unit=unit, workload=workload, status=status, reason=reason,
                             stats=None if single else stats(spread, stable=stable))


def crossover(op: str = "matmul", dtype: str = "float32", mode: str = "resident", *, size: Optional[int] = None,
              never: bool = False, always: bool = False, range_min: int = 8, range_max: int = 4096,
              status: str = "ok", reason: Optional[str] = None) -> CrossoverResult:
    return CrossoverResult(op=op, dtype=dtype, mode=mode, size_unit="n", crossover_size=size, gpu_never_wins=never,
                           gpu_always_wins=always, range_min=range_min, range_max=range_max, status=status,
                           reason=reason)


def measurements(*, overheads=(), peaks=(), transfer=(), crossovers=(), notes=()) -> Measurements:
    result = Measurements(run=MeasurementRun(budget_s=30.0, wall_s=20.0, notes=list(notes)),
                          crossover=list(crossovers))
    result.overheads.details = list(overheads)
    result.peaks.details = list(peaks)
    result.transfer.points = list(transfer)
    return result


def finding(rule_id: str, severity: str = "medium", gpu_index: Optional[int] = None) -> Finding:
    return Finding(rule_id=rule_id, title=f"{rule_id} title", category="health", severity=severity,
                   confidence="inferred", message=f"{rule_id} message", remediation="fix it", gpu_index=gpu_index)


def skipped(rule_id: str, gpu_index: Optional[int] = None) -> SkippedRule:
    return SkippedRule(rule_id=rule_id, title="t", reason="missing gpus (not in collect_env output)",
                       gpu_index=gpu_index)


def report(**parts) -> Report:
    return Report(meta=meta(), **parts)
