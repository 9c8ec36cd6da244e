"""The second-labelling comparison counts agreement on (file, check, line) and tells placement from substance."""

from __future__ import annotations

import json

import compare_labels


def _item(*findings, clean=False):
    return {"findings": [{"line": line, "id": cid, "why": "."} for cid, line in findings], "clean": clean}


def test_findings_are_keyed_by_file_check_and_line():
    items = {"dev/a.py": _item(("GA103", 4), ("GA104", 9)), "heldout/b.py": _item(clean=True)}
    assert compare_labels.findings(items, ["dev/a.py", "heldout/b.py"]) == {("dev/a.py", "GA103", 4),
                                                                             ("dev/a.py", "GA104", 9)}


def test_a_finding_set_a_few_lines_apart_is_placement_not_substance():
    first = {("a.py", "GA103", 10), ("a.py", "GA107", 30), ("b.py", "GA103", 5)}
    second = {("a.py", "GA103", 12), ("a.py", "GA103", 30), ("b.py", "GA103", 5)}
    # GA103 10 vs 12: placement; GA107 at 30 vs GA103 at 30: another check, not placement; b.py agrees
    assert compare_labels.near_misses(first, second, 3) == 1
    assert compare_labels.near_misses(first, second, 1) == 0


def test_the_comparison_runs_on_the_files_both_labelled(tmp_path, monkeypatch, capsys):
    corpus = tmp_path / "scripts_rX"
    corpus.mkdir()
    first = {"heldout/a.py": _item(("GA103", 4), ("GA104", 9)), "heldout/b.py": _item(clean=True),
             "heldout/c.py": _item(("GA106", 2))}
    second = {"heldout/a.py": _item(("GA103", 4)), "heldout/b.py": _item(("GA107", 3))}
    (corpus / "labels.json").write_text(json.dumps({"items": first}))
    (corpus / "second.json").write_text(json.dumps({"items": second}))
    monkeypatch.setattr(compare_labels, "HERE", tmp_path)
    monkeypatch.setattr(compare_labels.score_scripts, "CORPORA", ("scripts_rX",))
    assert compare_labels.main(["--corpus", "scripts_rX", "--second", "second.json", "--no-lint"]) == 0
    out = capsys.readouterr().out
    assert "files in both labellings: 2" in out  # c.py has no second labelling
    assert "recall 1/2 = 50.0%" in out and "precision 1/2 = 50.0%" in out


def test_no_file_in_both_labellings_is_an_error(tmp_path, monkeypatch):
    corpus = tmp_path / "scripts_rX"
    corpus.mkdir()
    (corpus / "labels.json").write_text(json.dumps({"items": {"dev/a.py": _item()}}))
    (corpus / "second.json").write_text(json.dumps({"items": {"heldout/z.py": _item()}}))
    monkeypatch.setattr(compare_labels, "HERE", tmp_path)
    monkeypatch.setattr(compare_labels.score_scripts, "CORPORA", ("scripts_rX",))
    assert compare_labels.main(["--corpus", "scripts_rX", "--half", "all", "--second", "second.json"]) == 2


def test_a_second_labelling_that_repeats_the_first_ones_words_is_flagged():
    first = {"a.py": {"findings": [{"id": "GA104", "line": 29, "why": "torch.randint timesteps made on the CPU every "
                                    "step, then .to(device)"}], "clean": False}}
    copied = {"a.py": {"findings": [{"id": "GA104", "line": 29, "why": "torch.randint timesteps made on the CPU every "
                                     "step, then .to(device)."}], "clean": False}}
    own = {"a.py": {"findings": [{"id": "GA104", "line": 29, "why": "randint drawn on host per iteration and moved "
                                  "to the GPU; could be drawn there"}], "clean": False}}
    assert compare_labels.echoes(first, copied, ["a.py"])[:2] == (1, 1)
    assert compare_labels.echoes(first, own, ["a.py"])[:2] == (0, 1)
