"""Facts comparison: differences, one-sided facts, redaction placeholders, the ignore list, GPU matching."""

from __future__ import annotations

from advisor.compare.facts_diff import diff_facts
from advisor.compare.ignored import IGNORED_FACTS, is_ignored
from advisor.compare.values import same
from advisor.models.common import missing
from advisor.models.facts import DriverFacts, EnvFacts, Facts, GpuFacts, HostFacts, TorchDevice, TorchFacts


def paths(items) -> list[str]:
    return [item.path for item in items]


def test_equal_facts_give_nothing():
    facts = Facts(host=HostFacts(os="Ubuntu", physical_cores=8), driver=DriverFacts(version="580.1"))
    result = diff_facts(facts, facts.model_copy(deep=True))
    assert result.differences == [] and result.one_sided == [] and result.not_compared == []


def test_differing_values_are_listed_with_both_sides():
    a = Facts(driver=DriverFacts(version="550.54"), torch=TorchFacts(version="2.5.1+cu124", cuda_version="12.4"))
    b = Facts(driver=DriverFacts(version="580.159.04"), torch=TorchFacts(version="2.5.1+cu124", cuda_version=None))
    result = diff_facts(a, b)
    assert [(d.path, d.a, d.b) for d in result.differences] == [
        ("torch.cuda_version", "12.4", None), ("driver.version", "550.54", "580.159.04")]


def test_unavailable_on_one_side_is_not_a_difference():
    a = Facts(driver=DriverFacts(version=missing("NVML not found")))
    b = Facts(driver=DriverFacts(version="580.159.04"))
    result = diff_facts(a, b)
    assert result.differences == []
    [item] = result.one_sided
    assert (item.path, item.side, item.value, item.missing_reason) == ("driver.version", "b", "580.159.04", "NVML not found")


def test_unavailable_on_both_sides_is_silent_whatever_the_reasons():
    a = Facts(host=HostFacts(clang_version=missing("clang not found on PATH")))
    b = Facts(host=HostFacts(clang_version=missing("collect_env could not run clang")))
    result = diff_facts(a, b)
    assert result.differences == [] and result.one_sided == []


def test_same_placeholder_is_not_a_difference_and_different_numbers_are_not_compared():
    a = Facts(gpus=[GpuFacts(index=0, name="<uuid-1> card")], env=EnvFacts(variables={"CUDA_VISIBLE_DEVICES": "<uuid-1>"}, complete=True))
    b = Facts(gpus=[GpuFacts(index=0, name="<uuid-1> card")], env=EnvFacts(variables={"CUDA_VISIBLE_DEVICES": "<uuid-2>"}, complete=True))
    result = diff_facts(a, b)
    assert result.differences == []
    assert [(n.path, n.reason.split(":")[0]) for n in result.not_compared] == [
        ("env.CUDA_VISIBLE_DEVICES", "redacted on both sides")]


def test_placeholder_against_plain_text_is_not_compared():
    a = Facts(packages={"nvidia-cublas": "<ip-1>"})
    b = Facts(packages={"nvidia-cublas": "13.1.0.3"})
    result = diff_facts(a, b)
    assert result.differences == []
    assert [(n.path, n.reason.split(" (")[0]) for n in result.not_compared] == [("packages.nvidia-cublas", "redacted in A only")]


def test_text_around_the_same_placeholder_still_differs():
    a = Facts(env=EnvFacts(variables={"CUDA_HOME": "/home/<user>/cuda-12.4"}, complete=True))
    b = Facts(env=EnvFacts(variables={"CUDA_HOME": "/home/<user>/cuda-13.0"}, complete=True))
    assert paths(diff_facts(a, b).differences) == ["env.CUDA_HOME"]


def test_ignored_facts_never_show(tmp_path):
    a = Facts(host=HostFacts(hostname="a", memory_available_bytes=1),
              gpus=[GpuFacts(index=0, name="H200", temperature_c=30, power_draw_w=70.0, clock_sm_mhz=345,
                             uuid="GPU-1", processes=[], memory_used_bytes=0)])
    b = Facts(host=HostFacts(hostname="b", memory_available_bytes=2),
              gpus=[GpuFacts(index=0, name="H200", temperature_c=60, power_draw_w=600.0, clock_sm_mhz=1980,
                             uuid="GPU-2", processes=missing("not permitted"), memory_used_bytes=10)])
    result = diff_facts(a, b)
    assert result.differences == [] and result.one_sided == []
    assert result.ignored == IGNORED_FACTS


def test_ignore_list_names_real_fact_paths():
    """A typo in the ignore list would silently ignore nothing: every entry must name a field of the model."""
    models = {"host": HostFacts, "gpus": GpuFacts, "torch.devices": TorchDevice, "torch": TorchFacts, "env": EnvFacts}
    for path in IGNORED_FACTS:
        owner, field = path.rsplit(".", 1)
        assert field in models[owner].model_fields, path
    assert is_ignored("gpus[3].temperature_c") and is_ignored("gpus[A0:B1].uuid") and not is_ignored("gpus[0].name")


def test_list_facts_compare_as_sets_and_say_what_changed():
    a = Facts(host=HostFacts(cpu_flags=["avx2", "fma", "avx512f"]))
    b = Facts(host=HostFacts(cpu_flags=["fma", "avx2", "amx_tile"]))
    [difference] = diff_facts(a, b).differences
    assert (difference.added, difference.removed) == (["amx_tile"], ["avx512f"])
    reordered = Facts(host=HostFacts(cpu_flags=["fma", "avx512f", "avx2"]))
    assert diff_facts(a, reordered).differences == []


def test_bool_and_int_are_not_equal():
    # True == 1 in Python; a boolean fact must not equal a count (e.g. in a dict of mixed values).
    assert not same(True, 1) and not same(0, False) and same(True, True) and same("<uuid-1>", "<uuid-7>")


def test_env_unset_is_a_difference_only_when_the_side_read_the_whole_allowlist():
    full = Facts(env=EnvFacts(variables={}, complete=True))
    paste = Facts(env=EnvFacts(variables={}, complete=False))
    launched = Facts(env=EnvFacts(variables={"CUDA_LAUNCH_BLOCKING": "1"}, complete=True))
    [difference] = diff_facts(full, launched).differences
    assert (difference.path, difference.a, difference.b, difference.note) == ("env.CUDA_LAUNCH_BLOCKING", None, "1", "unset in A")
    result = diff_facts(paste, launched)
    assert result.differences == [] and paths(result.one_sided) == ["env.CUDA_LAUNCH_BLOCKING"]


def test_packages_listed_on_one_side_are_one_sided():
    a = Facts(packages={"numpy": "1.26.4", "torch": "2.5.1"})
    b = Facts(packages={"numpy": "2.1.0", "torch": "2.5.1", "triton": "3.1.0"})
    result = diff_facts(a, b)
    assert [(d.path, d.a, d.b) for d in result.differences] == [("packages.numpy", "1.26.4", "2.1.0")]
    assert [(o.path, o.side, o.missing_reason) for o in result.one_sided] == [("packages.triton", "b", "not listed in A")]


def test_gpus_match_by_index_when_counts_agree():
    a = Facts(gpus=[GpuFacts(index=0, name="A100", power_limit_w=400.0), GpuFacts(index=1, name="A100", power_limit_w=400.0)])
    b = Facts(gpus=[GpuFacts(index=1, name="A100", power_limit_w=300.0), GpuFacts(index=0, name="A100", power_limit_w=400.0)])
    assert [(d.path, d.a, d.b) for d in diff_facts(a, b).differences] == [("gpus[1].power_limit_w", 400.0, 300.0)]


def test_gpus_match_by_name_when_counts_differ():
    a = Facts(gpus=[GpuFacts(index=0, name="RTX 4090", sm_count=128), GpuFacts(index=1, name="H100", sm_count=132)])
    b = Facts(gpus=[GpuFacts(index=0, name="H100", sm_count=114)])
    result = diff_facts(a, b)
    assert [(d.path, d.a, d.b, d.note) for d in result.differences] == [
        ("gpus[0]", "RTX 4090", None, "only in A"),
        ("gpus[A1:B0].sm_count", 132, 114, ""),
    ]


def test_gpus_unavailable_on_one_side_is_one_sided_with_names():
    a = Facts(gpus=missing("NVML Shared Library Not Found"))
    b = Facts(gpus=[GpuFacts(index=0, name="H200"), GpuFacts(index=1, name="H200")])
    [item] = diff_facts(a, b).one_sided
    assert (item.path, item.value, item.missing_reason) == ("gpus", "H200, H200", "NVML Shared Library Not Found")
