#!/usr/bin/env bash
# One call on the lent GPU machine for the batch-size / memory work; results under $OUT (at most 8 files).
#   bash benchmarks/gpu_batch_size.sh [stage ...]
#   stages: bench=CASES (e.g. bench=resnet50 or bench=transformer,mlp)  samples  tests
# Wheels the device image lacks (pydantic) travel in .whl/; the CLI runs through benchmarks/bench_batch_size.py cli,
# which registers the memory and batch-size commands and hooks their report sections in.
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-advisor-out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  || { echo "wheel install failed"; exit 1; }
export PYTHONPATH=/tmp/site:$PWD
CLI="python3 benchmarks/bench_batch_size.py cli"
log() { echo "=== $* ($(date +%T))"; }
NOISE="^(LOCAL_RANK|GPU available|TPU available|HPU available|💡|You are using|Batch size|Restor|.Trainer.fit|\s*$)"
stages=${*:-bench=resnet50 samples tests}
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader
for stage in $stages; do
  case $stage in
    bench=*)
      # bench=CASES: default allocator, each case's report written too; bench=CASES@expandable: with
      # PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (a setting of that process only), numbers only.
      spec=${stage#bench=}; cases=${spec%@*}; tag=${cases//,/_}
      if [ "$spec" != "$cases" ]; then
        log "bench $cases with expandable_segments:True"
        ( export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
          timeout 200 python3 benchmarks/bench_batch_size.py bench --cases "$cases" \
            --json "$OUT/bench_${tag}_expandable.json" 2>&1 ) | grep -v -E "$NOISE"
      else
        log "bench $cases"
        timeout 200 python3 benchmarks/bench_batch_size.py bench --cases "$cases" --json "$OUT/bench_$tag.json" \
          --reports "$OUT" 2>&1 | grep -v -E "$NOISE"
      fi ;;
    samples)
      log "memory (fits, verified)"
      timeout 60 $CLI memory --shape 30000,30000 --dtype float32 --op matmul --verify --format json -o "$OUT/memory.json"
      echo "rc=$?"
      log "memory (does not fit, and an OOM message explained)"
      timeout 60 $CLI memory --shape 150000,150000 --dtype float32 --op matmul --noncontiguous \
        --explain-oom "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 764.00 MiB. GPU 0 has a total capacity of 47.37 GiB of which 442.88 MiB is free. Including non-PyTorch memory, this process has 46.92 GiB memory in use. Of the allocated memory 42.40 GiB is allocated by PyTorch, and 3.24 GiB is reserved by PyTorch but unallocated." \
        --format json -o "$OUT/memory_nofit.json"
      echo "rc=$?"
      log "batch-size resnet50 (CLI)"
      ( time timeout 150 $CLI batch-size --model resnet50 --optimizer adam --format json -o "$OUT/batch_size_resnet50_cli.json" ) 2>&1
      echo "rc=$?"
      log "batch-size transformer demo, bf16, AdamW (CLI)"
      ( time timeout 120 $CLI batch-size --model transformer --amp bf16 --optimizer adamw --format json \
          -o "$OUT/batch_size_transformer_cli.json" ) 2>&1
      echo "rc=$?"
      log "error path on the GPU: an input shape the model rejects (exit 2)"
      timeout 60 $CLI batch-size --model mlp --input-shape 1000 --format json -o /tmp/x.json; echo "rc=$?" ;;
    tests)
      log tests
      timeout 150 python3 -m pytest -m gpu tests/gpu/test_recommend_gpu.py -q -s -p no:cacheprovider 2>&1 | tail -40 ;;
  esac
done
log done
