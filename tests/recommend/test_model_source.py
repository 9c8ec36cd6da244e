"""Import paths, factories, demos and torchvision names: every failure is one readable line."""

from __future__ import annotations

import sys
import textwrap

import pytest

from advisor.recommend.model_source import ModelSourceError, load_model

MODULE = textwrap.dedent('''
    import torch
    from torch import nn

    instance = nn.Linear(4, 2)

    def factory():
        return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)
        def forward(self, x):
            return self.fc(x)

    def broken():
        raise RuntimeError("weights file missing")

    def not_a_module():
        return {"fc": 1}

    number = 3

    class Holder:
        model = nn.Linear(3, 3)
''')


@pytest.fixture
def user_package(tmp_path, monkeypatch):
    (tmp_path / "usernets.py").write_text(MODULE)
    (tmp_path / "raises_on_import.py").write_text("raise ValueError('config not found')\n")
    (tmp_path / "needs_missing_dep.py").write_text("import definitely_not_installed_xyz\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("usernets", "raises_on_import", "needs_missing_dep"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize("spec, kind", [("usernets:instance", "Linear"), ("usernets:factory", "Sequential"),
                                        ("usernets:Net", "Net"), ("usernets:Holder.model", "Linear")])
def test_instances_factories_and_classes(user_package, spec, kind):
    loaded = load_model(spec)
    assert type(loaded.model).__name__ == kind
    assert loaded.label == spec and loaded.default_input_shape is None


@pytest.mark.parametrize("spec, words", [
    ("nosuchpkg_xyz.models:build", "no module named 'nosuchpkg_xyz'"),
    ("raises_on_import:model", "raised ValueError: config not found"),
    ("needs_missing_dep:model", "importing 'needs_missing_dep' failed: ModuleNotFoundError"),
    ("usernets:nothing_here", "has no attribute 'nothing_here'"),
    ("usernets:broken", "calling the factory raised RuntimeError: weights file missing"),
    ("usernets:not_a_module", "the factory returned a dict, not a torch.nn.Module"),
    ("usernets:number", "is a int, not a torch.nn.Module or a factory"),
    ("usernets:", "expected pkg.module:attribute"),
    ("", "--model is empty"),
])
def test_every_failure_is_one_line(user_package, spec, words):
    with pytest.raises(ModelSourceError) as caught:
        load_model(spec)
    message = str(caught.value)
    assert words in message and "\n" not in message


@pytest.mark.parametrize("name, shape, dtype", [("mlp", (1024,), "float32"), ("demo:cnn", (3, 64, 64), "float32"),
                                                ("transformer", (512,), "int64")])
def test_demos_run_forward_on_cpu(name, shape, dtype):
    import torch

    loaded = load_model(name)
    assert loaded.default_input_shape == shape and loaded.default_input_dtype == dtype
    x = torch.randint(0, 100, (2, *shape)) if dtype == "int64" else torch.randn(2, *shape)
    with torch.no_grad():
        out = loaded.model.eval()(x)
    assert out.shape[0] == 2


def test_unknown_name_without_torchvision_says_what_was_tried():
    try:
        import torchvision  # noqa: F401
    except ImportError:
        with pytest.raises(ModelSourceError, match="torchvision is not installed; 'resnet50' is not a demo"):
            load_model("resnet50")
    else:
        with pytest.raises(ModelSourceError, match="not a torchvision model"):
            load_model("no_such_net_xyz")


def test_a_file_path_and_factory_loads_like_a_module(tmp_path, monkeypatch):
    from advisor.recommend.model_source import load_model

    folder = tmp_path / "project" / "nets"
    folder.mkdir(parents=True)
    (folder / "layers.py").write_text("import torch\nWIDTH = 8\n")
    (folder / "my-model.py").write_text(
        "import torch\nfrom layers import WIDTH\n\ndef build():\n    return torch.nn.Linear(WIDTH, 2)\n\n"
        "if __name__ == '__main__':\n    raise SystemExit('must not run')\n")
    monkeypatch.chdir(tmp_path)
    loaded = load_model("project/nets/my-model.py:build")
    assert loaded.model.in_features == 8
    assert load_model(f"{folder / 'my-model.py'}:build").model.out_features == 2


@pytest.mark.parametrize("spec, words", [
    ("no/such/file.py:build", "no such file 'no/such/file.py'"),
    ("no_such_pkg_xyz.nets:build", "pip install no_such_pkg_xyz"),
])
def test_a_missing_file_or_module_says_what_to_do(spec, words):
    from advisor.recommend.model_source import ModelSourceError, load_model

    with pytest.raises(ModelSourceError) as error:
        load_model(spec)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_module_whose_dependency_is_not_installed_says_to_install_it(tmp_path, monkeypatch):
    from advisor.recommend.model_source import ModelSourceError, load_model

    (tmp_path / "needs_dep.py").write_text("import not_installed_dep_xyz\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModelSourceError) as error:
        load_model("needs_dep:build")
    assert "pip install not_installed_dep_xyz" in str(error.value)
