"""The seeded dev/held-out split of the real-world scripts corpus, recomputable from labels.json alone.

Items in PINNED_DEV stay in `dev` for good: the gatherer saw the linter's results on them (per item or through
per-check totals that identify them) while checking the scorer, so they can never be held out. Every other item
(keyed by its number and slug, `NNN_slug.py`) is placed as follows: shuffle the items (in number order) with
`random.Random(12)`; place the ones carrying the rarest check ids first; put each in the half that keeps the
per-check finding counts, the clean counts and the half sizes closest, counting the pinned items (ties
alternate). `test_realworld_scripts_corpus.py` checks that labels.json still follows this rule, so the halves
cannot drift silently when items are added.
"""

from __future__ import annotations

import random
from collections import Counter

IDS = [f"GA1{n:02d}" for n in range(1, 11)]
SEED = 12

# dev at the two scorer runs the gatherer made (commits 409ba7a and 27b840e): never held out.
PINNED_DEV = frozenset(
    f"{name}.py"
    for name in """
    001_inverse_small_cuda_timing 002_gesv_small_gpu_timing 003_loop_where_events 004_torchseg_compute_speed
    005_wavtokenizer_train_launch_blocking 006_bernoulli_trainer_launch_blocking
    007_espnet_deterministic_convtranspose 008_deepprunner_test_timing 009_cute_kernels_benchmark
    010_perfpred_timing_util 014_gpu_app_train_demo 015_linreg_from_numpy_each_epoch 016_reid_mgn_extract_feature
    018_fakedata_pinned_loader 019_dl_mini_project_test 021_gpumode_nsys_square 022_toys_cpu_profile
    028_torchdiffeq_ic_loop 029_gpupuzzlers_faster_way_to_add 030_xpt_inference 033_periodic_log_train_loop
    036_yunjey_cnn_main 038_mjo_predict_on_device 039_lhy_hw01_test_function 041_triton_launch_overhead
    042_cpu_scalar_op_overhead 043_candle_repeat_compare 044_kernelcnp_train_value86
    047_libtorch_startup_speed_test 048_idao_cpu_submit_test 050_attnsleep_weighted_loss
    051_embedding_compression_train 052_mbpo_sac_detect_anomaly 053_nerf_helpers_anomaly_commented
    056_dqn_pong_test_loop 057_nvbit_mlp_test_app 059_nn_project_type_cuda 060_gpuless_yolop_run
    062_d2l_style_cpu_gpu_matmul
    """.split()
)


def split_halves(items: dict[str, dict]) -> dict[str, str]:
    """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
    order = sorted(items)
    freq = Counter(f["id"] for it in items.values() for f in it["findings"])
    shuffled = list(order)
    random.Random(SEED).shuffle(shuffled)

    def rarity(name: str) -> int:
        return min((freq[f["id"]] for f in items[name]["findings"]), default=10**6)

    def weight(name: str) -> Counter:
        c = Counter(f["id"] for f in items[name]["findings"])
        c["__clean"] = int(bool(items[name]["clean"]))
        c["__n"] = 1
        return c

    keys = IDS + ["__clean", "__n"]
    counts = {"dev": Counter(), "heldout": Counter()}
    halves: dict[str, str] = {}
    for name in order:
        if name in PINNED_DEV:
            halves[name] = "dev"
            counts["dev"].update(weight(name))
    placing = sorted((n for n in shuffled if n not in PINNED_DEV), key=rarity)  # stable: the shuffle breaks ties
    for k, name in enumerate(placing):
        c = weight(name)
        best = None
        for half in (("dev", "heldout") if k % 2 == 0 else ("heldout", "dev")):
            other = "heldout" if half == "dev" else "dev"
            score = sum((counts[half][key] + c[key] - counts[other][key]) ** 2 for key in keys)
            if best is None or score < best[0]:
                best = (score, half)
        halves[name] = best[1]
        counts[best[1]].update(c)
    return halves
