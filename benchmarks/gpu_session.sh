#!/usr/bin/env bash
# One call on the lent GPU machine: everything GPU-side in one go, results under $OUT.
#   run: bash benchmarks/gpu_session.sh [stage ...]     (stages: facts speed clispeed diagnose quick crossover curves reference tests samples)
# Wheels that the device image lacks travel in .whl/ (see the device tool's README).
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-advisor-out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  || { echo "wheel install failed"; exit 1; }
export PYTHONPATH=/tmp/site:$PWD
# As pip install does for users: without .pyc files (and with PYTHONDONTWRITEBYTECODE set) every start-up
# would compile pydantic and gpu-advisor from source, and the speed stages would measure the compiler.
python3 -m compileall -q -j 0 /tmp/site advisor >/dev/null
stages=${*:-facts speed diagnose crossover reference tests}
log() { echo "=== $* ($(date +%T))"; }
for stage in $stages; do
  case $stage in
    facts)
      log facts
      nvidia-smi -q > "$OUT/nvidia-smi-q.txt" 2>&1
      nvidia-smi --query-gpu=driver_version,pcie.link.gen.max,pcie.link.width.max,memory.total,name,compute_cap --format=csv
      python3 -c "import torch, typer, rich, pydantic, pynvml; print(torch.__version__, typer.__version__, pydantic.__version__)"
      python3 benchmarks/record_facts.py "$OUT/facts_h100.json" ;;
    speed)
      log speed
      ( time python3 -m torch.utils.collect_env > "$OUT/collect_env.txt" 2>&1 ) 2>&1 | grep real
      python3 benchmarks/bench_env_speed.py --runs ${RUNS:-3}
      for i in 1 2 3; do ( time python3 -m advisor env --format json -o /tmp/env.json ) 2>&1 | grep real; done ;;
    diagnose)
      log diagnose
      ( time python3 -m advisor diagnose --format json -o "$OUT/diagnose.json" ) 2>&1 | tail -5
      python3 -m advisor explain "$OUT/diagnose.json" --format terminal --no-redact 2>&1 | head -150 ;;
    quick)
      log quick
      ( time python3 -m advisor diagnose --quick --format json -o "$OUT/diagnose_quick.json" ) 2>&1 | tail -5 ;;
    clispeed)
      log clispeed; python3 benchmarks/bench_cli_speed.py --runs 7 ;;
    crossover)
      log crossover; python3 benchmarks/bench_crossover.py --json "$OUT/bench_crossover.json" ;;
    curves)
      log curves; python3 benchmarks/record_crossover_curves.py "$OUT/crossover_curves.json" ;;
    reference)
      log reference; python3 benchmarks/bench_reference.py --json "$OUT/bench_reference.json" ;;
    tests)
      log tests; python3 -m pytest -m gpu tests -q -p no:cacheprovider 2>&1 | tail -25 ;;
    samples)
      # Real reports for sample_reports/, packed into one archive (the device returns at most 8 files).
      log samples
      S=/tmp/samples; rm -rf $S; mkdir -p $S
      python3 -m advisor env --format terminal -o $S/env_h200.txt
      python3 -m advisor env --format markdown -o $S/env_h200.md
      python3 -m advisor env --format json -o $S/env_h200.json
      python3 -m advisor diagnose --format terminal -o $S/diagnose_h200.txt
      python3 -m advisor diagnose --format markdown -o $S/diagnose_h200.md
      python3 -m advisor diagnose --format json -o $S/diagnose_h200.json
      python3 -m advisor diagnose --quick --format json -o $S/diagnose_quick_h200.json
      python3 -m advisor crossover --op matmul --op add --dtype float32 --plot $S/crossover_float32_h200.png \
        --tensorboard $S/tensorboard --format terminal -o $S/crossover_float32_h200.txt
      tar -czf "$OUT/samples.tar.gz" -C $S . && ls -la $S ;;
  esac
done
log done
