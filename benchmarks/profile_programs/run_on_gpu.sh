#!/usr/bin/env bash
# Profile the benchmark programs (a)-(e) on a GPU machine, time them unprofiled for comparison, render the reports,
# run the GPU tests on them, and pack everything into $OUT (see tests/profile/verdicts.py for the expectations).
set -u
OUT=${OUT:-/tmp/profile_out}
WORK=$OUT/work
mkdir -p "$WORK"
PY=${PY:-python3}
nvidia-smi -L || true
# ONLY="a b": just those programs; PRIOR=DIR: reports of an earlier run for the others (the GPU tests read all).
for name in ${ONLY:-small_ops_loop sync_every_step sync_every_step_fixed dataloader_bound healthy_amp compiled_step \
    compiled_step_graph}; do
  program=$name
  case $name in
    small_ops_loop) opts="--wait-seconds 3 --seconds 0.5"; args="30"; plain="3.5";;
    compiled_step) opts="--warmup-steps 10 --wait-seconds 60"; args="300"; plain="22";;
    compiled_step_graph) program=compiled_step; opts="--wait-seconds 4 --seconds 0.3"; args="100000 graph"; plain="";;
    sync_every_step) opts=""; args="400"; plain="15";;
    sync_every_step_fixed) opts=""; args="400"; plain="15";;
    dataloader_bound) opts=""; args="50"; plain="1";;
    healthy_amp) opts=""; args="400"; plain="15";;
  esac
  start=$(date +%s.%N)
  timeout 300 $PY -m advisor profile $opts -q --log "$WORK/$name.program.log" -f json -o "$WORK/profile_$name.json" \
    --trace-out "$WORK/trace_$name" --plot "$WORK/profile_$name.png" -- "benchmarks/profile_programs/$program.py" $args
  rc=$?
  # (e) failed once under the profiler (heap corruption, CUPTI with CUDA graphs): again with the small step that
  # ran before, then without CUDA graphs.
  for fallback in "300 reduce-overhead small" "300 default"; do
    if [ $rc -eq 0 ] || [ $name != compiled_step ]; then break; fi
    echo "compiled_step profile_rc=$rc with args '$args'; again with '$fallback'" | tee -a "$WORK/timings.txt"
    args=$fallback; plain="22 ${fallback#300 }"
    timeout 300 $PY -m advisor profile $opts -q --log "$WORK/$name.program.log" -f json -o "$WORK/profile_$name.json" \
      --trace-out "$WORK/trace_$name" --plot "$WORK/profile_$name.png" -- "benchmarks/profile_programs/$program.py" $args
    rc=$?
  done
  end=$(date +%s.%N)
  # The same program unprofiled, for about as many steps as the profile run let it take (PLAIN_FOR: only those).
  if [ -n "$plain" ]; then case " ${PLAIN_FOR:-$name} " in *" $name "*)
    timeout 300 $PY "benchmarks/profile_programs/$program.py" $plain > /dev/null 2>&1;; esac; fi
  plain_end=$(date +%s.%N)
  echo "$name profile_rc=$rc profile_run_s=$($PY -c "print(round($end - $start, 2))") plain_run_s=$($PY -c "print(round($plain_end - $end, 2))") plain_args=${plain:-none}" | tee -a "$WORK/timings.txt"
  # Where the profile run's time went (run.phases_s), and the GPU busy numbers the healthy rule reads.
  $PY -c "import json,sys; p=json.load(open(sys.argv[1]))['profile']; print('  phases_s', p['run']['phases_s']); print('  gpu_busy', p['gpu_busy_fraction'], 'steady', p.get('gpu_busy_steady_fraction'), 'step_ms', p['step_ms'], 'overhead', p['overhead_fraction'])" "$WORK/profile_$name.json" 2>/dev/null | tee -a "$WORK/timings.txt"
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
if [ -z "${ONLY:-}" ]; then
# The unprofiled start-up and exit of (a) alone (python, torch, CUDA): the rest of its plain run is its loop.
start=$(date +%s.%N); timeout 120 $PY benchmarks/profile_programs/small_ops_loop.py 0.05 > /dev/null 2>&1
echo "small_ops_loop_startup plain_run_s=$($PY -c "print(round($(date +%s.%N) - $start, 2))") plain_args=0.05" | tee -a "$WORK/timings.txt"
# (d) again, twice: the spread of GPU busy across runs, against the healthy rule's 90% line.
for i in 2 3; do
  timeout 300 $PY -m advisor profile -q --log "$WORK/healthy_amp.$i.log" -f json -o "$WORK/healthy_amp_run$i.json" -- \
    benchmarks/profile_programs/healthy_amp.py 400
  $PY -c "import json,sys; p=json.load(open(sys.argv[1])); q=p['profile']; print('healthy_amp run', sys.argv[2], 'gpu_busy', q['gpu_busy_fraction'], 'steady', q['gpu_busy_steady_fraction'], 'findings', [f['rule_id'] for f in p['findings']])" "$WORK/healthy_amp_run$i.json" $i | tee -a "$WORK/timings.txt"
done
# Before/after the fix of (b): what `compare` shows.
$PY -m advisor compare "$WORK/profile_sync_every_step.json" "$WORK/profile_sync_every_step_fixed.json" -f markdown \
  -o "$WORK/compare_sync_fix.md"
$PY -m advisor compare "$WORK/profile_sync_every_step.json" "$WORK/profile_sync_every_step_fixed.json" -f terminal
fi
if [ -n "${PRIOR:-}" ]; then cp -n "$PRIOR"/profile_*.json "$WORK"/; fi
GPU_ADVISOR_PROFILE_REPORTS=$WORK $PY -m pytest -q -p no:cacheprovider -m gpu tests/profile 2>&1 | tee "$WORK/pytest_gpu.txt"
cd "$WORK" && tar czf "$OUT/reports.tar.gz" --exclude='trace_*' . 
for name in small_ops_loop sync_every_step dataloader_bound compiled_step compiled_step_graph; do
  if [ -d "trace_$name" ] && [ "$(du -sm "trace_$name" | cut -f1)" -lt 15 ]; then tar czf "$OUT/trace_$name.tar.gz" "trace_$name"; fi
done
ls -la "$OUT"
