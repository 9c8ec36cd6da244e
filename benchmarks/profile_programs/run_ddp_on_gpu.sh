#!/usr/bin/env bash
# (f) ddp_straggler.py under torchrun on a 2-GPU machine: balanced runs (the noise between ranks), then one rank
# made a straggler (a 20 ms sleep, then 20 ms of CPU work, before each step). Reports and kept traces go to $OUT.
set -u
OUT=${OUT:-/tmp/ddp_out}
PY=${PY:-python3}
mkdir -p "$OUT"
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
  start=$(date +%s.%N)
  env $env_extra timeout 240 $PY -m torch.distributed.run --nproc-per-node 2 --master-addr 127.0.0.1 \
    --master-port $port -m advisor profile --warmup-steps 5 --steps 5 --baseline-steps 5 -q \
    --log "$OUT/$run.log" --trace-out "$OUT/trace_$run" -f json -o "$OUT/profile_$run.json" \
    -- benchmarks/profile_programs/ddp_straggler.py 300
  rc=$?
  echo "$run rc=$rc wall_s=$($PY -c "print(round($(date +%s.%N) - $start, 1))")" | tee -a "$OUT/timings.txt"
  $PY - "$OUT/profile_$run.json" <<'PYEOF' | tee -a "$OUT/timings.txt"
import json, sys
report = json.load(open(sys.argv[1]))
profile = report["profile"]
for rank in profile["ranks"]:
    print("  ", {k: rank.get(k) for k in ("rank", "status", "step_ms", "collective_ms_per_step",
                                            "collective_wait_ms_per_step", "work_ms_per_step", "reason")})
print("   skew", profile["rank_skew"])
print("   findings", [f["rule_id"] for f in report["findings"]])
PYEOF
done
ls -la "$OUT"
