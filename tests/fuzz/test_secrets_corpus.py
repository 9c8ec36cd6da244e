"""A corpus of secrets and identifying strings, planted in every input a command reads, checked against every
output format of every command that shows user data (explain, compare, lint, env). Redaction is on by default:
none of them may appear in any output."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest
from fuzz_helpers import FIXTURES, H200_REPORT, REPO, cli

#: (where it is planted, the secret that must never be shown)
SECRETS = {
    "url_password": ("https://alice:hunter2pass@db.example.com/x", "hunter2pass"),
    "redis_password": ("redis://default:redispw77@cache:6379/0", "redispw77"),
    "home_with_space": ("/home/alice smith/proj/train.py", "alice smith"),
    "windows_profile": ("C:\\Users\\Bob Jones\\proj", "Bob Jones"),
    "fqdn": ("gpu7.lab.internal.example.com", "lab.internal.example.com"),
    "mac_letters": ("aa:bb:cc:dd:ee:ff", "aa:bb:cc:dd:ee:ff"),
    "ipv4": ("10.1.2.3", "10.1.2.3"),
    "hf_token": ("hf_abcdefghijklmnopqrstuvwxyz123456", "hf_abcdefghijklmnopqrstuvwxyz123456"),
    "github_token": ("ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    "email": ("jane.doe@example.org", "jane.doe@example.org"),
    "uuid": ("GPU-12345678-1234-1234-1234-123456789abc", "12345678-1234-1234-1234-123456789abc"),
    "serial": ("1652023004567", "1652023004567"),
}
SECRET_VALUES = [secret for _, secret in SECRETS.values()]
FORMATS = ["terminal", "markdown", "json"]


def assert_no_secret(text: str, where: str) -> None:
    leaked = [secret for secret in SECRET_VALUES if secret in text]
    assert not leaked, f"{where} leaked {leaked}"


@pytest.fixture(scope="module")
def secret_report(tmp_path_factory):
    document = copy.deepcopy(json.loads(H200_REPORT.read_text()))
    facts = document["facts"]
    facts["host"]["hostname"] = SECRETS["fqdn"][0]
    facts["host"]["os"] = f"Linux on {SECRETS['fqdn'][0]} ({SECRETS['mac_letters'][0]}, {SECRETS['ipv4'][0]})"
    facts["env"]["variables"].update({
        "TORCH_STORE_URL": SECRETS["redis_password"][0], "CUDA_HOME": SECRETS["windows_profile"][0],
        "TORCHINDUCTOR_CACHE_DIR": SECRETS["home_with_space"][0], "PYTORCH_HUB_URL": SECRETS["url_password"][0],
        "NCCL_DEBUG_FILE": f"{SECRETS['hf_token'][0]} {SECRETS['github_token'][0]} {SECRETS['email'][0]}",
    })
    gpu = facts["gpus"][0]
    gpu["uuid"], gpu["serial"] = SECRETS["uuid"][0], SECRETS["serial"][0]
    path = tmp_path_factory.mktemp("secrets") / "report.json"
    path.write_text(json.dumps(document))
    return path


@pytest.fixture(scope="module")
def secret_paste(tmp_path_factory):
    text = (FIXTURES / "collect_env" / "linux_h200_torch2.11_cu130.txt").read_text()
    # No host name field in collect_env: an unknown FQDN in free text cannot be told from a domain like
    # pytorch.org, so the FQDN is planted only where the report names its host (secret_report).
    text = text.replace("OS: Ubuntu 24.04.3 LTS", f"OS: Ubuntu 24.04.3 LTS {SECRETS['ipv4'][0]}")
    # package versions are versions ("10.1.2.3" is a version there): the rest of the corpus goes in as packages
    text += "\n" + "\n".join(f"[pip3] {name}=={value}" for name, (value, _) in SECRETS.items()
                            if name not in ("ipv4", "fqdn"))
    text += "\n"
    text += f"TORCHINDUCTOR_CACHE_DIR={SECRETS['home_with_space'][0]}\n"
    path = tmp_path_factory.mktemp("secrets") / "collect_env.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("source", ["report", "paste"])
def test_explain_shows_no_secret(capsys, secret_report, secret_paste, fmt, source):
    path = secret_report if source == "report" else secret_paste
    code, out, err = cli(capsys, "explain", path, "-f", fmt)
    assert code == 0, err
    assert_no_secret(out + err, f"explain {source} -f {fmt}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_explain_to_a_file_shows_no_secret(capsys, tmp_path, secret_report, fmt):
    out_file = tmp_path / f"out.{fmt}"
    code, _, err = cli(capsys, "explain", secret_report, "-f", fmt, "-o", out_file)
    assert code == 0, err
    assert_no_secret(out_file.read_text(), f"explain -o -f {fmt}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_compare_shows_no_secret(capsys, secret_report, secret_paste, fmt):
    code, out, err = cli(capsys, "compare", secret_report, secret_paste, "-f", fmt)
    assert code == 0, err
    assert_no_secret(out + err, f"compare -f {fmt}")


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_lint_shows_no_secret(capsys, tmp_path, fmt):
    folder = tmp_path / "home" / "alice smith" / "proj"
    folder.mkdir(parents=True)
    (folder / "train.py").write_text(
        "import torch\n"
        f"URL = '{SECRETS['url_password'][0]}'\nTOKEN = '{SECRETS['hf_token'][0]}'\n"
        "x = torch.zeros(3).cuda()\nfor i in range(3):\n    print(x.item(), URL, TOKEN)\n")
    (folder / "broken.ipynb").write_text("{not json " + SECRETS["github_token"][0])
    code, out, err = cli(capsys, "lint", folder, "-f", fmt)
    assert code == 1, err
    assert_no_secret(out + err, f"lint -f {fmt}")
    if fmt != "text":
        json.loads(out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_env_shows_no_secret(tmp_path, fmt):
    """The real probe on this machine, with secrets planted in allowlisted environment variables."""
    env = {"PYTHONPATH": str(REPO), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "TORCH_STORE_URL": SECRETS["redis_password"][0], "CUDA_HOME": SECRETS["windows_profile"][0],
           "TORCHINDUCTOR_CACHE_DIR": SECRETS["home_with_space"][0], "PYTORCH_HUB_URL": SECRETS["url_password"][0],
           "NCCL_DEBUG_FILE": f"{SECRETS['hf_token'][0]} {SECRETS['email'][0]} {SECRETS['ipv4'][0]}"}
    done = subprocess.run([sys.executable, "-m", "advisor", "env", "-f", fmt], capture_output=True, text=True,
                          timeout=180, cwd=REPO, env=env)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert_no_secret(done.stdout + done.stderr, f"env -f {fmt}")
