import json

import pytest

from paperlint.errors import InputError
from paperlint.reports.lean_text import find_declaration
from paperlint.reports.load import load_workspace, wall_time
from paperlint.reports.summary import cost_line, format_usd, verdict_counts
from tests.reports.workspace_factory import LEAN_2_1, build_workspace


def test_views_follow_document_order_not_record_order(workspace):
    data = load_workspace(workspace)
    assert [v.id for v in data.views] == [
        "def:mean",
        "lem:var",
        "lem:hoeff",
        "lem:bad",
        "thm:main",
        "prop:gap",
        "cor:budget",
        "lem:lib",
        "claim:open",
    ]


def test_lean_statement_is_read_from_the_file_the_evidence_names(workspace):
    data = load_workspace(workspace)
    statement = data.view("lem:var").lean_statement
    assert statement.startswith("theorem lemma_2_1 (c : ℝ)")
    assert statement.endswith("/ n = 0")
    assert ":= by" not in statement
    assert data.view("cor:budget").lean_statement is None


def test_missing_lean_file_becomes_a_note_not_a_crash(workspace):
    data = load_workspace(workspace)
    assert data.view("thm:main").lean_statement is None
    assert any("Theorem_2_3.lean" in note for note in data.notes)


def test_wall_time_sums_runs_and_skips_idle_time_between_them(workspace):
    data = load_workspace(workspace)
    assert data.wall_s == pytest.approx(40 * 60)


def test_wall_time_is_unknown_without_events():
    assert wall_time([]) is None


def test_replay_and_versions_are_loaded(workspace):
    data = load_workspace(workspace)
    assert data.is_replay
    assert data.replay_parts == ["lean", "model"]
    assert data.versions["lean_toolchain"] == "leanprover/lean4:v4.22.0"
    assert data.versions["models.gate"] == "anthropic/claude-opus"


def test_unknown_cost_is_never_summed_as_zero(workspace):
    data = load_workspace(workspace)
    total = cost_line("total", data.calls)
    assert total.unknown_calls == 1
    assert total.cost_usd is None
    assert format_usd(total) == "$7.75 + unknown (1 call)"
    only_unknown = cost_line("x", [c for c in data.calls if c.cost_usd is None])
    assert format_usd(only_unknown) == "unknown"


def test_optional_files_may_be_missing(tmp_path):
    ws = build_workspace(tmp_path, events=False, toml=False, inventory=False)
    data = load_workspace(ws)
    assert data.calls == [] and data.wall_s is None and data.versions == {}
    assert data.inventory is None
    joined = " ".join(data.notes)
    assert "events.jsonl is missing" in joined
    assert "paperlint.toml is missing" in joined
    assert "inventory.json is missing" in joined
    assert verdict_counts(data)["issue"] == 2


def test_blueprint_supplies_planned_names_and_edges(workspace):
    blueprint = {
        "schema": "paperlint.blueprint/1",
        "entries": [
            {
                "id": "cor:budget",
                "lean_name": "Paper.cor_2_6",
                "lean_file": "lean/Paper/Corollary_2_6.lean",
                "statement_uses": ["lem:var"],
                "proof_uses": [],
            }
        ],
    }
    (workspace / "blueprint.json").write_text(json.dumps(blueprint))
    data = load_workspace(workspace)
    view = data.view("cor:budget")
    assert data.has_blueprint
    assert view.lean_name == "Paper.cor_2_6"
    assert view.statement_uses == ["lem:var"]
    # A planned name is not evidence: the Lean statement is only read for recorded evidence.
    assert view.lean_statement is None


def test_a_folder_without_results_is_not_a_workspace(tmp_path):
    with pytest.raises(InputError, match="not a paperlint workspace"):
        load_workspace(tmp_path)


def test_evidence_path_outside_the_workspace_is_not_read(workspace):
    results = json.loads((workspace / "results.json").read_text())
    for record in results["results"]:
        if record["id"] == "lem:var":
            record["evidence"]["lean_file"] = "../../../etc/passwd"
    (workspace / "results.json").write_text(json.dumps(results))
    data = load_workspace(workspace)
    assert data.view("lem:var").lean_statement is None


def test_find_declaration_matches_full_name_not_a_prefix():
    assert find_declaration(LEAN_2_1, "Paper.lemma_2_1_aux") == "theorem lemma_2_1_aux : True"
    assert find_declaration(LEAN_2_1, "Paper.missing") is None


def test_find_declaration_ignores_comments_and_nested_assignments():
    source = (
        "/- theorem foo : False := sorry -/\n"
        "-- theorem foo : False\n"
        "@[simp] theorem foo (f : ℕ → ℕ := fun n => n) (h : ∀ x, f x = x) :\n"
        "    f 1 = 1 := h 1\n"
        "def bar : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => n\n"
    )
    assert find_declaration(source, "foo") == (
        "@[simp] theorem foo (f : ℕ → ℕ := fun n => n) (h : ∀ x, f x = x) :\n    f 1 = 1"
    )
    assert find_declaration(source, "bar") == "def bar : ℕ → ℕ"


@pytest.mark.parametrize(
    ("spend", "shown"),
    [
        (None, "- Model calls: {made}\n"),  # no spend.json: the calls made
        ("{made}", "- Model calls: {made}\n"),  # every charged request answered
        (
            "{more}",
            "- Model calls: {made} ({more} charged to the budget: 1 request was charged and "
            "never answered)\n",
        ),
        (
            "{more2}",
            "- Model calls: {made} ({more2} charged to the budget: 2 requests were charged "
            "and never answered)\n",
        ),
    ],
)
def test_the_report_says_when_the_budget_was_charged_for_unanswered_requests(
    tmp_path, spend, shown
):
    from paperlint.reports.markdown import render_markdown

    ws = build_workspace(tmp_path)
    made = len(load_workspace(ws).calls)
    numbers = {"made": made, "more": made + 1, "more2": made + 2}
    if spend is not None:
        calls = int(spend.format(**numbers))
        (ws / "spend.json").write_text(json.dumps({"calls": calls, "cost_usd": 0.0}) + "\n")
    assert shown.format(**numbers) in render_markdown(load_workspace(ws))
