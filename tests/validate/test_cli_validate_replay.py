"""`paperlint validate` and `paperlint replay` through the CLI: exit codes and what they say."""

import json

import pytest

from paperlint.cli.root import run
from tests.validate.conftest import ROOT, edit_text, recording_with, rehash, restate


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


def test_replay_never_hands_lean_a_file_validate_rejects(copy_of, capsys):
    """An edited Lean file is rejected by validate's rules, so replay does not build it
    (issue 25: a forged file could hold `#eval IO.FS.writeFile …`)."""
    ws = copy_of("proportions")
    edit_text(ws / "lean/Paper/Thm_inverse.lean", "  linarith\n", "  linarith -- checked\n")
    rehash(ws)
    code, out, _ = _run(capsys, "replay", str(ws), *_own_replay("proportions"))
    assert code == 1
    assert "thm:inverse: recorded verified_unconditional; re-derived unfinished [DIFFERS]" in out
    assert "not handed to Lean: validate rejects this result (" in out
    assert "lean-file-not-rebuilt" in out


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


def test_a_statement_rewritten_in_every_copy_is_never_confirmed(copy_of, capsys):
    """Records, draft and Lean file restated alike: the gate's reference run no longer is of
    the modules the records compose (validate: reference-unlocked), so nothing reaches Lean."""
    ws = copy_of("proportions")
    edit_text(ws / "audits/thm_inverse/draft-1.lean", "1 < 1 / (1 - p)", "0 < 1 / (1 - p)")
    restate(ws, "thm:inverse", "1 < 1 / (1 - p)", "0 < 1 / (1 - p)")
    code, out, _ = _run(capsys, "replay", str(ws), *_own_replay("proportions"))
    assert code == 1
    assert "reference-unlocked" in out and "not handed to Lean" in out
    assert "thm:inverse: recorded verified_unconditional; re-derived unfinished [DIFFERS]" in out


def test_replay_refutes_a_recording_that_shows_another_statement(examples, tmp_path, capsys):
    """Issue 25 item 4: the re-run checker's statement hash is compared with the gate's lock
    and the recorded one, not only the build's exit: a recording whose checker saw another
    statement never confirms."""

    def moved(record):
        if record["target"] == "thm_inverse" and record["mode"] == "compare":
            record["reference"]["type"] += " ∧ True"

    recording = recording_with(tmp_path, "proportions", moved)
    code, out, _ = _run(capsys, "replay", str(examples["proportions"]), "--lean-replay",
                        recording)  # fmt: skip
    assert code == 1
    assert "audits/thm_inverse/checker.json: refuted:" in out
    assert "thm:inverse: recorded verified_unconditional; re-derived unfinished [DIFFERS]" in out


def test_replay_refutes_a_recording_whose_axioms_differ(examples, tmp_path, capsys):
    def cheat(record):
        if record["target"] == "thm_inverse" and record["mode"] == "compare":
            record["axioms"] = [*record["axioms"], "thm_inverse_ax"]

    recording = recording_with(tmp_path, "proportions", cheat)
    code, out, _ = _run(capsys, "replay", str(examples["proportions"]), "--lean-replay",
                        recording)  # fmt: skip
    assert code == 1 and "axiom-not-allowed" in out


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


def test_replay_refutes_a_recording_whose_counterexample_refutes_another_statement(
    examples, tmp_path, capsys
):
    """An ERROR's counterexample is re-run through the checker (issue #25): a recording in
    which its type is not the negation of the locked statement never confirms the ERROR."""

    def other(record):
        if record["target"] == "prop_square_counterexample":
            record["candidate"].update(type="¬ (∀ (x : ℝ), x ≤ x - 1)", type_equal=False)

    recording = recording_with(tmp_path, "sample-variance", other)
    code, out, _ = _run(capsys, "replay", str(examples["sample-variance"]), "--lean-replay",
                        recording)  # fmt: skip
    assert code == 1
    assert "audits/prop_square/counterexample.json: refuted:" in out
    assert "statement-differs" in out
    assert "prop:square: recorded issue; re-derived unfinished [DIFFERS]" in out
