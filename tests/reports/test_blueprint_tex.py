"""The leanblueprint export: our annotations replace the paper's, and nothing is invented."""

import json

from paperlint.records.results import Verdict
from paperlint.reports.blueprint_tex import render_blueprint
from paperlint.reports.load import load_workspace
from tests.reports.workspace_factory import build_workspace


def _with_paper_bookkeeping(tmp_path):
    ws = build_workspace(tmp_path)
    inventory = json.loads((ws / "inventory.json").read_text())
    for result in inventory["results"]:
        label = result["labels"][0] if result["labels"] else result["id"]
        result["statement"] = (
            f"\\label{{{label}}}\\lean{{Paper.planned_{len(result['id'])}}}\\leanok\n"
            + result["statement"]
        )
    inventory["macros"] = [
        {"name": "\\mean", "definition": "m", "arity": 0},
        {"name": "\\x", "definition": "x_{#1}", "arity": 1,
         "params": [{"kind": "o", "default": "k"}]},
        {"name": "\\abs", "definition": "\\left| #3\\right|", "arity": 2,
         "params": [{"kind": "s"}, {"kind": "o"}, {"kind": "m"}]},
    ]  # fmt: skip
    inventory["bibliography"] = [{"key": "hoeffding1963", "text": "W. Hoeffding, 1963."}]
    (ws / "inventory.json").write_text(json.dumps(inventory))
    return ws


def test_each_label_once_and_the_papers_leanok_never_carried_over(tmp_path):
    data = load_workspace(_with_paper_bookkeeping(tmp_path))
    tex = render_blueprint(data)
    for view in data.views:
        label = view.source.labels[0] if view.source.labels else view.id
        assert tex.count(f"\\label{{{label}}}") == 1, label
    # \leanok on a proof only where paperlint verified it unconditionally: leanblueprint reads a
    # proof's \leanok as "formalised" and propagates "fully proved", which a conditional is not
    unconditional = [v for v in data.views if v.record.verdict is Verdict.VERIFIED_UNCONDITIONAL]
    assert unconditional and tex.count("\\begin{proof}\\leanok") == len(unconditional)


def test_lean_names_exist_or_are_the_papers_own_plan(tmp_path):
    data = load_workspace(_with_paper_bookkeeping(tmp_path))
    tex = render_blueprint(data)
    for view in data.views:
        block = tex.split(f"\\label{{{view.source.labels[0] if view.source.labels else view.id}}}")[
            1
        ]
        block = block.split("\\end{", 1)[0]
        if view.lean_statement is not None and view.record.evidence.lean_name:
            assert f"\\lean{{{view.record.evidence.lean_name}}}" in block
        else:  # no declaration in the evidence: the paper's planned name, never one we made up
            assert f"\\lean{{Paper.planned_{len(view.id)}}}" in block
            assert "\\leanok" not in block


def test_macros_bibliography_and_conditional_marks_are_carried(tmp_path):
    data = load_workspace(_with_paper_bookkeeping(tmp_path))
    tex = render_blueprint(data)
    assert "\\providecommand{\\mean}{m}" in tex
    # an optional first argument keeps its default; a starred one `\\providecommand` cannot
    # state is left out (the exported text does not rely on the paper's macros)
    assert "\\providecommand{\\x}[1][k]{x_{#1}}" in tex
    assert "\\providecommand{\\abs}" not in tex
    assert "\\bibitem{hoeffding1963} W. Hoeffding, 1963." in tex
    assert tex.rstrip().endswith("\\end{thebibliography}")
    conditional = [v for v in data.views if v.record.verdict and v.record.conditions]
    assert conditional
    assert tex.count("\\textit{(paperlint: verified conditionally on") == len(conditional)
