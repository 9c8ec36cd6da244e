"""The fleet report at 64 GPUs: summary and outliers first, identical topologies once, node names redacted."""

from advisor.app.cluster_service import node_placeholders, pseudonymise_nodes
from advisor.distributed.analysis import derive_fleet_facts
from advisor.distributed.collectives import combine
from advisor.engine.evaluate import evaluate_rules
from advisor.engine.loader import load_rules
from advisor.models.fleet import CollectiveTiming
from advisor.models.report import Report, ReportMeta
from advisor.report.fleet_sections import fleet_sections
from advisor.report.markdown import render_markdown
from tests.distributed.fleet_models import fleet_of, healthy_job


def job_report(nodes=8):
    ranks = healthy_job(nodes=nodes)
    for r in ranks:
        r.node = f"gpu-node-{r.rank // 8:02d}.cluster.example"
        if r.topology is not None:
            r.topology.node = r.node
        r.collectives = [CollectiveTiming(op="all_reduce", size_bytes=1 << 29, median_s=0.012, iterations=5)]
    ranks[min(42, len(ranks) - 1)].metrics["matmul_bf16_tflops"] = 300.0
    ranks[-1].fingerprint["nccl"] = "2.18.1"
    fleet = fleet_of(ranks)
    fleet.collectives = combine(ranks)
    fleet.facts = derive_fleet_facts(fleet)
    report = Report(meta=ReportMeta(tool_version="t", command="cluster", created_utc=""), fleet=fleet)
    findings, skipped = evaluate_rules([r.rule for r in load_rules()], report)
    return report.model_copy(update={"findings": findings, "skipped": skipped})


def test_sixty_four_gpus_read_summary_first():
    report = job_report()
    titles = [s.title for s in fleet_sections(report.fleet)]
    assert titles[:3] == ["Fleet summary", "Ranks that stand out", titles[2]] and titles[2].startswith("Collectives")
    outliers = fleet_sections(report.fleet)[1]
    assert outliers.rows == [("42", "gpu-node-05.cluster.example", "matmul_bf16_tflops 300 vs fleet median 650")]
    topologies = [t for t in titles if t.startswith("Topology")]
    assert len(topologies) == 1 and "and 4 more" in topologies[0]  # eight identical nodes: one table


def test_fleet_rules_fire_on_the_odd_rank_out():
    fired = {f.rule_id for f in job_report().findings}
    assert {"fleet-straggler", "fleet-versions-differ"} <= fired
    assert "fleet-rank-missing" not in fired


def test_markdown_stays_one_comment_and_folds_the_details():
    text = render_markdown(pseudonymise_nodes(job_report()))
    assert len(text) < 60_000
    assert text.index("fleet-straggler") < text.index("<details><summary>Per rank")


def test_node_names_become_stable_placeholders():
    report = job_report()
    names = node_placeholders(report)
    assert names["gpu-node-00.cluster.example"] == "{host-1}" and names["gpu-node-07.cluster.example"] == "{host-8}"
    scrubbed = pseudonymise_nodes(report)
    dumped = scrubbed.model_dump_json()
    assert "gpu-node-" not in dumped
    assert "rank 42 on {host-6}" in scrubbed.fleet.facts.stragglers_text


def test_fleet_rules_do_not_apply_to_a_one_process_report():
    report = Report(meta=ReportMeta(tool_version="t", command="env", created_utc=""))
    findings, skipped = evaluate_rules([r.rule for r in load_rules()], report)
    assert not any(s.rule_id.startswith("fleet-") for s in skipped)
    assert not any(f.rule_id.startswith("fleet-") for f in findings)


def test_a_fleet_report_round_trips_through_json():
    from advisor.models.load import load_report_json

    report = job_report(nodes=2)
    again = load_report_json(report.model_dump_json())
    assert again.fleet == report.fleet
