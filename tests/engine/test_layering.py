"""The packages under the engine form no import cycle, and each domain fact has one home."""

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "paperlint"
LAYERED = ("engine", "validate", "records", "agents", "lean")


def _edges() -> set[tuple[str, str]]:
    edges = set()
    for path in PACKAGE.rglob("*.py"):
        top = path.relative_to(PACKAGE).parts[0]
        if top not in LAYERED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                inner = parts[1] if parts[0] == "paperlint" and len(parts) > 1 else None
                if inner in LAYERED and inner != top:
                    edges.add((top, inner))
    return edges


def _reachable(edges: set[tuple[str, str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        here = stack.pop()
        for a, b in edges:
            if a == here and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen


def test_no_import_cycle_between_engine_validate_records_agents_lean():
    edges = _edges()
    assert ("engine", "validate") in edges  # the one direction that exists: the vacuity probe
    cycles = [p for p in LAYERED if p in _reachable(edges, p)]
    assert cycles == [], sorted(edges)


def test_validate_never_imports_the_engine():
    assert ("validate", "engine") not in _edges()


def test_records_never_import_the_agents():
    # The answers kept in the working state are records (paperlint/records/outputs.py); the
    # agent layer imports them, never the other way round.
    edges = _edges()
    assert ("records", "agents") not in edges
    assert ("agents", "records") in edges


def test_guard_imports_the_refusal_scan_statically():
    text = (PACKAGE / "lean" / "guard.py").read_text(encoding="utf-8")
    assert "from paperlint.lean.hygiene import refusal_findings" in text
    assert "import_module" not in text


def _assignments(pattern: str) -> list[str]:
    """Files that bind a module-level name matching `pattern` to a literal set/tuple/enum."""
    found = []
    roots = [PACKAGE, *(PACKAGE.parent / name for name in ("blueprint", "preflight", "reports"))]
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
# prover/strategy.py's `StrategyOutcome`, faithful/model.py's `LadderRung`). Private helpers
# (`_Record`, …) are local by name and not counted.
KNOWN_DUPLICATE_CLASSES: dict[str, int] = {}


def _class_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    roots = [PACKAGE, *(PACKAGE.parent / name for name in ("blueprint", "preflight", "reports"))]
    for path in [p for root in roots for p in root.rglob("*.py")]:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                counts[node.name] = counts.get(node.name, 0) + 1
    return counts


def test_no_class_name_is_defined_twice_beyond_the_known_list():
    twice = {name: n for name, n in _class_counts().items() if n > 1}
    assert twice == KNOWN_DUPLICATE_CLASSES
