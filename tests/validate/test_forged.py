"""Forged workspaces, each edited from a real replayed check: every one must be rejected with
the rule that names the cheat, and the untouched ones must validate clean."""

import pytest

from tests.validate.conftest import (
    dump,
    edit_record,
    edit_text,
    load,
    record,
    rehash,
    restate,
    rules,
)

SV_MAX = "lean/Paper/Lem_mean_max.lean"
SV_SQUARE = "lean/Paper/Lem_mean_square.lean"
SV_CEX = "lean/Paper/Prop_square_counterexample.lean"


@pytest.mark.parametrize("name", ["sample-variance", "proportions", "budget", "v1-sample-variance"])
def test_untouched_examples_validate_clean(examples, name):
    assert rules(examples[name]) == set()


def test_sorry_hidden_behind_a_macro_is_a_hygiene_finding(copy_of):
    ws = copy_of("sample-variance")
    edit_text(
        ws / SV_MAX,
        "theorem lem_mean_max_s1",
        'macro "trivial\'" : tactic => `(tactic| sorry)\n\ntheorem lem_mean_max_s1',
    )
    edit_text(
        ws / SV_MAX,
        "  have ha := le_max_left a b\n  have hb := le_max_right a b\n  linarith",
        "  trivial'",
    )
    rehash(ws)
    assert "hygiene" in rules(ws)


def test_an_added_axiom_is_a_hygiene_finding(copy_of):
    ws = copy_of("sample-variance")
    edit_text(
        ws / SV_MAX, "theorem lem_mean_max_s1", "axiom cheat : False\n\ntheorem lem_mean_max_s1"
    )
    rehash(ws)
    assert "hygiene" in rules(ws)


V1 = "v1-sample-variance"  # from before the trusted checker: the final check is evidence
SV_CEX_RUN = "audits/prop_square/counterexample.json"  # the checker's run on the counterexample


def test_nonstandard_axioms_in_the_final_check_are_rejected(copy_of):
    ws = copy_of(V1)
    path = ws / "audits/lem_mean-max/final-check.json"
    data = load(path)
    data["axioms"]["lem_mean_max"].append("sorryAx")
    dump(path, data)
    rehash(ws)
    found = rules(ws)
    assert {"axioms-nonstandard", "axioms-mismatch", "axioms-output-mismatch"} <= found


def test_statement_weakened_after_the_gate_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_text(
        ws / "lean/Paper/Lem_odds_pos.lean",
        "(hp0 : 0 < p) (hp1 : p < 1) :\n    0 < p",
        "(hp0 : 0 < p) (hp1 : p < 1) (h : p < 1 / 2) :\n    0 < p",
    )
    rehash(ws)
    assert "statement-changed" in rules(ws)


def test_contradictory_hypotheses_are_rejected_even_when_restated_everywhere(copy_of):
    ws = copy_of("sample-variance")
    restate(ws, "lem:mean-max", "max (a b : ℝ) :", "max (a b : ℝ) (h1 : a < 0) (h2 : 0 < a) :")
    found = rules(ws)
    assert "contradictory-hypotheses" in found
    assert "statement-changed" not in found  # the forger kept the fingerprints consistent


def test_contradictory_hypotheses_in_the_lean_file_only(copy_of):
    ws = copy_of("sample-variance")
    edit_text(
        ws / SV_MAX,
        "theorem lem_mean_max (a b : ℝ) :",
        "theorem lem_mean_max (a b : ℝ) (h1 : a < 0) (h2 : 0 < a) :",
    )
    rehash(ws)
    assert {"statement-changed", "contradictory-hypotheses"} <= rules(ws)


def test_a_definition_edited_in_the_lean_file_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / SV_MAX, ":= (a + b) / 2", ":= max a b")
    rehash(ws)
    assert "definition-changed" in rules(ws)


def test_a_gated_definition_that_unfolds_to_true_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    old = "noncomputable def paperMean (a b : ℝ) : ℝ := (a + b) / 2"
    new = "def paperMean (a b : ℝ) : Prop := True"
    for path in ["audits/def_mean/gate-1.json", "audits/def_mean/draft-1.json", SV_MAX, SV_SQUARE]:
        edit_text(ws / path, old, new)

    def change(entry):
        entry["work"]["draft"]["statement"] = new

    edit_record(ws, "def:mean", change)
    rehash(ws)
    assert "trivial-definition" in rules(ws)


def test_an_instance_added_to_the_lean_file_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_text(
        ws / "lean/Paper/Lem_odds_pos.lean",
        "theorem lem_odds_pos_s1",
        "instance : Inhabited ℝ := ⟨1⟩\n\ntheorem lem_odds_pos_s1",
    )
    rehash(ws)
    assert "helper-not-allowed" in rules(ws)


def test_an_open_added_to_the_header_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_text(
        ws / "lean/Paper/Lem_odds_pos.lean",
        "open Real Finset BigOperators",
        "open Real Finset BigOperators Nat",
    )
    rehash(ws)
    assert "lean-context-changed" in rules(ws)


def test_a_counterexample_that_does_not_compile_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    path = ws / SV_CEX_RUN
    data = load(path)
    data["compile"][-1].update(exit_code=1, output="1:2: error: unsolved goals")
    data.update(outcome="rejected", code="lean_error", record=None)
    dump(path, data)
    rehash(ws)
    assert "checker-failed" in rules(ws)


def test_a_counterexample_whose_build_failed_before_the_checker_is_rejected(copy_of):
    ws = copy_of(V1)
    path = ws / "lean/Paper/Prop_square_counterexample.check.json"
    data = load(path)
    data.update(outcome="rejected", exit_code=1, errors=["1:2: error: unsolved goals"])
    dump(path, data)
    assert "counterexample-unclean" in rules(ws)


def test_a_counterexample_that_refutes_something_else_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / SV_CEX, "¬ (∀ (x : ℝ), x ≤ x ^ 2)", "¬ (∀ (x : ℝ), x ≤ x - 1)")
    rehash(ws)
    assert "counterexample-not-refutation" in rules(ws)


def test_an_error_without_its_counterexample_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    (ws / SV_CEX).unlink()
    assert "counterexample-missing" in rules(ws)


def test_an_issue_quote_absent_from_the_paper_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    quote = "every real number is at least its square"

    def change(entry):
        entry["issue"]["location"]["quote"] = quote

    edit_record(ws, "thm:product", change)
    ruling = ws / "audits/thm_product/issue.json"
    dump(ruling, load(ruling) | {"quote": quote})
    assert "issue-quote" in rules(ws)


def test_an_issue_line_outside_the_file_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "lem:odds-above", lambda e: e["issue"]["location"].update(line=9999))
    assert "issue-quote" in rules(ws)


def test_an_issue_confirmed_by_its_own_raiser_is_rejected(copy_of):
    ws = copy_of("proportions")
    review = ws / "audits/lem_odds-above/issue-review.json"
    dump(review, load(review) | {"reviewer": "issue_checker"})
    edit_record(
        ws, "lem:odds-above", lambda e: e["issue"]["evidence"].update(confirmed_by="issue_checker")
    )
    rehash(ws)
    assert "issue-self-confirmed" in rules(ws)


def test_an_unconfirmed_review_is_rejected(copy_of):
    ws = copy_of("proportions")
    review = ws / "audits/lem_odds-above/issue-review.json"
    dump(review, load(review) | {"confirms": False})
    rehash(ws)
    assert "issue-not-confirmed" in rules(ws)


def test_an_unlisted_condition_shaped_hypothesis_is_a_hidden_input(copy_of):
    ws = copy_of("sample-variance")
    restate(
        ws,
        "lem:mean-square",
        "(a b : ℝ) :\n    paperMean",
        "(a b : ℝ) (h_cite_x : a ≤ b) :\n    paperMean",
    )
    found = rules(ws)
    assert "hidden-hypothesis" in found
    assert "statement-changed" not in found


def test_a_condition_that_is_not_a_binder_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "prop:product", lambda e: e["conditions"][0].update(lean_type="True"))
    assert "condition-not-hypothesis" in rules(ws)


def test_a_cited_key_missing_from_the_bibliography_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(
        ws, "lem:mean-square", lambda e: e["conditions"][0]["source"].update(key="nobody2020")
    )
    assert "condition-provenance" in rules(ws)


def test_an_asserted_quote_missing_from_the_paper_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(
        ws, "prop:product", lambda e: e["conditions"][0]["source"].update(quote="It is obvious.")
    )
    assert "condition-provenance" in rules(ws)


def test_a_missing_evidence_file_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    (ws / "audits/lem_mean-max/final-audit.json").unlink()
    assert {"audit-missing", "hash-missing"} <= rules(ws)


def test_an_altered_evidence_file_is_a_hash_mismatch(copy_of):
    ws = copy_of("sample-variance")
    path = ws / "audits/lem_mean-square/final-audit.json"
    dump(path, load(path) | {"findings": ["looks fine to me"]})
    assert "hash-mismatch" in rules(ws)


def test_an_edited_kept_source_is_a_hash_mismatch(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / "source/paper.tex", "For every real number", "For every real number (forged)")
    assert "hash-mismatch" in rules(ws)


def test_a_lean_file_edited_after_the_check_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(
        ws / SV_MAX,
        "  linarith\n\ntheorem lem_mean_max (",
        "  linarith -- tidy\n\ntheorem lem_mean_max (",
    )
    assert {"lean-file-not-rebuilt", "hash-mismatch"} <= rules(ws)


def test_a_stale_final_check_is_rejected(copy_of):
    ws = copy_of(V1)
    edit_text(
        ws / SV_MAX,
        "  linarith\n\ntheorem lem_mean_max (",
        "  linarith -- tidy\n\ntheorem lem_mean_max (",
    )
    found = rules(ws)
    assert {"final-check-stale", "hash-mismatch"} <= found


def test_hand_upgrade_unfinished_to_verified_is_rejected(copy_of):
    ws = copy_of("budget")
    edit_record(
        ws,
        "lem:mean-max",
        lambda e: e.update(verdict="verified_unconditional", unfinished=None, stage="done"),
    )
    found = rules(ws)
    assert {"lean-file-missing", "audit-missing", "verdict-event-mismatch"} <= found
    # The missing Lean evidence is named by the era the workspace shows: the checker's record
    # once a gate locked a statement, else the file's cold build. Which gates the six calls
    # reach depends on the scheduling of two actions in flight, so the budget run may or may
    # not hold a lock; either way exactly one is named, and the verdict stands on nothing.
    assert len(found & {"checker-missing", "final-check-missing"}) == 1, found
    locked = any(load(path).get("reference") for path in (ws / "audits").glob("*/gate-*.json"))
    assert ("checker-missing" in found) == locked


def test_hand_upgrade_issue_to_verified_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "prop:square", lambda e: e.update(verdict="verified_unconditional", issue=None))
    found = rules(ws)
    # evidence.lean_file names the gated draft (sorry bodies): it is no proof module
    assert {"checker-missing", "audit-missing", "verdict-event-mismatch", "hygiene"} <= found


def test_hand_upgrade_conditional_to_unconditional_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(
        ws, "lem:mean-square", lambda e: e.update(verdict="verified_unconditional", conditions=[])
    )
    found = rules(ws)
    assert {"hidden-hypothesis", "unconditional-has-conditions", "conditions-mismatch"} <= found


def test_a_hand_upgrade_with_a_matching_forged_event_is_still_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "prop:square", lambda e: e.update(verdict="verified_unconditional", issue=None))
    events = (
        (ws / "events.jsonl")
        .read_text()
        .replace('"verdict": "issue"', '"verdict": "verified_unconditional"', 1)
    )
    (ws / "events.jsonl").write_text(events.replace('"class": "ERROR"', '"class": null', 1))
    found = rules(ws)
    assert "verdict-event-mismatch" not in found
    assert "checker-missing" in found


def test_a_results_only_verdict_edit_disagrees_with_the_event_log(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "lem:odds-above", lambda e: e["issue"].update({"class": "ERROR"}))
    assert "verdict-event-mismatch" in rules(ws)


def test_a_deleted_event_log_is_rejected(copy_of):
    ws = copy_of("proportions")
    (ws / "events.jsonl").unlink()
    assert "events-missing" in rules(ws)


def test_a_verdict_on_a_definition_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "def:mean", lambda e: e.update(verdict="verified_unconditional"))
    assert "not-verdict-bearing" in rules(ws)


def test_an_invalid_record_is_a_schema_finding(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "thm:product", lambda e: e["issue"].update({"class": "TYPO"}))
    assert "results-schema" in rules(ws)


def test_a_done_result_without_verdict_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "lem:odds-pos", lambda e: e.update(verdict=None))
    assert "verdict-missing" in rules(ws)


def test_an_evidence_path_leaving_the_workspace_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "lem:odds-pos", lambda e: e["evidence"].update(lean_file="../../etc/passwd"))
    assert "evidence-path" in rules(ws)


def test_a_gate_that_blocked_is_not_evidence(copy_of):
    ws = copy_of("proportions")
    gate = ws / record(ws, "thm:inverse")["evidence"]["gate"]
    data = load(gate)
    data["decision"] = "BLOCK"
    data["review"]["decision"] = "BLOCK"
    dump(gate, data)
    rehash(ws)
    assert "gate-not-passed" in rules(ws)


def test_a_gate_fingerprint_copied_without_the_statement_is_rejected(copy_of):
    ws = copy_of("proportions")
    gate = ws / record(ws, "thm:inverse")["evidence"]["gate"]
    data = load(gate)
    data["statement"] = data["statement"].replace("1 < 1 / (1 - p)", "0 < 1")
    dump(gate, data)
    rehash(ws)
    assert {"gate-fingerprint", "gated-statement-mismatch"} <= rules(ws)


def test_a_result_dropped_from_the_records_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    data = load(ws / "results.json")
    data["results"] = [r for r in data["results"] if r["id"] != "prop:square"]
    dump(ws / "results.json", data)
    assert "result-missing" in rules(ws)


def test_an_invented_result_is_rejected(copy_of):
    ws = copy_of("proportions")
    data = load(ws / "results.json")
    data["results"].append(data["results"][0] | {"id": "thm:invented"})
    dump(ws / "results.json", data)
    assert "result-unknown" in rules(ws)


def test_a_theorem_turned_into_a_definition_to_shed_its_issue_is_rejected(copy_of):
    ws = copy_of("proportions")

    def change(entry):
        entry.update(kind="definition", verdict_bearing=False, verdict=None, issue=None)

    edit_record(ws, "lem:odds-above", change)
    assert "record-inventory-mismatch" in rules(ws)


def test_a_replay_passed_off_as_a_live_run_is_rejected(copy_of):
    ws = copy_of("proportions")
    data = load(ws / "results.json")
    data.update(replay=False, replay_parts=[])
    dump(ws / "results.json", data)
    assert "replay-hidden" in rules(ws)


def test_a_deleted_reviewed_draft_is_rejected(copy_of):
    ws = copy_of("proportions")
    (ws / "audits/thm_inverse/draft-1.json").unlink()
    assert "gated-statement-mismatch" in rules(ws)


def test_a_restated_gate_still_disagrees_with_the_type_checked_draft(copy_of):
    ws = copy_of("proportions")
    restate(ws, "thm:inverse", "1 < 1 / (1 - p)", "0 < 1 / (1 - p)")
    found = rules(ws)
    assert "gated-statement-mismatch" in found
    assert "statement-changed" not in found


def test_a_cited_key_the_paper_never_mentions_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    inventory = load(ws / "inventory.json")
    inventory["bibliography"].append({"key": "ghost1999", "text": "A ghost."})
    dump(ws / "inventory.json", inventory)
    edit_record(
        ws, "lem:mean-square", lambda e: e["conditions"][0]["source"].update(key="ghost1999")
    )
    assert "condition-provenance" in rules(ws)


def test_a_counterexample_check_with_forged_axioms_is_rejected(copy_of):
    ws = copy_of(V1)
    path = ws / "lean/Paper/Prop_square_counterexample.check.json"
    data = load(path)
    data["output"] = data["output"].replace("propext, Classical.choice, Quot.sound", "sorryAx")
    dump(path, data)
    assert "counterexample-unclean" in rules(ws)


def test_a_counterexample_whose_checker_collected_sorry_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    path = ws / SV_CEX_RUN
    data = load(path)
    data["record"]["axioms"].append("sorryAx")
    dump(path, data)
    rehash(ws)
    assert "checker-finding" in rules(ws)


def test_a_counterexample_whose_type_is_not_the_refuted_statement_is_rejected(copy_of):
    """The checker compared the counterexample's type with the negation of the locked
    statement and found them different: no ERROR rests on it."""
    ws = copy_of("sample-variance")
    path = ws / SV_CEX_RUN
    data = load(path)
    data["record"]["candidate"].update(type="¬ (∀ (x : ℝ), x ≤ x - 1)", type_equal=False)
    dump(path, data)
    rehash(ws)
    assert "checker-finding" in rules(ws)


FAKE_AXIOMS = "#eval IO.println \"'prop_square_counterexample' depends on axioms: [propext]\""


def test_a_counterexample_file_that_prints_its_own_axioms_is_rejected(copy_of):
    """Before the checker, a counterexample was judged by its file's own build and
    `#print axioms`, text the file controls. A forger proves it by `sorry`, prints the axiom
    line itself and writes a clean build record beside it: the file is not the declaration
    the checker judged, and the forged build record is no evidence."""
    ws = copy_of("sample-variance")
    text = (ws / SV_CEX).read_text(encoding="utf-8")
    head, _, _ = text.partition(":= by")
    (ws / SV_CEX).write_text(f"{head}:= by\n  sorry\n\n{FAKE_AXIOMS}\n", encoding="utf-8")
    clean = {"outcome": "accepted", "exit_code": 0, "errors": [], "axioms": {
        "prop_square_counterexample": ["propext"]}}  # fmt: skip
    dump(ws / SV_CEX.replace(".lean", ".check.json"), clean)
    rehash(ws)
    found = rules(ws)
    assert {"lean-file-not-rebuilt", "hygiene"} <= found


def test_a_counterexample_by_sorry_in_every_copy_is_stale(copy_of):
    """The declaration by `sorry` in the records and the file alike: the checker's kept run
    is of the declaration it judged, not of this one."""
    ws = copy_of("sample-variance")
    text = (ws / SV_CEX).read_text(encoding="utf-8")
    head, _, _ = text.partition(":= by")
    (ws / SV_CEX).write_text(f"{head}:= by\n  sorry\n", encoding="utf-8")

    def forge(entry):
        cex = entry["work"]["counterexample"]
        statement, _, _ = cex["declaration"].partition(":= by")
        cex["declaration"] = f"{statement}:= by\n  sorry"

    edit_record(ws, "prop:square", forge)
    rehash(ws)
    found = rules(ws)
    assert "checker-stale" in found
    assert "lean-file-not-rebuilt" not in found  # the file is the forged declaration's


def test_a_definition_deleted_from_the_lean_file_is_rejected(copy_of):
    """Token checks compare what is there; the rebuilt module also sees what is gone."""
    ws = copy_of("sample-variance")
    edit_text(ws / SV_MAX, "noncomputable def paperMean (a b : ℝ) : ℝ := (a + b) / 2\n\n", "")
    rehash(ws)
    assert "lean-file-not-rebuilt" in rules(ws)


def test_an_extra_helper_lemma_in_the_lean_file_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_text(
        ws / "lean/Paper/Thm_inverse.lean",
        "theorem thm_inverse (",
        "theorem helper (p : ℝ) : p = p := rfl\n\ntheorem thm_inverse (",
    )
    rehash(ws)
    assert "lean-file-not-rebuilt" in rules(ws)


def test_a_counterexample_proof_swapped_in_the_file_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / SV_CEX, "have h1 := h (1 / 2)", "have h1 := h (1 / 3)")
    rehash(ws)
    assert "lean-file-not-rebuilt" in rules(ws)


def test_a_step_skeleton_edited_in_the_reviewed_draft_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / "audits/lem_mean-max/draft-1.json", "a + b ≤ 2 * max a b", "a + b ≤ 3 * max a b")
    assert "gated-statement-mismatch" in rules(ws)


def test_the_type_checked_draft_text_edited_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_text(ws / "audits/def_mean/draft-1.lean", "(a + b) / 2", "(a + b) / 3")
    assert "gated-statement-mismatch" in rules(ws)


def test_a_gate_review_rewritten_in_its_file_is_rejected(copy_of):
    ws = copy_of("proportions")
    gate = ws / "audits/thm_inverse/gate-1.json"
    data = load(gate)
    data["review"]["fields"][0]["ok"] = False
    dump(gate, data)
    rehash(ws)
    assert "gate-record-mismatch" in rules(ws)


def test_an_issue_ruling_rewritten_in_its_file_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    ruling = ws / "audits/thm_product/issue.json"
    dump(ruling, load(ruling) | {"explanation": "the paper is fine"})
    assert "issue-ruling-mismatch" in rules(ws)


def test_a_review_rewritten_in_its_file_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    review = ws / "audits/thm_product/issue-review.json"
    dump(review, load(review) | {"explanation": "I agree with everything"})
    rehash(ws)
    assert "issue-review-mismatch" in rules(ws)


def test_a_renumbered_result_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e.update(number="9.9"))
    assert "record-inventory-mismatch" in rules(ws)


def test_a_named_evidence_file_that_does_not_exist_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(
        ws, "thm:product", lambda e: e["issue"]["evidence"].update(counterexample="lean/X.lean")
    )
    assert "evidence-missing" in rules(ws)


def test_an_audit_copy_edited_in_results_json_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e["work"]["audit"].update(findings=[]))
    assert "audit-record-mismatch" in rules(ws)


def test_an_issue_line_moved_off_the_quote_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "thm:product", lambda e: e["issue"]["location"].update(line=61))
    assert "issue-quote" in rules(ws)


def test_an_issue_summary_rewritten_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "thm:product", lambda e: e["issue"].update(summary="a typo"))
    assert "issue-ruling-mismatch" in rules(ws)


def test_an_obligation_skeleton_edited_in_results_json_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(
        ws, "thm:inverse", lambda e: e["work"]["obligations"][0].update(skeleton="theorem x : True")
    )
    assert "gated-statement-mismatch" in rules(ws)


def test_a_verdict_on_a_result_still_in_progress_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e.update(stage="proving"))
    assert "stage-verdict" in rules(ws)


def test_an_unfinished_verdict_without_its_reason_is_rejected(copy_of):
    ws = copy_of("budget")
    edit_record(ws, "thm:product", lambda e: e.update(unfinished=None))
    assert "verdict-inconsistent" in rules(ws)


def test_an_issue_verdict_without_an_issue_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "thm:product", lambda e: e.update(issue=None))
    assert {"issue-missing", "verdict-inconsistent"} <= rules(ws)


def test_an_issue_without_its_review_record_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(ws, "thm:product", lambda e: e["issue"]["evidence"].update(review=None))
    assert "issue-review-missing" in rules(ws)


def test_an_older_gate_round_cited_is_rejected(copy_of):
    ws = copy_of("proportions")
    folder = ws / "audits/thm_inverse"
    data = load(folder / "gate-1.json") | {"round": 2, "decision": "BLOCK"}
    dump(folder / "gate-2.json", data)
    assert "gate-not-latest" in rules(ws)


def test_a_verified_result_without_a_gate_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e["evidence"].update(gate=None))
    assert "gate-missing" in rules(ws)


def test_a_main_theorem_renamed_in_the_file_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_text(ws / "lean/Paper/Thm_inverse.lean", "theorem thm_inverse (", "theorem thm_inverse' (")
    rehash(ws)
    assert "lean-declaration-missing" in rules(ws)


def test_a_deleted_final_check_of_a_workspace_before_the_checker_is_rejected(copy_of):
    ws = copy_of(V1)
    (ws / "audits/lem_mean-max/final-check.json").unlink()
    assert {"final-check-missing", "hash-missing"} <= rules(ws)


def test_a_final_check_with_a_sorry_warning_is_rejected(copy_of):
    ws = copy_of(V1)
    path = ws / "audits/lem_mean-max/final-check.json"
    dump(path, load(path) | {"has_sorry_warning": True})
    rehash(ws)
    assert "final-check-unclean" in rules(ws)


def test_a_final_check_without_axioms_for_the_theorem_is_rejected(copy_of):
    ws = copy_of(V1)
    path = ws / "audits/lem_mean-max/final-check.json"
    dump(path, load(path) | {"axioms": {}})
    rehash(ws)
    assert "axioms-missing" in rules(ws)


def test_a_failed_final_audit_is_rejected(copy_of):
    ws = copy_of("proportions")
    path = ws / "audits/thm_inverse/final-audit.json"
    dump(path, load(path) | {"decision": "FAIL"})
    edit_record(ws, "thm:inverse", lambda e: e["work"]["audit"].update(decision="FAIL"))
    rehash(ws)
    assert "audit-not-passed" in rules(ws)


def test_a_conditional_verdict_on_an_unconditional_proof_is_rejected(copy_of):
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e.update(verdict="verified_conditional"))
    assert "conditional-without-conditions" in rules(ws)


def test_every_rule_id_is_exercised_by_a_test():
    from pathlib import Path

    from paperlint.validate.model import Check

    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py"))
    assert [c.value for c in Check if f'"{c.value}"' not in text] == []


def test_a_hand_upgrade_of_an_engine_audit_failure_is_rejected(copy_of):
    """Everything the audit re-derives was forged clean; the engine's own record of the
    failure was left as the engine wrote it."""
    ws = copy_of("proportions")
    edit_record(ws, "thm:inverse", lambda e: e["work"]["final"].update(clean=False))
    assert "engine-audit-failed" in rules(ws)


def test_a_counterexample_the_engine_did_not_accept_is_rejected(copy_of):
    ws = copy_of("sample-variance")
    edit_record(
        ws,
        "prop:square",
        lambda e: e["work"]["counterexample"].update(accepted=False),
    )
    assert "counterexample-unclean" in rules(ws)


def test_a_workspace_without_checker_evidence_is_validated_with_a_note_saying_so(copy_of):
    """A workspace from before the checker, or a new one stripped of every checker record and
    gate lock, validates on its files' own builds: `validate` says so and names `replay`."""
    from paperlint.validate.load import load_snapshot
    from paperlint.validate.validator import validate_with_notes

    assert validate_with_notes(load_snapshot(copy_of("sample-variance")))[1] == []
    old = validate_with_notes(load_snapshot(copy_of(V1)))[1]
    assert len(old) == 1 and "no trusted-checker evidence" in old[0] and "replay" in old[0]
