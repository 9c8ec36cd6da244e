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
stages=${*:-bench=resnet50 samples tests}
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader
for stage in $stages; do
  case $stage in
    bench=*)
      cases=${stage#bench=}; tag=${cases//,/_}
      log "bench $cases"
      timeout 240 python3 benchmarks/bench_batch_size.py bench --cases "$cases" --json "$OUT/bench_$tag.json" \
        --reports "$OUT" 2>&1 | grep -v -E "^(LOCAL_RANK|GPU available|TPU available|HPU available|💡|You are using)" ;;
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
      log "error paths on the GPU: bad shape (2), too large (3)"
      timeout 60 $CLI batch-size --model mlp --input-shape 1000 --format json -o /tmp/x.json; echo "rc=$?" ;;
    tests)
      log tests
      timeout 200 python3 -m pytest -m gpu tests/gpu/test_recommend_gpu.py -q -s -p no:cacheprovider 2>&1 | tail -60 ;;
  esac
done
log done
