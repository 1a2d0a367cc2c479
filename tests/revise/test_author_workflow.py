"""An author's workflow, scripted (#28): check a paper, correct Proposition 2.3 in place, and go
on as an author would — check, status, report, resume, revise, resume, report. At every step a
stale verdict is refused or marked, never shown as current; the old answers recorded for the
false statement are never served for the corrected one; and the corrected Proposition 2.3 is
re-proved, not re-reported. Offline: model answers and Lean responses are replayed
(fixtures/sample-variance for version 1, fixtures/sample-variance-fixed for the correction)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from paperlint.cli.root import run

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "fixtures" / "sample-variance"
FIXED = ROOT / "fixtures" / "sample-variance-fixed"
STALE_WORDS = "the paper changed since this check"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An author's folder with version 1 checked (replayed) beside it."""
    folder = tmp_path_factory.mktemp("author")
    (folder / ".git").mkdir()  # the config search stops here
    shutil.copyfile(V1 / "paper.tex", folder / "paper.tex")
    argv = ["check", str(folder / "paper.tex"), "--replay", str(V1 / "replay"), "-q"]
    assert run(argv) == 1  # version 1 has issues, Proposition 2.3's an ERROR
    return folder


@pytest.fixture
def author(checked: Path, tmp_path: Path) -> Path:
    """A copy of the checked folder, its Proposition 2.3 just corrected by the author."""
    folder = tmp_path / "author"
    shutil.copytree(checked, folder)
    _rebase(folder / "paper.paperlint", checked, folder)
    shutil.copyfile(FIXED / "paper.tex", folder / "paper.tex")
    return folder


def _rebase(ws: Path, old: Path, new: Path) -> None:
    """The copied workspace's run names the copied paper (its `[run] paper`)."""
    config = ws / "paperlint.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(str(old), str(new)))


def _records(ws: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((ws / "results.json").read_text(encoding="utf-8"))
    return {r["id"]: r for r in data["results"]}


def _calls_after_revision(ws: Path) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in (ws / "events.jsonl").read_text().splitlines()]
    start = max(i for i, e in enumerate(events) if e["type"] == "revision")
    return [e for e in events[start:] if e["type"] == "model_call"]


def test_every_step_refuses_or_marks_the_stale_verdict_and_the_fix_is_re_proved(
    author: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper, ws = author / "paper.tex", author / "paper.paperlint"
    before = (ws / "results.json").read_bytes()
    assert _records(ws)["prop:square"]["verdict"] == "issue"
    capsys.readouterr()

    # check: the paper changed, so not "continue with resume" but revise (exit 2)
    assert run(["check", str(paper), "--replay", str(FIXED / "replay"), "-q"]) == 2
    err = capsys.readouterr().err
    assert STALE_WORDS in err and f"paperlint revise {ws} {paper}" in err
    assert "continue it with `paperlint resume" not in err

    # status: the stale verdict is marked on its row, without --why; the others are not
    assert run(["status", str(ws)]) == 0
    out = capsys.readouterr().out
    assert "stale: source-changed: paper.tex" in out and STALE_WORDS in out
    row = next(line for line in out.splitlines() if "prop:square" in line)
    assert "issue  STALE: statement changed" in row and "revise will re-draft" in row
    assert all("STALE" not in line for line in out.splitlines() if "lem:mean-max" in line)
    assert run(["status", str(ws), "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    stale = {r["id"]: r["stale"] for r in status["results"]}
    assert stale["prop:square"].startswith("statement changed")
    assert {rid for rid, why in stale.items() if why} == {"prop:square"}

    # report: a banner, and the stale result marked in Markdown, HTML and JSON
    assert run(["report", str(ws), "-o", str(author / "report-stale")]) == 0
    assert STALE_WORDS in capsys.readouterr().err
    markdown = (author / "report-stale" / "report.md").read_text(encoding="utf-8")
    assert f"> **STALE: {STALE_WORDS}" in markdown
    assert "### Proposition 2.3 — issue recorded (STALE)" in markdown
    assert "### Lemma 2.1 — verified unconditionally\n" in markdown
    html = (author / "report-stale" / "report.html").read_text(encoding="utf-8")
    assert html.count('data-stale="true"') >= 3  # the banner, the glance row, the result
    report = json.loads((author / "report-stale" / "report.json").read_text(encoding="utf-8"))
    assert report["stale"]["message"].startswith(STALE_WORDS)
    marked = {r["id"]: r["stale"] for r in report["results"]}
    assert marked["prop:square"] and not marked["lem:mean-max"]

    # resume: refused, nothing written
    assert run(["resume", str(ws), "-q"]) == 2
    assert STALE_WORDS in capsys.readouterr().err
    assert (ws / "results.json").read_bytes() == before

    # revise with the corrected paper's replay, then resume: only Proposition 2.3 is redone,
    # and it is proved, not re-reported
    argv = ["revise", str(ws), str(paper), "--replay", str(FIXED / "replay")]
    assert run(argv) == 0
    assert run(["status", str(ws)]) == 0
    assert "STALE" not in capsys.readouterr().out
    assert run(["resume", str(ws), "-q"]) == 1  # thm:product's gap remains
    after = _records(ws)
    square = after["prop:square"]
    assert square["verdict"] == "verified_unconditional" and square["issue"] is None
    assert {e["result"] for e in _calls_after_revision(ws)} == {"prop:square"}
    assert not list((ws / "lean").rglob("*counterexample*"))
    assert after["thm:product"]["issue"]["class"] == "PAPER_ARGUMENT_GAP"

    # the report is current again, and the workspace validates
    capsys.readouterr()
    assert run(["report", str(ws), "-o", str(author / "report")]) == 0
    assert STALE_WORDS not in capsys.readouterr().err
    markdown = (author / "report" / "report.md").read_text(encoding="utf-8")
    assert "STALE" not in markdown
    assert "### Proposition 2.3 — verified unconditionally" in markdown
    assert run(["validate", str(ws)]) == 0


def test_the_old_answers_are_never_served_for_the_corrected_statement(
    author: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Revised, but resumed with version 1's replay: its answers for Proposition 2.3 were
    recorded for the false statement's prompts, so they are replay misses, never the old
    counterexample reported again."""
    ws = author / "paper.paperlint"
    argv = ["revise", str(ws), str(author / "paper.tex"), "--replay", str(V1 / "replay")]
    assert run(argv) == 0
    run(["resume", str(ws), "-q"])
    square = _records(ws)["prop:square"]
    assert square["verdict"] == "unfinished" and square["issue"] is None
    detail = square["unfinished"]["detail"]
    assert "asked with this prompt; its answers are to other prompts" in detail
    assert not list((ws / "lean").rglob("*counterexample*"))
    calls = _calls_after_revision(ws)
    assert calls == [] or all(not c["ok"] for c in calls if c["result"] == "prop:square")


def test_a_revision_whose_labels_share_an_evidence_folder_is_refused(
    author: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new lemma labelled `lem_mean-max` would write its evidence into `audits/lem_mean-max`,
    the folder of the checked `lem:mean-max`: revise stops before it touches the workspace."""
    paper = author / "paper.tex"
    ws = author / "paper.paperlint"
    text = paper.read_text(encoding="utf-8")
    added = "\\begin{lemma}\\label{lem_mean-max}\n$0 \\le 1$.\n\\end{lemma}\n\\end{document}"
    paper.write_text(text.replace("\\end{document}", added), encoding="utf-8")
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert run(["revise", str(ws), str(paper), "--replay", str(FIXED / "replay")]) == 2
    err = capsys.readouterr().err
    assert "`lem:mean-max` and `lem_mean-max` would share one evidence folder" in err
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == before
