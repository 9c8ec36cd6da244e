#!/usr/bin/env bash
# The fleet diagnosis (issue 16) on a lent machine, in one call; results under $OUT/fleet (tar them if > 8 files).
#   run: bash benchmarks/fleet_session.sh [stage ...]
#   stages: one      one GPU: quick + standard, one NCCL rank (done on nvidia-h100-x1, sample_reports/h100/)
#           node     every GPU of the machine: quick + standard (8 x H200: NVLink P2P/NVLS, busbw vs ~360 GB/s)
#           faults   the same node with NCCL_P2P_DISABLE=1 (fleet-nccl-transport-disabled and, through SHM,
#                    fleet-busbw-below-expected must fire), NCCL_SHM_DISABLE=1 too (sockets), and a killed rank
#           ranks2   two ranks on one GPU each of a 2-GPU kind: the smallest multi-GPU check
# Several nodes cannot be lent here; on a cluster: torchrun --nnodes N --nproc-per-node G --rdzv-backend c10d \
#   --rdzv-endpoint HOST:PORT -m advisor cluster -o fleet.md   (or srun ... python -m advisor cluster).
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-advisor-out}; mkdir -p "$OUT/fleet"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  || { echo "wheel install failed"; exit 1; }
export PYTHONPATH=/tmp/site:$PWD
python3 -m compileall -q -j 0 /tmp/site advisor >/dev/null
gpus=$(nvidia-smi -L | wc -l)
port() { echo $((29000 + RANDOM % 900)); }
fleet() {  # fleet NAME NPROC [cluster options...]: one run, its JSON and Markdown, its wall time
  local name=$1 nproc=$2; shift 2
  local start=$(date +%s)
  timeout 400 python3 -m torch.distributed.run --nproc-per-node "$nproc" --master-addr 127.0.0.1 \
    --master-port "$(port)" -m advisor cluster "$@" -o "$OUT/fleet/$name.json" > "$OUT/fleet/$name.log" 2>&1
  echo "$name: rc=$? wall_s=$(( $(date +%s) - start ))"
  python3 -m advisor explain "$OUT/fleet/$name.json" --format markdown > "$OUT/fleet/$name.md" 2>/dev/null
}
nvidia-smi topo -m > "$OUT/fleet/nvidia_smi_topo.txt" 2>&1
for stage in ${*:-one}; do
  case $stage in
    one) fleet one_quick 1 --quick; fleet one_standard 1 ;;
    node) fleet node_quick "$gpus" --quick; fleet node_standard "$gpus" ;;
    ranks2) fleet ranks2_standard 2 ;;
    faults)
      NCCL_P2P_DISABLE=1 fleet node_p2p_disabled "$gpus" --quick
      NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 fleet node_sockets "$gpus" --quick
      GPU_ADVISOR_FLEET_FAULT=1:collectives:kill fleet node_rank_killed "$gpus" --quick --timeout 20 ;;
  esac
done
tar -czf "$OUT/fleet.tar.gz" -C "$OUT" fleet && ls -la "$OUT/fleet"
