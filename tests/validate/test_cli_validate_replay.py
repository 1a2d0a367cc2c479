"""`paperlint validate` and `paperlint replay` through the CLI: exit codes and what they say."""

import json

import pytest

from paperlint.cli.root import run
from tests.validate.conftest import ROOT, edit_text, rehash, restate


def _run(capsys, *argv):
    code = run(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", ["sample-variance", "proportions"])
def test_validate_untouched_example_exits_0(examples, capsys, name):
    code, out, err = _run(capsys, "validate", str(examples[name]))
    assert code == 0, out + err
    assert "every verdict re-derives" in out + err


def test_validate_prints_file_line_rule_and_exits_1(copy_of, capsys):
    ws = copy_of("sample-variance")
    edit_text(ws / "lean/Paper/Lem_mean_max.lean", ":= (a + b) / 2", ":= max a b")
    rehash(ws)
    code, out, _ = _run(capsys, "validate", str(ws))
    assert code == 1
    assert f"{ws}/lean/Paper/Lem_mean_max.lean:6: definition-changed:" in out


def test_validate_json_lists_findings(copy_of, capsys):
    ws = copy_of("proportions")
    (ws / "events.jsonl").unlink()
    code, out, _ = _run(capsys, "validate", str(ws), "--format", "json")
    payload = json.loads(out)
    assert code == 1 and payload["ok"] is False
    assert [f["rule"] for f in payload["findings"]] == ["events-missing"]


def _own_replay(name: str = "sample-variance") -> tuple[str, str]:
    """The fixture's recording, given on the command line: `replay` never takes it from the
    workspace's paperlint.toml (issue 11)."""
    return ("--lean-replay", str(ROOT / "fixtures" / name / "replay"))


def test_a_replayed_run_without_lean_replay_is_not_re_verified(examples, capsys):
    code, out, _ = _run(capsys, "replay", str(examples["proportions"]))
    assert code == 4, out
    assert "its recording is never taken from the workspace" in out


def test_validate_a_folder_that_is_not_a_workspace_exits_2(tmp_path, capsys):
    code, _, err = _run(capsys, "validate", str(tmp_path))
    assert code == 2
    assert "not a paperlint workspace" in err


def test_validate_unknown_format_exits_2(examples, capsys):
    code, _, _ = _run(capsys, "validate", str(examples["proportions"]), "--format", "xml")
    assert code == 2


@pytest.mark.parametrize("name", ["sample-variance", "proportions"])
def test_replay_rederives_every_verdict_from_the_fixture_replay(examples, capsys, name):
    code, out, _ = _run(capsys, "replay", str(examples[name]), *_own_replay(name))
    assert code == 0, out
    assert "REPLAY" in out and "DIFFERS" not in out
    assert "The check itself was a REPLAY (model and lean answers recorded" in out
    assert "re-verified: from a REPLAY of recorded Lean answers" in out


def test_replay_says_which_issue_no_lean_check_backs(examples, capsys):
    _, out, _ = _run(capsys, "replay", str(examples["sample-variance"]), *_own_replay())
    assert "thm:product: recorded issue; re-derived issue [ok]" in out
    assert "no Lean check backs this issue" in out


def test_replay_json_marks_replay(examples, capsys):
    argv = ("replay", str(examples["proportions"]), *_own_replay("proportions"), "--format", "json")
    code, out, _ = _run(capsys, *argv)
    payload = json.loads(out)
    assert code == 0 and payload["replay"] is True and payload["re_verified"] is True
    assert all(not r["differs"] for r in payload["results"])


def test_replay_of_an_edited_lean_file_differs(copy_of, capsys):
    """The recording is keyed by the file's bytes: an edited file has no Lean answer."""
    ws = copy_of("proportions")
    edit_text(ws / "lean/Paper/Thm_inverse.lean", "  linarith\n", "  linarith -- checked\n")
    rehash(ws)
    code, out, _ = _run(capsys, "replay", str(ws), *_own_replay("proportions"))
    assert code == 1
    assert "thm:inverse: recorded verified_unconditional; re-derived unfinished [DIFFERS]" in out
    assert "no recorded Lean answer for this file's bytes" in out


def test_replay_with_explicit_lean_replay_dir(examples, repo_root, capsys):
    replay_dir = repo_root / "fixtures" / "proportions" / "replay"
    code, out, _ = _run(
        capsys, "replay", str(examples["proportions"]), "--lean-replay", str(replay_dir)
    )
    assert code == 0 and str(replay_dir) in out


def test_replay_without_lean_stubbed_not_ready_exits_4(copy_of, capsys, monkeypatch):
    """Lean readiness is stubbed to 'not set up' so the test means the same on any machine."""
    import paperlint.lean.doctor as doctor

    monkeypatch.setattr(doctor, "lean_ready", lambda paths: (False, "stubbed: no Lean"))
    ws = copy_of("sample-variance")
    toml = (ws / "paperlint.toml").read_text()
    lines = ['replay_dir = ""' if x.startswith("replay_dir") else x for x in toml.splitlines()]
    (ws / "paperlint.toml").write_text("\n".join(lines) + "\n")
    code, out, _ = _run(capsys, "replay", str(ws))
    assert code == 4, out
    assert "Lean: unavailable (stubbed: no Lean" in out
    assert "re-verified: no (Lean unavailable)" in out
    assert "not re-verified in Lean" in out and "DIFFERS" not in out


def test_replay_without_lean_still_reports_mechanical_differences(copy_of, capsys, monkeypatch):
    import paperlint.lean.doctor as doctor

    monkeypatch.setattr(doctor, "lean_ready", lambda paths: (False, "stubbed: no Lean"))
    ws = copy_of("sample-variance")
    toml = (ws / "paperlint.toml").read_text()
    lines = ['replay_dir = ""' if x.startswith("replay_dir") else x for x in toml.splitlines()]
    (ws / "paperlint.toml").write_text("\n".join(lines) + "\n")
    (ws / "audits/lem_mean-max/final-audit.json").unlink()
    code, out, _ = _run(capsys, "replay", str(ws))
    assert code == 1
    assert "lem:mean-max: recorded verified_unconditional; re-derived unfinished [DIFFERS]" in out


def test_replay_with_missing_lean_replay_dir_exits_2(examples, tmp_path, capsys):
    code, _, _ = _run(
        capsys, "replay", str(examples["proportions"]), "--lean-replay", str(tmp_path / "no")
    )
    assert code == 2


def test_replay_rechecks_the_gated_draft_against_the_recording(copy_of, capsys):
    """A statement rewritten in every copy (records, draft, Lean file) has no recorded
    type-check: the recording is keyed by the exact text Lean elaborated."""
    ws = copy_of("proportions")
    edit_text(ws / "audits/thm_inverse/draft-1.lean", "1 < 1 / (1 - p)", "0 < 1 / (1 - p)")
    restate(ws, "thm:inverse", "1 < 1 / (1 - p)", "0 < 1 / (1 - p)")
    code, out, _ = _run(capsys, "replay", str(ws), *_own_replay("proportions"))
    assert code == 1
    assert "audits/thm_inverse/draft-1.lean: refuted: no recorded type-check" in out


def test_replay_of_a_budget_stopped_run_has_nothing_to_rerun(examples, capsys):
    code, out, _ = _run(capsys, "replay", str(examples["budget"]), *_own_replay())
    assert code == 0, out
    assert "unfinished: nothing was verified, so nothing to re-run" in out


def test_a_crashed_and_resumed_check_validates_clean(tmp_path, capsys):
    """Evidence first, state last: a resume after a power cut leaves nothing to disagree."""
    from tests.engine.conftest import check_argv, run_cli_forked

    ws = tmp_path / "ws"
    code = run_cli_forked(check_argv("sample-variance", ws), PAPERLINT_FAILPOINT="after-event:47")
    assert code == 77
    assert run_cli_forked(["resume", str(ws)]) == 1
    code, out, err = _run(capsys, "validate", str(ws))
    assert code == 0, out + err
