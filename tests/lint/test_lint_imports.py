"""House rules: the linter never imports torch, lint modules import only the standard library at module
level (bridge.py may add the report model), the CLI module imports only typer, and modules stay small."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import advisor.lint
from advisor.lint.checks import CHECK_MODULES

LINT = Path(advisor.lint.__file__).parent
CLI = LINT.parent / "cli" / "lint_cmd.py"


def _top_level_imports(path: Path) -> set[str]:
    modules = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def test_lint_modules_import_only_stdlib_and_the_lint_package():
    stdlib = sys.stdlib_module_names
    for path in LINT.rglob("*.py"):
        allowed = {"advisor", "advisor.lint"} | ({"advisor.models"} if path.name == "bridge.py" else set())
        for module in _top_level_imports(path):
            top = module.split(".")[0]
            assert top in stdlib or top == "__future__" or any(module == a or module.startswith(a + ".")
                                                               for a in allowed), (path.name, module)
            assert not module.startswith(("advisor.cli", "advisor.probe", "advisor.measure")), (path.name, module)


def test_cli_module_imports_only_typer():
    # advisor.cli.options: the options every command shares (typer only, and the one-line error class).
    assert _top_level_imports(CLI) - {"__future__", "typing", "pathlib"} <= {"typer", "advisor.cli.options"}


def test_linting_never_imports_torch_numpy_or_pydantic():
    code = ("import sys\nfrom advisor.lint import lint_paths\nfrom advisor.lint.formats import render_sarif\n"
            f"render_sarif(lint_paths([{str(LINT.parent.parent / 'tests' / 'lint_corpus')!r}]))\n"
            "bad = [m for m in ('torch', 'numpy', 'pydantic') if m in sys.modules]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=LINT.parent.parent)


def _lint_imports(path: Path) -> set[str]:
    """Every advisor.lint module ``path`` imports, wherever in the file (lazy imports count too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("advisor.lint"):
            for alias in node.names:  # `from advisor.lint import torch_api` imports the module torch_api
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if (LINT.parent.parent / (submodule.replace(".", "/") + ".py")).exists()
                          else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("advisor.lint"))
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(LINT.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_lint_imports_have_no_cycles_and_the_flow_analysis_never_imports_the_checks_side():
    modules = {_module_name(path): path for path in LINT.rglob("*.py")}
    graph = {name: {m for m in _lint_imports(path) if m in modules and m != name} for name, path in modules.items()}
    for name, imported in graph.items():
        if name.startswith("advisor.lint.flow"):
            assert not any(m.startswith(("advisor.lint.context", "advisor.lint.checks", "advisor.lint.runner"))
                           for m in imported), (name, imported)
    done: set[str] = set()

    def visit(name: str, path: tuple) -> None:
        assert name not in path, " -> ".join(path + (name,))
        if name in done:
            return
        for imported in graph[name]:
            if not name.startswith(imported + "."):  # a package's __init__ runs before its modules anyway
                visit(imported, path + (name,))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_modules_stay_small():
    for path in list(LINT.rglob("*.py")) + [CLI]:
        assert len(path.read_text().splitlines()) <= 400, path


def test_checks_have_stable_unique_ids_and_documented_examples():
    ids = [module.INFO.id for module in CHECK_MODULES]
    assert ids == [f"GA1{n:02d}" for n in range(1, len(ids) + 1)]
    names = [module.INFO.name for module in CHECK_MODULES]
    assert len(set(names)) == len(names)
    for module in CHECK_MODULES:
        info = module.INFO
        assert "Must match" in module.__doc__ and "Must not" in module.__doc__, info.id
        assert info.severity in ("info", "low", "medium", "high") and info.confidence in ("inferred", "heuristic")
        assert info.cost and info.fix and info.name == info.name.lower()
