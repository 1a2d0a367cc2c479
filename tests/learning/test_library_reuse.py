"""Issue #19, replayed: a lemma proved in one example check, promoted by a person, is used by the
prover in a check of a different paper (fewer model calls), cited in the report, and no longer
offered once the pins change. All Lean answers are hand-written (fixtures/library-reuse/README.md).
"""

import json
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.learning.library import PACKAGE, Library, library_dir
from paperlint.learning.offer import inline_declaration, library_rungs, take_offer
from paperlint.learning.runrecord import RunEntry, latest, read_entries
from paperlint.learning.userdata import ENV_VAR
from paperlint.records.learning import OFFERED_FILE, OfferedLemma, read_offer

ROOT = Path(__file__).resolve().parents[2]
REUSE = ROOT / "fixtures" / "library-reuse"
LEMMA = f"{PACKAGE}.lem_mean_max_s1"


def _check(work: Path, replay: Path = REUSE / "replay") -> int:
    return run(
        [
            "check",
            str(REUSE / "paper.tex"),
            "--replay",
            str(replay),
            "--workdir",
            str(work),
            "--fresh",
        ]
    )


def _check_configured(tmp_path: Path, toml: str) -> Path:
    """Check a copy of the paper beside a paperlint.toml holding `toml`; the workspace."""
    (tmp_path / "paper").mkdir()
    paper = tmp_path / "paper" / "paper.tex"
    paper.write_text((REUSE / "paper.tex").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "paper" / "paperlint.toml").write_text(toml, encoding="utf-8")
    work = tmp_path / "ws"
    args = ["check", str(paper), "--replay", str(REUSE / "replay"), "--workdir", str(work)]
    assert run(args) == 0
    return work


def _calls(work: Path) -> dict[str, int]:
    calls: dict[str, int] = {}
    for line in (work / "events.jsonl").read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("type") == "model_call":
            calls[event["role"]] = calls.get(event["role"], 0) + 1
    return calls


def _verdict(work: Path) -> str:
    results = json.loads((work / "results.json").read_text(encoding="utf-8"))
    return str(results["results"][0]["verdict"])


def _promote(example_workspace: Path) -> None:
    code = run(["library", "promote", str(example_workspace), "lem_mean_max_s1", "--yes"])
    assert code == 0


def test_without_a_library_the_prover_is_asked(tmp_path):
    work = tmp_path / "ws"
    assert _check(work) == 0
    assert _verdict(work) == "verified_unconditional"
    assert _calls(work) == {"architect": 1, "drafter": 1, "gate": 1, "prover": 1, "auditor": 1}
    assert read_offer(work).lemmas == ()


def test_a_promoted_lemma_closes_the_second_papers_lemma_with_no_prover_call(
    example_workspace, tmp_path, capsys
):
    _promote(example_workspace)
    work = tmp_path / "ws"
    assert _check(work) == 0
    assert _verdict(work) == "verified_unconditional"
    calls = _calls(work)
    assert "prover" not in calls and sum(calls.values()) == 4  # one fewer than without
    offered = read_offer(work)
    assert [m.name for m in offered.lemmas] == [LEMMA]
    # The accepted file carries the lemma in full: Lean checks it again there; no import.
    lean = (work / "lean" / "Paper" / "Lem_sum_max.lean").read_text(encoding="utf-8")
    assert f"theorem {LEMMA} (a b : ℝ) : a + b ≤ 2 * max a b := by" in lean
    assert f"apply {LEMMA} <;> assumption" in lean
    assert "import PaperlintLib" not in lean
    report = (work / "report" / "report.md").read_text(encoding="utf-8")
    assert "proved in the library, promoted on" in report
    assert "from result lem:mean-max" in report
    capsys.readouterr()
    assert run(["validate", str(work)]) == 0


def test_a_pin_change_stops_the_offer_until_the_library_is_rebuilt(
    example_workspace, data_dir, tmp_path, capsys
):
    _promote(example_workspace)
    library = Library(library_dir(data_dir))
    manifest = json.loads(library.manifest_path.read_text(encoding="utf-8"))
    manifest["entries"][0]["pins"]["toolchain"] = "leanprover/lean4:v4.34.0"
    library.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    capsys.readouterr()
    assert run(["library", "list"]) == 0
    assert "needs_reverification" in capsys.readouterr().out
    work = tmp_path / "ws"
    assert _check(work) == 0
    offered = read_offer(work)
    assert offered.lemmas == ()
    assert offered.skipped == (f"{LEMMA}: its pins changed; build the library again",)
    assert _calls(work).get("prover") == 1


def test_a_module_edited_after_promotion_is_not_offered(example_workspace, data_dir):
    _promote(example_workspace)
    library = Library(library_dir(data_dir))
    entry = library.manifest().entries[0]
    module = library.root / (entry.module.replace(".", "/") + ".lean")
    module.write_text(module.read_text().replace("linarith", "sorry"), encoding="utf-8")
    from paperlint.learning.library import current_pins

    offered = take_offer(library, current_pins())
    assert offered.lemmas == ()
    assert "changed since it was promoted" in offered.skipped[0]


def test_resume_uses_the_workspaces_copy_not_the_live_library(
    example_workspace, data_dir, tmp_path
):
    _promote(example_workspace)
    work = tmp_path / "ws"
    code = run(
        [
            "check",
            str(REUSE / "paper.tex"),
            "--replay",
            str(REUSE / "replay"),
            "--workdir",
            str(work),
            "--until",
            "gated",
        ]
    )
    assert code == 4
    Library(library_dir(data_dir)).remove(LEMMA)  # gone from the library after the start
    assert run(["resume", str(work)]) == 0
    assert "prover" not in _calls(work)
    assert (work / OFFERED_FILE).is_file()


def test_a_replayed_check_appends_nothing_to_the_run_record(data_dir, tmp_path):
    """A replay tried nothing (#28): the user's record learns only from live trials
    (tests/learning/test_runrecord.py records a live check's)."""
    work = tmp_path / "ws"
    assert _check(work) == 0
    assert run(["resume", str(work)]) == 0
    assert read_entries(data_dir).entries == []


def test_no_run_record_when_the_config_says_so(data_dir, tmp_path):
    _check_configured(tmp_path, "[learning]\nrecord_runs = false\n")
    assert read_entries(data_dir).entries == []


def _entry(at: str, outcome: str) -> RunEntry:
    return RunEntry.model_validate(
        {
            "at": at,
            "paper_sha256": "p",
            "result": "r",
            "result_kind": "lemma",
            "features": {},
            "outcome": outcome,
        }
    )


def test_latest_keeps_one_entry_per_result_of_each_check():
    entries = [_entry("t1", "unfinished"), _entry("t1", "verified"), _entry("t2", "issue")]
    assert [(e.at, e.outcome) for e in latest(entries)] == [("t1", "verified"), ("t2", "issue")]


MODULE = """import Mathlib

namespace PaperlintLib

open Real Finset in
open Nat

theorem helper (a b : ℝ) : a ≤ max a b := by
  exact le_max_left a b

end PaperlintLib
"""


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "PaperlintLib.helper",
            "open Nat in\ntheorem PaperlintLib.helper (a b : ℝ) : a ≤ max a b := by\n"
            "  exact le_max_left a b",
        ),
        ("PaperlintLib.absent", None),
    ],
)
def test_inline_declaration(name, expected):
    got = inline_declaration(MODULE, name)
    assert (got[0] if got else None) == expected


def _offered(name: str, statement: str) -> OfferedLemma:
    return OfferedLemma.model_validate(
        {
            "name": name,
            "text": f"theorem {name} {statement} := by\n  simp",
            "statement": statement,
            "text_sha256": "0" * 64,
            "promoted_at": "2026-12-01T00:00:00+00:00",
            "provenance": {
                "paper_sha256": "p",
                "workspace": "w",
                "result": "r",
                "lean_file": "f",
            },
        }
    )


def test_library_rungs_rank_by_the_statement_and_declare_a_lemma_once():
    lemmas = [
        _offered("PaperlintLib.max_bound", "(a b : ℝ) : a + b ≤ 2 * max a b"),
        _offered("PaperlintLib.card_pos", "(s : Finset ℕ) (h : s.Nonempty) : 0 < s.card"),
    ]
    skeleton = "theorem t (x y : ℝ) : x + y ≤ 2 * max x y := by\n  sorry"
    rungs = library_rungs(lemmas, skeleton, limit=1)
    assert [r.tactic for r in rungs] == ["library:PaperlintLib.max_bound"]
    assert rungs[0].candidate.startswith("theorem PaperlintLib.max_bound")
    again = library_rungs(lemmas, skeleton, limit=1, declared={"PaperlintLib.max_bound"})
    assert again[0].candidate.startswith("theorem t (x y : ℝ)")
    assert library_rungs(lemmas, skeleton, limit=0) == []
    assert library_rungs([], skeleton) == []
    assert library_rungs(lemmas, "not lean at all") == []


def test_the_env_var_is_the_data_folder(data_dir):
    import os

    assert os.environ[ENV_VAR] == str(data_dir)


# --- the strategy chosen at the start of a check (strategy.json, strategy_chosen events) -----


def _live_trials(data_dir: Path, count: int, strategy: str = "baseline") -> None:
    from paperlint.learning.runrecord import append_entries

    entries = [
        RunEntry.model_validate(
            {
                "at": f"2026-11-{1 + i % 28:02d}T00:00:00+00:00",
                "paper_sha256": f"p{i}",
                "result": "lem:x",
                "result_kind": "lemma",
                "features": {},
                "strategy": strategy,
                "outcome": "verified",
                "prover_calls": 2,
                "model_calls": 5,
            }
        )
        for i in range(count)
    ]
    append_entries(data_dir, entries)


@pytest.fixture
def replay(tmp_path: Path) -> Path:
    """A copy of the fixture's replay folder: a replay chooses from the run record its folder
    carries (`runs.jsonl`), never from the user's."""
    folder = tmp_path / "replay"
    shutil.copytree(REUSE / "replay", folder)
    return folder


def _chosen(work: Path) -> list[dict[str, object]]:
    lines = (work / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [e for e in map(json.loads, lines) if e["type"] == "strategy_chosen"]


def test_with_a_short_record_the_default_is_chosen_and_said(tmp_path, data_dir, replay):
    _live_trials(data_dir, 20)  # the user's record: a replay ignores it
    _live_trials(replay, 5)
    work = tmp_path / "ws"
    assert _check(work, replay) == 0
    (chosen,) = _chosen(work)
    assert chosen["strategy"] == "baseline" and chosen["phase"] == "default"
    assert chosen["reason"] == "5 of 20 trials of 'lemma' recorded: the default"
    report = (work / "report" / "report.md").read_text(encoding="utf-8")
    assert "Strategy: baseline (5 of 20 trials" in report


def test_an_exploring_choice_turns_the_automation_off(
    example_workspace, tmp_path, data_dir, replay
):
    _promote(example_workspace)  # the library would close the lemma with automation on
    _live_trials(replay, 20)  # 20 baseline trials: explore, least tried = no-automation
    work = tmp_path / "ws"
    assert _check(work, replay) == 0
    (chosen,) = _chosen(work)
    assert (chosen["strategy"], chosen["phase"]) == ("no-automation", "explore")
    assert _calls(work).get("prover") == 1  # no ladder, no library rung: the prover is asked
    assert read_entries(data_dir).entries == []  # a replay is no trial
    # The same record and seed give the same choice, and the report says the same.
    again = tmp_path / "again"
    assert _check(again, replay) == 0
    first, second = (json.loads((w / "strategy.json").read_text()) for w in (work, again))
    assert first == second


def test_the_baseline_setting_makes_no_choice(tmp_path, data_dir):
    _live_trials(data_dir, 20)  # (a replay reads none of it either way)
    work = _check_configured(tmp_path, '[learning]\nstrategy = "baseline"\n')
    (chosen,) = _chosen(work)
    assert chosen["strategy"] == "baseline"
    assert "no choice is made" in str(chosen["reason"])


def test_automation_off_in_the_config_asks_the_prover_even_with_the_library(
    example_workspace, tmp_path
):
    _promote(example_workspace)
    work = _check_configured(tmp_path, "[automation]\nenabled = false\n")
    assert _calls(work).get("prover") == 1
    assert "[automation]\nenabled = false" in (work / "paperlint.toml").read_text()
