"""Forged workspaces for the holes of issue 11, each rejected with a named rule.

Every forgery edits a copy of a real replayed example the way a careful forger would
(consistently, re-hashing what it touches), so only a rule that recomputes from first
principles can catch it. The untouched examples validate clean (test_forged.py)."""

import json
import shutil

from paperlint.lean.elaborated import Elaboration, Entry
from paperlint.validate.load import load_snapshot
from paperlint.validate.replay import choose_lean
from tests.validate.conftest import dump, edit_record, load, record, rehash, rules


def _drop_everywhere(ws, result_id):
    """Delete a result from inventory.json, results.json and the events, as a forger would."""
    inventory = load(ws / "inventory.json")
    inventory["results"] = [r for r in inventory["results"] if r["id"] != result_id]
    dump(ws / "inventory.json", inventory)
    data = load(ws / "results.json")
    data["results"] = [r for r in data["results"] if r["id"] != result_id]
    dump(ws / "results.json", data)
    lines = (ws / "events.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if result_id not in line]
    (ws / "events.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    shutil.rmtree(ws / "audits" / result_id.replace(":", "_"), ignore_errors=True)


def test_a_result_suppressed_from_inventory_and_records_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    _drop_everywhere(ws, "prop:square")
    found = rules(ws)
    assert "result-missing" not in found  # the old rule alone could not see it
    assert "inventory-source-mismatch" in found


def test_a_renamed_statement_in_the_inventory_is_rejected(copy_of):
    ws = copy_of("proportions")
    inventory = load(ws / "inventory.json")
    inventory["results"][0]["statement"] += " (and more)"
    dump(ws / "inventory.json", inventory)
    assert "inventory-source-mismatch" in rules(ws)


def test_error_turned_into_verified_beside_its_compiled_refutation_is_rejected(copy_of):
    ws = copy_of("sample-variance")

    def upgrade(entry):
        entry.update(verdict="verified_unconditional", issue=None)

    edit_record(ws, "prop:square", upgrade)
    assert "refuted-but-verified" in rules(ws)


def test_a_replay_relabelled_as_a_live_run_is_rejected(copy_of):
    ws = copy_of("proportions")
    data = load(ws / "results.json")
    data.update(replay=False, replay_parts=[])
    dump(ws / "results.json", data)
    events = [json.loads(line) for line in (ws / "events.jsonl").read_text().splitlines()]
    for event in events:
        if "replay" in event:
            event["replay"] = [] if isinstance(event["replay"], list) else False
    (ws / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    toml = (ws / "paperlint.toml").read_text()
    (ws / "paperlint.toml").write_text(
        "\n".join(line for line in toml.splitlines() if not line.startswith("replay_dir"))
    )
    for path in [*ws.glob("audits/**/*.json"), *ws.glob("lean/**/*.json")]:
        content = load(path)
        if isinstance(content, dict) and content.get("replay") is True:
            dump(path, content | {"replay": False})
    rehash(ws)
    found = rules(ws)
    assert "replay-hidden" not in found  # every flag flipped: the old rule is blind
    assert "live-run-mismatch" in found


def test_a_verdict_resting_on_an_answer_to_another_prompt_fails(copy_of):
    """An older paperlint served a replayed answer recorded for another prompt and flagged it
    `prompt_drift` only: such a verdict no longer validates (a template change alone does)."""
    ws = copy_of("sample-variance")
    assert "prompt-mismatch" not in rules(ws)
    events = [json.loads(line) for line in (ws / "events.jsonl").read_text().splitlines()]
    calls = [e for e in events if e["type"] == "model_call" and e["result"] == "lem:mean-max"]
    calls[-1]["prompt_drift"] = True
    (ws / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    rehash(ws)
    assert "prompt-mismatch" in rules(ws)
    calls[-1]["template_drift"] = True
    (ws / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    rehash(ws)
    assert "prompt-mismatch" not in rules(ws)


def test_a_revised_dependency_keeps_no_stale_gate(copy_of):
    ws = copy_of("sample-variance")
    paper = ws / "source" / "paper.tex"
    text = paper.read_text(encoding="utf-8")
    assert "(a+b)/2" in text
    paper.write_text(text.replace("(a+b)/2", "(a+b)/3", 1), encoding="utf-8")
    inventory = load(ws / "inventory.json")
    for entry in inventory["results"]:
        entry["statement"] = entry["statement"].replace("(a+b)/2", "(a+b)/3")
    import hashlib

    for entry in inventory["files"]:
        entry["sha256"] = hashlib.sha256((ws / "source" / entry["path"]).read_bytes()).hexdigest()
    dump(ws / "inventory.json", inventory)
    rehash(ws)
    found = rules(ws)
    assert "gate-tex-mismatch" in found
    assert "inventory-source-mismatch" not in found  # the forger kept the inventory in step


def test_an_instance_hijack_in_an_accepted_proof_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    hijack = "@[instance 10000] def myLE : LE ℝ := ⟨fun _ _ => True⟩\n\n"

    def change(entry):
        for obligation in entry["work"]["obligations"]:
            if obligation["id"] == "main":
                obligation["proof"] = hijack + obligation["proof"]

    edit_record(ws, "lem:mean-max", change)
    assert "answer-not-allowed" in rules(ws)


def _elaboration(type_text):
    entry = Entry(name="lem_mean_max", kind="theorem", type=type_text, type_hash=7)
    return Elaboration.of("lem_mean_max", [entry]).model_dump(mode="json")


def _set_elaborations(ws, gated, final):
    entry = record(ws, "lem:mean-max")
    gate_path = ws / entry["evidence"]["gate"]
    gate = load(gate_path)
    gate["elaboration"] = gated
    dump(gate_path, gate)
    check_path = ws / entry["evidence"]["final_check"]
    check = load(check_path)
    check["statements"] = {"lem_mean_max": final}
    dump(check_path, check)
    rehash(ws)


# Elaborations by `#paperlint_statement` and a second kernel were evidence before the trusted
# checker (issue #25): a workspace of that time still carries them, and validate reads them.
V1 = "v1-sample-variance"
# Hand-written elaborations, shaped like `#paperlint_statement` answers (no Lean here).
REAL_LE = "forall (a b : Real), @LE.le Real Real.instLE (paperMean a b) (max a b)"
HIJACKED = "forall (a b : Real), @LE.le Real myLE (paperMean a b) (max a b)"


def test_an_elaborated_statement_that_changed_is_rejected(copy_of):
    ws = copy_of(V1)
    _set_elaborations(ws, _elaboration(REAL_LE), _elaboration(HIJACKED))
    assert "statement-changed" in rules(ws)


def test_equal_elaborations_pass_and_a_dropped_one_is_rejected(copy_of):
    ws = copy_of(V1)
    _set_elaborations(ws, _elaboration(REAL_LE), _elaboration(REAL_LE))
    assert "statement-changed" not in rules(ws)
    _set_elaborations(ws, _elaboration(REAL_LE), None)
    assert "statement-changed" in rules(ws)


def test_an_edited_gate_elaboration_digest_is_rejected(copy_of):
    ws = copy_of(V1)
    forged = _elaboration(HIJACKED) | {"digest": _elaboration(REAL_LE)["digest"]}
    _set_elaborations(ws, forged, _elaboration(HIJACKED))
    assert "statement-changed" in rules(ws)


def test_a_failed_second_kernel_is_rejected_and_a_dropped_one_too(copy_of):
    ws = copy_of(V1)
    paths = [
        ws / record(ws, rid)["evidence"]["final_check"]
        for rid in ("lem:mean-max", "lem:mean-square")
    ]
    failed = {"tool": "lean4checker", "command": ["lean4checker"], "exit_code": 1, "ok": False}
    check = load(paths[0])
    check["second_kernel"] = failed
    dump(paths[0], check)
    rehash(ws)
    found = rules(ws)
    assert "second-kernel" in found
    check["second_kernel"] = failed | {"exit_code": 0, "ok": True}
    dump(paths[0], check)
    rehash(ws)
    # One final check claims a second kernel; the other result's record lacks it.
    assert "second-kernel" in rules(ws)


def test_replay_never_takes_its_recording_or_project_from_the_workspace(copy_of, tmp_path):
    ws = copy_of("proportions")
    forged = tmp_path / "forged-replay"
    forged.mkdir()
    (forged / "lean.jsonl").write_text("")
    evil_project = tmp_path / "evil-project"
    evil_project.mkdir()
    (evil_project / "lakefile.lean").write_text("-- code a forger chose\n")
    toml = (ws / "paperlint.toml").read_text()
    toml = "\n".join(
        f'replay_dir = "{forged}"' if line.startswith("replay_dir") else line
        for line in toml.splitlines()
    )
    toml = toml.replace("[lean]", f'[lean]\nproject_dir = "{evil_project}"', 1)
    (ws / "paperlint.toml").write_text(toml)
    lean = choose_lean(load_snapshot(ws), None)
    assert str(forged) not in lean.detail and str(evil_project) not in lean.detail
    assert lean.mode in ("unavailable", "live")
    assert "workspace" in lean.detail or lean.mode == "live"


def test_replay_reports_prompt_drift_from_the_events(copy_of, capsys):
    from paperlint.cli.root import run
    from tests.validate.conftest import ROOT

    ws = copy_of("proportions")
    lines = (ws / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    first = next(e for e in events if e.get("type") == "model_call")
    first["prompt_drift"] = True
    (ws / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    replay_dir = ROOT / "fixtures" / "proportions" / "replay"
    run(["replay", str(ws), "--lean-replay", str(replay_dir)])
    out = capsys.readouterr().out
    assert "PROMPT DRIFT: 1 replayed answer(s)" in out and first["role"] in out


def test_a_carried_label_is_read_back_as_written() -> None:
    """The gate hashed the statement with the label it had then; `\\label {id}` and
    `\\label{ id }` are read back too, and nothing but the result's own label is."""
    from paperlint.validate.soundness_rules import _as_labelled

    text = "Let $x$. \\label {prop:sq} See \\ref{prop:sq}. \\label{ prop:sq }"
    assert _as_labelled(text, ["prop:square", "prop:sq"], "prop:sq") == [
        text,
        "Let $x$. \\label {prop:square} See \\ref{prop:sq}. \\label{ prop:square }",
    ]
    assert _as_labelled("\\label{prop:sqr}", ["prop:s"], "prop:sq") == [
        "\\label{prop:sqr}",
        "\\label{prop:sqr}",
    ]
