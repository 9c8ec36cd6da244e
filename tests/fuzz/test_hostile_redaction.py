"""Redaction leaks found by the fuzzing campaign, one case each (the corpus test covers every output)."""

from __future__ import annotations

import pytest

from advisor.redact import Redactor, redact_lint_output


@pytest.mark.parametrize("text, secret", [
    ("DATABASE=https://alice:hunter2@db.example.com/x", "hunter2"),
    ("REDIS_URL=redis://default:s3cretpw@cache:6379/0", "s3cretpw"),
    ("postgres://bob:pa55@10.0.0.5/db", "pa55"),
    ("/home/alice smith/project/train.py", "alice smith"),
    ("/Users/Jane Q Doe/code/x.py", "Jane Q Doe"),
    (r"C:\Users\Alice Smith\proj\train.py", "Alice Smith"),
    (r"C:\\Users\\Alice Smith\\proj\\train.py", "Alice Smith"),
    (r"C:\Documents and Settings\carol\x.py", "carol"),
    ("link aa:bb:cc:dd:ee:ff up", "aa:bb:cc:dd:ee:ff"),
])
def test_secret_is_gone(text, secret):
    assert secret not in Redactor().text(text)


def test_fully_qualified_host_name_is_redacted_whole():
    redactor = Redactor(["gpu7.lab.example.com", "gpu7"])
    out = redactor.text("running on gpu7.lab.example.com, short name gpu7")
    assert "lab.example.com" not in out and "gpu7" not in out


def test_a_name_with_a_space_is_remembered_for_later_mentions():
    redactor = Redactor()
    redactor.text("/home/alice smith/x.py")
    assert "alice smith" not in redactor.text("owner: alice smith")


def test_home_path_patterns_stay_linear():
    import time

    started = time.perf_counter()
    Redactor().text("/home/" + "a " * 500_000 + "\n" + "C:\\Users\\" + "b " * 500_000)
    assert time.perf_counter() - started < 5


def test_lint_json_and_sarif_are_redacted():
    import json

    document = json.dumps({"path": "/home/alice smith/train.py", "uri": "file:///home/alice%20smith/train.py",
                           "message": "token hf_abcdefghijklmnopqrstuvwxyz12 used"})
    out = redact_lint_output(document)
    assert "alice" not in out and "hf_abcdef" not in out
    json.loads(out)  # still JSON
