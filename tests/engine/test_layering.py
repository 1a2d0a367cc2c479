"""Every package of the product has a place in one order of layers, imports only below itself
(so there is no cycle), and each domain fact has one home."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "paperlint"
MAPPED = ("preflight", "blueprint", "reports")  # installed as paperlint.preflight etc.

LAYERS = (
    # the ground: nothing of ours below it
    "__init__",  # the version
    "errors",
    "domain",
    "diagnostics",
    "exitcodes",
    "project",
    "secrets",  # API keys, masked by value wherever text is written
    "store",  # atomic writes, the lock, the event log
    "digraph",  # the dependency graph's data structure (blueprint and report)
    "usercache",  # ~/.cache/paperlint: compiled templates, nothing of a paper
    # which config files exist, and which folders are a check's workspace (no pydantic:
    # preflight's start-up; its main-file search passes over a workspace's copy of the paper)
    "configfiles",
    # the paper, read
    "preflight",
    "blueprint",
    "config",
    # the records and the Lean edge's own types below them
    "lean",
    "records",
    "spec",
    # the model edge, and what uses the two edges
    "agents",
    "prover",
    "faithful",
    "learning",
    "validate",
    "reports",
    # the state machine, and what drives it
    "engine",
    "revise",
    "mcp",
    "cli",
    "__main__",
)
# `reports` reads records only (design: it never calls a model or Lean); `lean.pins` only says
# where paperlint's own files are, so a path in a message can be shown relative to them.
REPORTS_READ = {
    "diagnostics",
    "__init__",
    "records",
    "spec",
    "store",
    "preflight",
    "blueprint",
    "domain",
    "errors",
    "project",
    "digraph",
    "usercache",
}
REPORTS_ALSO = {"paperlint.lean.pins"}


def _unit(path: Path) -> str:
    for name in MAPPED:
        if path.is_relative_to(ROOT / name):
            return name
    parts = path.relative_to(PACKAGE).parts
    return parts[0].removesuffix(".py")


def _imports(path: Path) -> list[str]:
    """Every module of ours `path` imports (lazily inside functions too), as `paperlint.x.y`."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            if node.module == "paperlint":
                names.extend(f"paperlint.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return [n for n in names if n.startswith("paperlint.")]


def _target(module: str, units: set[str]) -> str | None:
    first = module.split(".")[1]
    return first if first in units else "__init__" if module.count(".") == 1 else None


def _files() -> list[Path]:
    return [*PACKAGE.rglob("*.py"), *(p for name in MAPPED for p in (ROOT / name).rglob("*.py"))]


def _edges() -> dict[tuple[str, str], set[str]]:
    units = {_unit(p) for p in _files()}
    edges: dict[tuple[str, str], set[str]] = {}
    for path in _files():
        source = _unit(path)
        for module in _imports(path):
            target = _target(module, units)
            if target is not None and target != source:
                edges.setdefault((source, target), set()).add(module)
    return edges


def test_every_package_has_a_layer():
    units = {_unit(p) for p in _files()}
    assert units == set(LAYERS), (sorted(units - set(LAYERS)), sorted(set(LAYERS) - units))


def test_every_import_points_down_so_no_package_is_in_a_cycle():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = {
        f"{a} -> {b}": sorted(modules) for (a, b), modules in _edges().items() if rank[b] >= rank[a]
    }
    assert upward == {}


def test_reports_read_records_only():
    found = {
        module
        for (source, target), modules in _edges().items()
        if source == "reports" and target not in REPORTS_READ
        for module in modules
    }
    assert found <= REPORTS_ALSO, sorted(found - REPORTS_ALSO)


def test_validate_never_imports_the_engine():
    assert ("validate", "engine") not in _edges()


def test_records_never_import_the_agents():
    # The answers kept in the working state are records (paperlint/records/outputs.py); the
    # agent layer imports them, never the other way round.
    edges = _edges()
    assert ("records", "agents") not in edges
    assert ("agents", "records") in edges


def test_lean_setup_builds_the_index_without_the_prover():
    imported = _imports(PACKAGE / "lean" / "setup.py")
    assert not [m for m in imported if m.startswith("paperlint.prover")], imported


def test_guard_imports_the_refusal_scan_statically():
    text = (PACKAGE / "lean" / "guard.py").read_text(encoding="utf-8")
    assert "from paperlint.lean.hygiene import refusal_findings" in text
    assert "import_module" not in text


def _assignments(pattern: str) -> list[str]:
    """Files that bind a module-level name matching `pattern` to a literal set/tuple/enum."""
    found = []
    roots = [PACKAGE, *(ROOT / name for name in MAPPED)]
    for path in [p for root in roots for p in root.rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if re.search(pattern, text, flags=re.MULTILINE):
            found.append(path.name)
    return found


def test_each_domain_fact_is_defined_once():
    facts = {
        "standard axioms": r'"Classical\.choice"',
        "verdict-bearing kinds": r'"corollary", "claim"',
        "input kinds": r'\{"definition", "assumption"\}',
        "issue classes": r'"PAPER_ASSUMPTION_GAP"',
        "condition kinds": r'"missing_from_mathlib"',
        "roles": r'^\s+ISSUE_CHECKER = "issue_checker"',
        "report formats": r'= "sarif"$|"sarif",',  # the enum member, or a tuple of names
    }
    for fact, pattern in facts.items():
        assert _assignments(pattern) == ["domain.py"], (fact, _assignments(pattern))


# Public class names defined twice across the product, still to be unified or renamed (issue
# #18); the list may only shrink. Of the eight the issue named, `Declaration`, `Check`,
# `Outcome`, `FailedAttempt` (the record's is now `FailedProof`) and `FidelityFields`/
# `FidelityHints` are defined once; `BibEntry`/`Macro` are preflight's (the prompt inputs are
# `BibliographyItem`/`MacroDefinition`), `Finding` the validator's (the audit's is
# `LeanFinding`), and a full scan's other pairs were renamed after what they hold (the last two:
# prover/strategy.py's `StrategyOutcome`, records/faithfulness.py's `LadderRung`). Private helpers
# (`_Record`, …) are local by name and not counted.
KNOWN_DUPLICATE_CLASSES: dict[str, int] = {}


def _class_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    roots = [PACKAGE, *(ROOT / name for name in MAPPED)]
    for path in [p for root in roots for p in root.rglob("*.py")]:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                counts[node.name] = counts.get(node.name, 0) + 1
    return counts


def test_no_class_name_is_defined_twice_beyond_the_known_list():
    twice = {name: n for name, n in _class_counts().items() if n > 1}
    assert twice == KNOWN_DUPLICATE_CLASSES


def test_each_audit_record_schema_is_stated_once():
    # Writers, the engine state's reader and `validate` name them by records/audits.py.
    from paperlint.records import audits

    schemas = [v for k, v in vars(audits).items() if k.isupper() and isinstance(v, str)]
    assert len(schemas) >= 6  # gate, ruling, review, final audit, vacuity, restatement
    for schema in schemas:
        assert _assignments(re.escape(f'"{schema}"')) == ["audits.py"], schema
