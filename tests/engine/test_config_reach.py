"""The config is read in a few places only: the CLI (which loads it), the config module itself,
the run spec and the opening of a run (which derive everything the engine reads from it), and
the model client (endpoints, retries, prices per role). Everything else is handed typed
settings, so a default is stated once and a new setting has one way in (issue #27)."""

import ast
from pathlib import Path

from paperlint.config import Config

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = [ROOT / "paperlint", *(ROOT / name for name in ("preflight", "blueprint", "reports"))]
READERS = {
    "paperlint/config.py",
    "paperlint/spec.py",
    "paperlint/engine/opening.py",
    "paperlint/agents/client.py",
    "paperlint/agents/runner.py",
    # `paperlint replay` takes Lean from the user's own config, never the workspace's (a
    # command of its own, not on the way of a check).
    "paperlint/validate/replay.py",
}
SECTIONS = {*Config.model_fields, "role_settings", "with_overrides"}


def _reader(rel: str) -> bool:
    return rel in READERS or rel.startswith("paperlint/cli/")


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """Imports under `if TYPE_CHECKING:` (annotations: a Config passed through, not read)."""
    guarded: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded.update(n for child in node.body for n in ast.walk(child))
    return guarded


def _is_config(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "config") or (
        isinstance(node, ast.Attribute) and node.attr == "config"
    )


def touches(source: str) -> list[str]:
    """Where `source` imports the config module at run time or reads a section of a config."""
    tree = ast.parse(source)
    guarded = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if node in guarded:
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "paperlint.config":
            found.append(f"line {node.lineno}: imports paperlint.config")
        elif isinstance(node, ast.ImportFrom) and node.module == "paperlint":
            if any(alias.name == "config" for alias in node.names):
                found.append(f"line {node.lineno}: imports paperlint.config")
        elif isinstance(node, ast.Import) and any(a.name == "paperlint.config" for a in node.names):
            found.append(f"line {node.lineno}: imports paperlint.config")
        elif isinstance(node, ast.Attribute) and node.attr in SECTIONS and _is_config(node.value):
            found.append(f"line {node.lineno}: reads {ast.unparse(node)}")
    return found


def test_only_the_cli_the_spec_the_opening_and_the_model_client_read_the_config():
    found = {}
    for root in PRODUCT:
        for path in root.rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if not _reader(rel) and (where := touches(path.read_text(encoding="utf-8"))):
                found[rel] = where
    assert found == {}


def test_the_check_finds_a_read_and_an_import_and_lets_a_pass_through_be():
    assert touches("def f(spec):\n    return spec.config.lean.timeout_s\n") == [
        "line 2: reads spec.config.lean"
    ]
    assert touches("def f(config):\n    return config.budget\n") == ["line 2: reads config.budget"]
    assert touches("from paperlint.config import Config\n") == ["line 1: imports paperlint.config"]
    passed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
    passed += "    from paperlint.config import Config\ndef f(r):\n    return g(r.config)\n"
    assert touches(passed) == []
    # the readers do read it (the list is not stale)
    assert touches((ROOT / "paperlint" / "engine" / "opening.py").read_text())
    assert touches((ROOT / "paperlint" / "agents" / "runner.py").read_text())
