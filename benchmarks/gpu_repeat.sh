#!/usr/bin/env bash
# One call on the lent GPU machine for issue 14 (numbers that repeat, batch size vs Lightning); results under $OUT.
#   bash benchmarks/gpu_repeat.sh LABEL [stage ...]      LABEL: h100 / h200 (names the sample files)
#   stages: repeat=N (N diagnoses + a CUDA_LAUNCH_BLOCKING=1 control, compared)  samples (env + explain of run 1)
#           batch (bench_batch_size resnet50,transformer, search only)  tests (the GPU tests)
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-advisor-out}; mkdir -p "$OUT"
LABEL=$1; shift
export PYTHONPATH=${PYTHONPATH:-/tmp/site:$PWD}
python3 -m compileall -q -j 0 advisor >/dev/null 2>&1
log() { echo "=== $* ($(date +%T))"; }
NOISE="^(LOCAL_RANK|GPU available|TPU available|HPU available|💡|You are using|Batch size|Restor|.Trainer.fit|\s*$)"
S=/tmp/samples; mkdir -p $S
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.applications.graphics,clocks.max.sm,driver_version --format=csv,noheader
for stage in "$@"; do
  case $stage in
    repeat=*)
      n=${stage#repeat=}; log "repeatability: $n diagnoses + control"
      timeout 300 python3 benchmarks/bench_repeatability.py run --runs "$n" --control launch_blocking --dir $S/repeat \
        --json "$S/bench_repeatability_$LABEL.json" > $S/bench_repeatability_$LABEL.txt 2>&1; head -60 $S/bench_repeatability_$LABEL.txt ;;
    samples)
      log samples
      cp $S/repeat/repeat_1.json $S/diagnose_$LABEL.json
      python3 -m advisor explain $S/diagnose_$LABEL.json --format terminal -o $S/diagnose_$LABEL.txt
      python3 -m advisor explain $S/diagnose_$LABEL.json --format markdown -o $S/diagnose_$LABEL.md
      python3 -m advisor env --format json -o $S/env_$LABEL.json
      python3 -m advisor explain $S/env_$LABEL.json --format terminal -o $S/env_$LABEL.txt
      python3 -m advisor explain $S/env_$LABEL.json --format markdown -o $S/env_$LABEL.md
      grep -A40 "Crossover sizes" $S/diagnose_$LABEL.txt | head -45 ;;
    batch|batch=*)
      cases=resnet50,transformer; [ "$stage" != batch ] && cases=${stage#batch=}
      log "batch size: $cases"
      timeout 330 python3 benchmarks/bench_batch_size.py bench --cases $cases --skip-full \
        --json "$S/batch_size_bench_$LABEL$cases.json" --reports $S --tag "_$LABEL" 2>&1 | grep -v -E "$NOISE" | grep -v '^ ' | head -40
      python3 - "$S/batch_size_bench_$LABEL$cases.json" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    a, l = c["advisor"], c["lightning"]
    print(f"{c['case']}: true {c['true_max']} ({c['exact_s']} s exact) | advisor {a['max_fit']} ({c['advisor_error_pct']:+}%) "
          f"{a['wall_s']} s, {a['search_trials']} search trials, first prediction {a['initial_prediction']} | "
          f"Lightning {l['largest_succeeded']} {l['wall_s']} s | ratio {c['wall_ratio_advisor_over_lightning']}")
PY
      ;;
    tests)
      log tests; timeout 150 python3 -m pytest -m gpu tests -q -p no:cacheprovider -x 2>&1 | tail -15 ;;
  esac
done
rm -rf $S/repeat/tensorboard
tar -czf "$OUT/results_$LABEL.tar.gz" -C $S . && ls -la $S
log done
