"""The reviewed lemma library: candidates from a real (replayed) check, promotion, pins."""

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.errors import InputError
from paperlint.learning.library import (
    Library,
    LibraryEntry,
    LibraryPins,
    Provenance,
    candidates_of,
    module_of,
    read_candidates,
    status_of,
)

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
PINS = LibraryPins(toolchain="leanprover/lean4:v4.35.0", mathlib="v4.35.0")
HELPER = "lem_mean_max_s1"


def _results(lean_name="t_main", verdict="verified_unconditional"):
    return {
        "results": [
            {
                "id": "thm:t",
                "verdict": verdict,
                "evidence": {"lean_file": "lean/T.lean", "lean_name": lean_name},
            }
        ]
    }


def _candidates(text, **kw):
    return candidates_of(
        results=_results(**kw), paper_sha256="0" * 64, workspace="/ws", files={"lean/T.lean": text}
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a self-contained helper before the main theorem
        (
            "theorem helper (a : ℕ) : a ≤ a + 1 := Nat.le_succ a\n"
            "theorem t_main : True := trivial\n",
            {"helper": None},
        ),
        # a helper about the paper's own definition is no general fact
        (
            "def paperMean (a b : ℝ) : ℝ := (a + b) / 2\n"
            "theorem helper (a : ℝ) : paperMean a a = a := by unfold paperMean; ring\n"
            "theorem t_main : True := trivial\n",
            {"helper": "uses the paper's own declarations: paperMean"},
        ),
        # hygiene: a helper closed by native_decide is refused
        (
            "theorem helper : 2 + 2 = 4 := by native_decide\ntheorem t_main : True := trivial\n",
            {"helper": "refused by the hygiene rules"},
        ),
        # the main theorem, definitions and examples are never candidates
        ("def d : ℕ := 1\nexample : True := trivial\ntheorem t_main : True := trivial\n", {}),
    ],
)
def test_candidates_case_table(text, expected):
    got = {c.name: c.refused for c in _candidates(text)}
    assert set(got) == set(expected)
    for name, reason in expected.items():
        if reason is None:
            assert got[name] is None
        else:
            assert got[name] is not None and got[name].startswith(reason), got[name]


def test_unverified_results_give_no_candidates():
    text = "theorem helper : True := trivial\ntheorem t_main : True := trivial\n"
    assert _candidates(text, verdict="issue") == []
    assert _candidates(text, verdict=None) == []


def test_candidates_of_the_example(example_workspace):
    [cand] = read_candidates(example_workspace)
    assert (cand.name, cand.provenance.result, cand.refused) == (HELPER, "lem:mean-max", None)
    assert cand.text.startswith("open Real Finset BigOperators\ntheorem lem_mean_max_s1")


def test_a_tampered_lean_file_gives_no_candidates(example_workspace, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(example_workspace, ws)
    lean = ws / "lean" / "Paper" / "Lem_mean_max.lean"
    lean.write_text(lean.read_text() + "\n-- edited after the verdict\n")
    assert read_candidates(ws) == []


def test_promote_writes_the_package_and_remove_takes_it_out(example_workspace, tmp_path):
    lib = Library(tmp_path / "lib")
    [cand] = read_candidates(example_workspace)
    entry = lib.promote(cand, pins=PINS, now=NOW)
    assert (entry.name, entry.module) == (f"PaperlintLib.{HELPER}", "PaperlintLib.LemMeanMaxS1")
    module = lib.module_text(entry)
    assert module.startswith("import Mathlib\n")
    assert "namespace PaperlintLib\n" in module and module.endswith("end PaperlintLib\n")
    assert "promoted into the paperlint library on 2026-12-01".lower() in module.lower()
    assert (lib.root / "PaperlintLib.lean").read_text() == "import PaperlintLib.LemMeanMaxS1\n"
    assert 'rev = "v4.35.0"' in (lib.root / "lakefile.toml").read_text()
    assert (lib.root / "lean-toolchain").read_text() == "leanprover/lean4:v4.35.0\n"
    assert lib.find(HELPER) == entry == lib.find(f"PaperlintLib.{HELPER}")
    with pytest.raises(InputError, match="already in the library"):
        lib.promote(cand, pins=PINS, now=NOW)
    assert lib.remove(HELPER) == entry
    assert lib.manifest().entries == []
    assert (lib.root / "PaperlintLib.lean").read_text() == ""
    with pytest.raises(InputError, match="not in the library"):
        lib.remove(HELPER)


def test_a_refused_candidate_cannot_be_promoted(tmp_path):
    [cand] = _candidates(
        "theorem helper : 2 + 2 = 4 := by native_decide\ntheorem t_main : True := trivial\n"
    )
    with pytest.raises(InputError, match="cannot be promoted"):
        Library(tmp_path).promote(cand, pins=PINS, now=NOW)


def _entry(pins, built=None):
    prov = Provenance(paper_sha256="0" * 64, workspace="/ws", result="r", lean_file="f")
    return LibraryEntry(
        name="PaperlintLib.x",
        module="PaperlintLib.X",
        text_sha256="0",
        provenance=prov,
        promoted_at="2026-12-01T00:00:00+00:00",
        pins=pins,
        built_pins=built,
    )


NEW = LibraryPins(toolchain="leanprover/lean4:v4.36.0", mathlib="v4.36.0")


@pytest.mark.parametrize(
    ("entry", "current", "status"),
    [
        (_entry(PINS), PINS, "unbuilt"),
        (_entry(PINS, built=PINS), PINS, "built"),
        (_entry(PINS, built=PINS), NEW, "needs_reverification"),  # the pins moved on
        (_entry(PINS), NEW, "needs_reverification"),  # promoted under other pins, never built
        (_entry(PINS, built=NEW), NEW, "built"),  # rebuilt under the new pins
    ],
)
def test_status_follows_the_pins(entry, current, status):
    assert status_of(entry, current) == status


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("lem_mean_max_s1", "PaperlintLib.LemMeanMaxS1"),
        ("Foo.bar'", "PaperlintLib.FooBar"),
        ("2x", "PaperlintLib.L2x"),
        ("«»", "PaperlintLib.Lemma"),
    ],
)
def test_module_names(name, module):
    assert module_of(name) == module


def _project(tmp_path, toolchain, rev):
    project = tmp_path / f"project-{rev}"
    shutil.copytree(ROOT / "lean-project", project)
    (project / "lean-toolchain").write_text(toolchain + "\n")
    text = (project / "lakefile.toml").read_text().replace('rev = "v4.35.0"', f'rev = "{rev}"')
    (project / "lakefile.toml").write_text(text)
    return project


def test_cli_promotion_is_a_persons_step_and_a_pin_change_shows(
    example_workspace, tmp_path, monkeypatch, capsys
):
    assert run(["library", "candidates", str(example_workspace)]) == 0
    assert f"{HELPER} (from lem:mean-max): can be promoted" in capsys.readouterr().out
    # no terminal, no --yes: refused, nothing written
    assert run(["library", "promote", str(example_workspace), HELPER]) == 2
    assert "confirmation" in capsys.readouterr().err
    assert run(["library", "promote", str(example_workspace), "nope", "--yes"]) == 2
    capsys.readouterr()
    assert run(["library", "promote", str(example_workspace), HELPER, "--yes"]) == 0
    assert "unbuilt until the library is built" in capsys.readouterr().out
    assert run(["library", "show", HELPER]) == 0
    assert "theorem lem_mean_max_s1" in capsys.readouterr().out
    assert run(["library", "list", "--format", "json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["entries"]
    assert row["status"] == "unbuilt"
    # the pinned project moves to a new toolchain and Mathlib: the lemma must be re-verified
    monkeypatch.setenv(
        "PAPERLINT_LEAN_PROJECT", str(_project(tmp_path, "leanprover/lean4:v4.36.0", "v4.36.0"))
    )
    assert run(["library", "list"]) == 0
    assert "needs_reverification" in capsys.readouterr().out
    assert run(["library", "remove", HELPER]) == 0
    assert run(["library", "show", HELPER]) == 2
