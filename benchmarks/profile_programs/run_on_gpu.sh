#!/usr/bin/env bash
# Profile the four benchmark programs on a GPU machine, time them unprofiled for comparison, render the reports,
# run the GPU tests on them, and pack everything into $OUT (see tests/profile/verdicts.py for the expectations).
set -u
OUT=${OUT:-/tmp/profile_out}
WORK=$OUT/work
mkdir -p "$WORK"
PY=${PY:-python3}
nvidia-smi -L || true
for name in small_ops_loop sync_every_step sync_every_step_fixed dataloader_bound healthy_amp; do
  case $name in
    small_ops_loop) opts="--wait-seconds 3 --seconds 0.5"; args="30"; plain="3.5";;
    sync_every_step) opts=""; args="400"; plain="15";;
    sync_every_step_fixed) opts=""; args="400"; plain="15";;
    dataloader_bound) opts=""; args="50"; plain="1";;
    healthy_amp) opts=""; args="400"; plain="15";;
  esac
  start=$(date +%s.%N)
  timeout 300 $PY -m advisor profile $opts -q --log "$WORK/$name.program.log" -f json -o "$WORK/profile_$name.json" \
    --trace-out "$WORK/trace_$name" --plot "$WORK/profile_$name.png" -- "benchmarks/profile_programs/$name.py" $args
  rc=$?
  end=$(date +%s.%N)
  # The same program unprofiled, for about as many steps as the profile run let it take (PLAIN_FOR: only those).
  case " ${PLAIN_FOR:-$name} " in *" $name "*) timeout 300 $PY "benchmarks/profile_programs/$name.py" $plain > /dev/null 2>&1;; esac
  plain_end=$(date +%s.%N)
  echo "$name profile_rc=$rc profile_run_s=$($PY -c "print(round($end - $start, 2))") plain_run_s=$($PY -c "print(round($plain_end - $end, 2))") plain_args=$plain" | tee -a "$WORK/timings.txt"
  $PY - "$WORK/profile_$name.json" <<'PYEOF'
import sys
from pathlib import Path
from advisor.cli.options import OutputFormat
from advisor.cli.output import write_report
from advisor.models.load import load_report_json
path = Path(sys.argv[1])
if path.is_file():
    report = load_report_json(path.read_text(), str(path))
    write_report(report, fmt=OutputFormat.markdown, output=path.with_suffix(".md"), redact=False)
    write_report(report, fmt=OutputFormat.terminal, output=path.with_suffix(".txt"), redact=False)
    print(path.with_suffix(".txt").read_text())
PYEOF
done
# Before/after the fix of (b): what `compare` shows.
$PY -m advisor compare "$WORK/profile_sync_every_step.json" "$WORK/profile_sync_every_step_fixed.json" -f markdown \
  -o "$WORK/compare_sync_fix.md"
$PY -m advisor compare "$WORK/profile_sync_every_step.json" "$WORK/profile_sync_every_step_fixed.json" -f terminal
GPU_ADVISOR_PROFILE_REPORTS=$WORK $PY -m pytest -q -p no:cacheprovider -m gpu tests/profile 2>&1 | tee "$WORK/pytest_gpu.txt"
cd "$WORK" && tar czf "$OUT/reports.tar.gz" --exclude='trace_*' . 
for name in small_ops_loop sync_every_step dataloader_bound; do
  if [ -d "trace_$name" ] && [ "$(du -sm "trace_$name" | cut -f1)" -lt 15 ]; then tar czf "$OUT/trace_$name.tar.gz" "trace_$name"; fi
done
ls -la "$OUT"
