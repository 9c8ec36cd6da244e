from __future__ import annotations

from advisor.models.facts import Facts, GpuFacts, HostFacts
from advisor.models.report import Report, ReportMeta
from advisor.redact import Redactor, redact_report


def redactor() -> Redactor:
    return Redactor(extra_words=["alice-laptop", "alice"])


def test_private_strings_are_replaced():
    r = redactor()
    text = ("/home/alice/miniconda3/envs/x/bin/python on alice-laptop 10.1.2.3 fe80:0:0:0:1:2:3:4 "
            "GPU-12345678-1234-1234-1234-123456789abc token hf_abcdefghijklmnopqrstuvwxyz1234 "
            "ghp_abcdefghijklmnopqrstuvwxyz123456 alice@example.com C:\\Users\\Bob\\AppData "
            "aa:bb:cc:dd:ee:ff")
    out = r.text(text)
    for secret in ("alice", "10.1.2.3", "fe80", "12345678-1234", "hf_abc", "ghp_abc", "example.com", "Bob", "aa:bb"):
        assert secret not in out, (secret, out)
    assert "/home/{user}/miniconda3" in out
    assert "{uuid-1}" in out and "{ip-1}" in out


def test_versions_and_bus_ids_survive():
    r = redactor()
    text = "driver 580.159.04, CUDA 12.8, torch 2.5.1+cu124, python 3.11.7, bus 00000000:18:00.0, sm_90"
    assert r.text(text) == text


def test_same_value_gets_the_same_placeholder():
    r = redactor()
    uuid = "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
    assert r.text(uuid) == r.text(f"{uuid}") == "{uuid-1}"
    assert r.text("GPU-11111111-bbbb-cccc-dddd-eeeeeeeeeeee") == "{uuid-2}"


def test_report_fields_are_scrubbed_and_marked():
    report = Report(
        meta=ReportMeta(tool_version="t", command="env", created_utc="2026-01-01T00:00:00Z"),
        facts=Facts(host=HostFacts(hostname="gpu-node-17.cluster.example"),
                    gpus=[GpuFacts(index=0, serial="1654922004711", uuid="GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")]),
    )
    out = redact_report(report, redactor)
    assert out.meta.redacted is True
    assert out.facts.host.hostname == "{host-1}"
    assert out.facts.gpus[0].serial == "{serial-1}"
    assert out.facts.gpus[0].uuid == "{uuid-1}"
    assert report.facts.gpus[0].serial == "1654922004711"  # the original is untouched


def test_four_part_package_versions_are_not_ip_addresses():
    report = Report(meta=ReportMeta(tool_version="t", command="env", created_utc="x"),
                    facts=Facts(packages={"nvidia-cublas": "13.1.0.3"}))
    assert redact_report(report, redactor).facts.packages == {"nvidia-cublas": "13.1.0.3"}
    assert redactor().text("host 10.1.2.3") == "host {ip-1}"
