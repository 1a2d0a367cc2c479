"""The working state's references to the agent outputs it keeps (`paperlint.records.state`,
`paperlint.engine-state/3`): which file each names, the file of its own an output gets when no
audit file may be named, and what a reference may look like."""

import json
from pathlib import Path

import pytest

import paperlint.engine.steps  # noqa: F401  (the registry: every step's slot)
from paperlint.engine.steps.second_draft import SecondDraft
from paperlint.records.outputs import DraftOutput, FidelityFields, GateOutput
from paperlint.records.results import ResultRecord, Results
from paperlint.records.slots import Proving, Ruled, draft_of, gating, suspicion_of
from paperlint.records.state import (
    ENGINE_STATE_SCHEMA,
    ENGINE_STATE_V4,
    ENGINE_STATE_V5,
    OWN_FILE,
    StateRefError,
    StoredWork,
    check_ref,
    files_reader,
    output_bytes,
    parse_entry,
)
from paperlint.records.work import CounterexampleCheck, ResultWork, Suspicion, slot_types
from paperlint.records.workspace import Workspace, load_results_at, write_results
from paperlint.store import write_json_atomic
from tests.workstate import work_of

FIDELITY = FidelityFields(
    object_class="reals",
    quantifier_order="",
    parameter_domains="",
    codomain="",
    hypotheses="",
    conclusion="",
)

# The agent outputs by field: the shared slot's and the record slots' (issue #27).


def _draft(statement: str) -> DraftOutput:
    return DraftOutput(lean_name="t", statement=statement, fidelity=FIDELITY)


def _workspace(tmp_path: Path, work: ResultWork) -> tuple[Workspace, Results]:
    record = ResultRecord(id="lem:a", number="1", kind="lemma").with_work(work)
    return Workspace(tmp_path), Results(results=[record])


def _stored(ws: Workspace) -> dict:
    data = json.loads(ws.results.read_text())
    return json.loads((ws.root / data["engine_state"]).read_text())["work"]["lem:a"]


def _own_files(ws: Workspace) -> list[str]:
    return sorted(ws.rel(p) for p in ws.root.glob("audits/*/state-*.json"))


def test_the_stored_work_is_derived_from_the_work_with_outputs_as_references():
    # issue #27: derived from `ResultWork` and its `REFS`, no longer a hand-kept mirror
    assert list(StoredWork.model_fields) == list(ResultWork.model_fields)
    for name, field in ResultWork.model_fields.items():
        stored = StoredWork.model_fields[name]
        assert stored.get_default(call_default_factory=True) == field.get_default(
            call_default_factory=True
        )
        if name in ResultWork.REFS:
            assert "OutputRef" in str(stored.annotation), name
        elif name != "slots":
            assert stored.annotation == field.annotation, name


def test_every_slot_declares_references_to_its_own_fields_with_labels_of_their_own():
    labels = [kind.label for kind in ResultWork.REFS.values()]
    for model in slot_types().values():
        assert set(model.REFS) <= set(model.model_fields), model
        assert all(OWN_FILE.match(f"state-{k.label}-{'0' * 16}.json") for k in model.REFS.values())
        labels += [kind.label for kind in model.REFS.values()]
    assert len(labels) == len(set(labels))


def test_an_output_in_its_audit_file_is_named_by_it(tmp_path):
    draft = _draft("theorem t : True := sorry")
    ws, results = _workspace(tmp_path, work_of(draft=draft, draft_rounds=1))
    write_json_atomic(ws.root / "audits/lem_a/draft-1.json", draft.model_dump(mode="json"))
    write_results(ws, results)
    assert _stored(ws)["slots"]["draft"]["draft"]["ref"] == "audits/lem_a/draft-1.json"
    assert _own_files(ws) == []
    assert load_results_at(ws.results).results[0].work == results.results[0].work


def test_an_output_no_audit_file_holds_gets_a_file_of_its_own_until_it_is_gone(tmp_path):
    draft = _draft("theorem t : True := sorry")
    ws, results = _workspace(tmp_path, work_of(draft=draft, draft_rounds=1))
    write_json_atomic(ws.root / "audits/lem_a/draft-1.json", {"other": "draft"})
    write_results(ws, results)
    (own,) = _own_files(ws)
    assert own.startswith("audits/lem_a/state-draft-")
    assert _stored(ws)["slots"]["draft"]["draft"]["ref"] == own
    assert (ws.root / own).read_bytes() == output_bytes(draft)  # exactly the output
    assert draft_of(load_results_at(ws.results).results[0].work) == draft
    write_results(ws, results)  # written again: the same file, the same state
    assert _own_files(ws) == [own]
    gone = results.model_copy(update={"results": [results.results[0].with_work(ResultWork())]})
    write_results(ws, gone)
    assert _own_files(ws) == []  # pruned once no state names it


@pytest.mark.parametrize(("asked", "named"), [(True, "second-draft-1.json"), (False, None)])
def test_a_gated_second_draft_is_named_by_its_file_only_while_it_cannot_be_asked_again(
    tmp_path, asked, named
):
    """A re-gate keeps the draft and asks a new second draft, which writes second-draft-1.json
    again: a state written after the reset must not name that file for its draft."""
    second = _draft("theorem t : 1 = 1 := sorry")
    work = work_of(draft=second, draft_rounds=1).with_slot(SecondDraft(asked=asked))
    ws, results = _workspace(tmp_path, work)
    folder = ws.root / "audits/lem_a"
    write_json_atomic(folder / "draft-1.json", _draft("theorem t : True := sorry").model_dump())
    write_json_atomic(folder / "second-draft-1.json", second.model_dump(mode="json"))
    write_results(ws, results)
    ref = _stored(ws)["slots"]["draft"]["draft"]["ref"]
    if named is None:
        assert ref.startswith("audits/lem_a/state-draft-")
    else:
        assert ref == f"audits/lem_a/{named}"
    assert load_results_at(ws.results).results[0].work == work


def test_a_gate_answer_is_the_review_in_its_round_file(tmp_path):
    passed = GateOutput(fields=[], decision="BLOCK", reasons=["no"])
    ws, results = _workspace(tmp_path, work_of(gates=[passed, passed]))
    for n in (1, 2):
        write_json_atomic(
            ws.root / f"audits/lem_a/gate-{n}.json",
            {"schema": "paperlint.gate/1", "round": n, "review": passed.model_dump(mode="json")},
        )
    write_results(ws, results)
    refs = [g["ref"] for g in _stored(ws)["slots"]["gate"]["gates"]]
    assert refs == ["audits/lem_a/gate-1.json", "audits/lem_a/gate-2.json"]
    assert gating(load_results_at(ws.results).results[0].work).gates == [passed, passed]


# every output stored as a reference, shared or in a slot, by its label
_REFS = {k.label: k for model in (ResultWork, *slot_types().values()) for k in model.REFS.values()}


@pytest.mark.parametrize(
    ("field", "ref", "problem"),
    [
        ("draft", "audits/lem_a/draft-1.json", None),
        ("draft", "audits/lem_a/second-draft-1.json", None),
        ("draft", "audits/lem_a/state-draft-0123456789abcdef.json", None),
        ("gate", "audits/lem_a/gate-12.json", None),
        ("audit", "audits/lem_a/final-audit.json", None),
        ("draft", "audits/lem_a/draft-0.json", "not a file that holds"),
        ("draft", "audits/lem_a/state-gate-0123456789abcdef.json", "not a file that holds"),
        ("ruling", "audits/lem_a/final-audit.json", "not a file that holds"),
        ("plan", "audits/lem_b/plan.json", "own folder"),
        ("plan", "audits/../plan.json", "not a path"),
        ("plan", "audits/./plan.json", "not a path"),
        ("plan", "/audits/lem_a/plan.json", "not a path"),
        ("plan", "audits/lem_a/x/plan.json", "not a path"),
        ("plan", "audits/lem_a/plan.json/", "not a path"),
        ("plan", "audits\\lem_a\\plan.json", "not a path"),
        ("plan", "lean/lem_a/plan.json", "not a path"),
    ],
)
def test_a_reference_is_allowlisted(field, ref, problem):
    if problem is None:
        assert check_ref("lem:a", _REFS[field], ref) == ref.rsplit("/", 1)[1]
    else:
        with pytest.raises(StateRefError, match=problem):
            check_ref("lem:a", _REFS[field], ref)


@pytest.mark.parametrize(
    ("field", "name", "content", "problem"),
    [
        ("ruling", "issue.json", {"schema": "paperlint.gate/1", "is_issue": False}, "not a"),
        ("ruling", "issue.json", {"is_issue": False}, "not a paperlint.issue-ruling/1"),
        (
            "ruling",
            "issue.json",
            {"schema": "paperlint.issue-ruling/1", "is_issue": "maybe"},
            "valid",
        ),
        ("gate", "gate-1.json", {"schema": "paperlint.gate/1"}, "not a valid GateOutput"),
        ("review", "issue-review.json", [], "not a paperlint.review/1"),
        ("ruling", "issue.json", {"schema": "paperlint.issue-ruling/1", "is_issue": False}, None),
    ],
)
def test_the_output_is_read_from_its_files_envelope(field, name, content, problem):
    import hashlib

    from paperlint.records.state import OutputRef, files_reader, resolve_ref

    data = json.dumps(content).encode()
    rel = f"audits/lem_a/{name}"
    ref = OutputRef(ref=rel, sha256=hashlib.sha256(data).hexdigest())
    read = files_reader({rel: data})
    if problem is None:
        found = resolve_ref("lem:a", _REFS[field], ref, read)
        assert found.model_dump()["is_issue"] is False
    else:
        with pytest.raises(StateRefError, match=problem):
            resolve_ref("lem:a", _REFS[field], ref, read)


# --- /1-/5's shared suspicion and counterexample: into the slots that own them -----------------

_PROVER = {"obligation": "s1", "reason": "not proved"}  # /1-/5 omitted `raised_by`: the prover
_GATE = {"obligation": None, "reason": "refuted", "raised_by": "gate"}
_CEX = {"file": "lean/T_counterexample.lean", "accepted": True, "axioms_ok": True}
_OTHER_CEX = {**_CEX, "file": "lean/U_counterexample.lean"}


@pytest.mark.parametrize(
    ("schema", "entry", "prove", "gate", "check_issue"),
    [
        # /5: the suspicion by its `raised_by`, the one counterexample the gate's
        (ENGINE_STATE_V5, {"suspicion": _PROVER, "counterexample": None}, _PROVER, None, None),
        (ENGINE_STATE_V5, {"suspicion": _GATE, "counterexample": _CEX}, None, _GATE, None),
        (ENGINE_STATE_V5, {"suspicion": None, "counterexample": None}, None, None, None),
        # /4 with a ruling: the counterexample the checker's, and the gate's too when it raised
        (
            ENGINE_STATE_V4,
            {"suspicion": _PROVER, "ruling": None, "counterexample": _CEX},
            _PROVER,
            None,
            _CEX,
        ),
        (
            ENGINE_STATE_V4,
            {"suspicion": _GATE, "ruling": None, "counterexample": _OTHER_CEX},
            None,
            _GATE,
            _OTHER_CEX,
        ),
    ],
)
def test_an_older_shared_suspicion_and_counterexample_go_to_their_owners(
    schema, entry, prove, gate, check_issue
):
    work = parse_entry("r", entry, schema, files_reader({}))
    assert work.slot(Proving).suspicion == (Suspicion.model_validate(prove) if prove else None)
    assert gating(work).suspicion == (Suspicion.model_validate(gate) if gate else None)
    gates_cex = _CEX if schema == ENGINE_STATE_V5 and gate else _OTHER_CEX if gate else None
    assert gating(work).counterexample == (
        CounterexampleCheck.model_validate(gates_cex) if gates_cex else None
    )
    checked = work.slot(Ruled).counterexample
    assert checked == (CounterexampleCheck.model_validate(check_issue) if check_issue else None)
    if check_issue:  # the ruling answers the suspicion under review: it stands
        assert work.slot(Ruled).on == suspicion_of(work) is not None
    assert ResultWork.model_fields.keys() == {"slots"}  # nothing shared is left


def test_a_current_entry_with_a_shared_field_is_refused():
    with pytest.raises(ValueError, match="suspicion"):
        parse_entry("r", {"suspicion": _PROVER}, ENGINE_STATE_SCHEMA, files_reader({}))
