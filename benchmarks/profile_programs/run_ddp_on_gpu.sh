#!/usr/bin/env bash
# (f) ddp_straggler.py under torchrun on a 2-GPU machine: balanced runs (the noise between ranks), then one rank
# made a straggler (20 ms of extra host work before each step: a sleep, then CPU work). Each run's report (JSON
# and Markdown) and kept traces are packed into $OUT/ddp_RUN.tar.gz (the device returns at most 8 files), with a
# summary of every run in $OUT/ddp_timings.txt.
#
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
#   OUT=/tmp/ddp_out bash benchmarks/profile_programs/run_ddp_on_gpu.sh
set -u
OUT=${OUT:-/tmp/ddp_out}
WORK=${WORK:-/tmp/ddp_work}
PY=${PY:-python3}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$OUT" "$WORK"
nvidia-smi -L || true
nvidia-smi topo -m || true
port=29700
for run in ${RUNS:-balanced1 balanced2 balanced3 slow_sleep slow_cpu}; do
  port=$((port + 1))
  case $run in
    balanced*) env_extra="";;
    slow_sleep) env_extra="SLOW_RANK=1 SLOW_MS=20 SLOW_KIND=sleep";;
    slow_cpu) env_extra="SLOW_RANK=1 SLOW_MS=20 SLOW_KIND=cpu";;
  esac
  mkdir -p "$WORK/$run"
  start=$(date +%s.%N)
  # -q alone: torchrun's own parser would take a --log option for its --log-dir.
  (cd "$WORK/$run" && env $env_extra timeout 240 $PY -m torch.distributed.run --nproc-per-node 2 \
    --master-addr 127.0.0.1 --master-port $port -m advisor profile --warmup-steps 5 --steps 5 --baseline-steps 5 \
    -q --trace-out traces -f json -o profile.json -- "$OLDPWD/benchmarks/profile_programs/ddp_straggler.py" 300)
  rc=$?
  echo "$run rc=$rc wall_s=$($PY -c "print(round($(date +%s.%N) - $start, 1))")" | tee -a "$OUT/ddp_timings.txt"
  $PY - "$WORK/$run/profile.json" <<'PYEOF' | tee -a "$OUT/ddp_timings.txt"
import json, sys
from pathlib import Path
from advisor.cli.options import OutputFormat
from advisor.cli.output import write_report
from advisor.models.load import load_report_json
path = Path(sys.argv[1])
report = load_report_json(path.read_text(), str(path))
write_report(report, fmt=OutputFormat.markdown, output=path.with_suffix(".md"), redact=False)
profile = report.profile
for rank in profile.ranks:
    print(f"   rank {rank.rank} {rank.status}: step {rank.step_ms} ms, collectives {rank.collective_ms_per_step} ms, "
          f"wait {rank.collective_wait_ms_per_step} ms {rank.collective_wait_ms_steps}, work {rank.work_ms_per_step} ms")
skew = profile.rank_skew
print(f"   ratio {skew.ratio}, straggler {skew.straggler_rank} in {skew.straggler_steps}/{skew.steps_compared} steps, "
      f"extra wait {skew.extra_wait_ms} ms ({skew.extra_wait_fraction}); findings {[f.rule_id for f in report.findings]}")
PYEOF
  tar czf "$OUT/ddp_$run.tar.gz" -C "$WORK" "$run"
done
ls -la "$OUT"
