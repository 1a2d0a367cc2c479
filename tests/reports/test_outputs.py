import json
import re
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from paperlint.reports import write_report
from paperlint.reports.blueprint_tex import render_blueprint
from paperlint.reports.graph import MAX_PER_ROW, NODE_H, NODE_W, render_svg
from paperlint.reports.html import render_html
from paperlint.reports.jsonout import render_json
from paperlint.reports.load import load_workspace
from paperlint.reports.markdown import render_markdown
from paperlint.reports.sarif import render_sarif
from paperlint.reports.worksheet import render_files_to_check, render_worksheet
from tests.reports.workspace_factory import DIAGNOSTICS, build_workspace

SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")
SVG = "{http://www.w3.org/2000/svg}"


def test_write_report_writes_every_output(workspace):
    names = sorted(p.name for p in write_report(workspace))
    assert names == sorted(
        [
            "report.md",
            "report.html",
            "report.json",
            "report.sarif",
            "graph.svg",
            "worksheet.md",
            "files-to-check.md",
            "blueprint.tex",
        ]
    )
    assert all((workspace / "report" / n).is_file() for n in names)


def test_html_escapes_paper_text_and_loads_nothing_remote(workspace):
    page = render_html(load_workspace(workspace))
    assert "<img src=x" not in page and "<script>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert "<svg" in page and "<style>" in page


def test_html_shows_replay_banner_only_for_a_replay(tmp_path, workspace):
    assert 'class="banner"' in render_html(load_workspace(workspace))
    results = json.loads((workspace / "results.json").read_text())
    results.update(replay=False, replay_parts=[])
    (workspace / "results.json").write_text(json.dumps(results))
    (workspace / "events.jsonl").unlink()
    live = render_html(load_workspace(workspace))
    assert 'class="banner"' not in live and "REPLAY" not in live


def test_markdown_statement_cannot_close_its_code_block(workspace):
    inventory = json.loads((workspace / "inventory.json").read_text())
    inventory["results"][1]["statement"] = "x\n```\n# Injected heading\n```"
    (workspace / "inventory.json").write_text(json.dumps(inventory))
    text = render_markdown(load_workspace(workspace))
    assert "\n````latex\nx\n```\n# Injected heading\n```\n````" in text


def test_markdown_issue_shows_class_side_location_and_quote(workspace):
    text = render_markdown(load_workspace(workspace))
    section = text.split("### Lemma 2.4")[1].split("### ")[0]
    assert "- Issue class: ERROR" in section
    assert "- Side at fault: the paper" in section
    assert "- Location: `sections/main.tex:41`" in section
    assert "onerror" in section and "<script>" not in section


def test_graph_is_valid_svg_coloured_by_verdict_with_dashed_proof_uses(workspace):
    svg = render_svg(load_workspace(workspace))
    root = ElementTree.fromstring(svg)
    nodes = root.findall(f".//{SVG}g[@class='node']")
    assert len(nodes) == 9
    verdicts = {n.get("data-id"): n.get("data-verdict") for n in nodes}
    assert verdicts["lem:bad"] == "issue" and verdicts["def:mean"] == "input"
    statement = root.findall(f".//{SVG}path[@class='edge statement-use']")
    proof = root.findall(f".//{SVG}path[@class='edge proof-use']")
    assert all(p.get("stroke-dasharray") for p in proof)
    assert not any(p.get("stroke-dasharray") for p in statement)
    # thm:main uses lem:hoeff in its statement, lem:bad only in its proof
    assert len(statement) == 4 and len(proof) == 6


def _big_workspace(tmp_path: Path, n: int) -> Path:
    ws = build_workspace(tmp_path)
    inventory = json.loads((ws / "inventory.json").read_text())
    results = json.loads((ws / "results.json").read_text())
    template_inv, template_res = inventory["results"][1], results["results"][-2]
    for i in range(n):
        rid = f"lem:g{i}"
        uses = [f"lem:g{j}" for j in (i // 2, i // 3) if j < i]
        inventory["results"].append(
            {**template_inv, "id": rid, "labels": [rid], "number": f"9.{i}", "uses": uses}
        )
        results["results"].append({**template_res, "id": rid, "number": f"9.{i}"})
    (ws / "inventory.json").write_text(json.dumps(inventory))
    (ws / "results.json").write_text(json.dumps(results))
    return ws


def test_graph_of_200_results_has_no_overlapping_nodes(tmp_path):
    svg = render_svg(load_workspace(_big_workspace(tmp_path, 200)))
    root = ElementTree.fromstring(svg)
    boxes = [
        (float(r.get("x")), float(r.get("y")))
        for r in root.findall(f".//{SVG}g[@class='node']/{SVG}rect")
    ]
    assert len(boxes) == 209 and len(set(boxes)) == 209
    width = float(root.get("width"))
    assert width <= 2 * 16 + MAX_PER_ROW * (NODE_W + 18)
    rows = sorted({y for _, y in boxes})
    assert all(b - a >= NODE_H for a, b in zip(rows, rows[1:], strict=False))


def test_sarif_is_valid_and_located_at_the_tex_line(workspace):
    sarif = render_sarif(load_workspace(workspace))
    # Not jsonschema.validate: the official schema's `language` pattern puts `(?i)` after `^`,
    # which Python's re refuses, so checking the schema itself fails. The instance check only
    # compiles patterns of properties present, and we set no `language`.
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    errors = [e.message for e in validator.iter_errors(sarif)]
    assert errors == []
    results = sarif["runs"][0]["results"]
    by_rule = {r["ruleId"]: r for r in results}
    # issues one by one; every unfinished result in ONE note (they are not findings); each
    # preflight diagnostic at its place, under its code
    diagnostics = {f"preflight/{d.code}" for d in DIAGNOSTICS}
    assert set(by_rule) == {"ERROR", "PAPER_ARGUMENT_GAP", "unfinished", *diagnostics}
    assert len(results) == 3 + len(DIAGNOSTICS)
    levels = {rule: by_rule[rule]["level"] for rule in diagnostics}
    assert levels == {
        "preflight/unterminated-environment": "error",
        "preflight/duplicate-label": "warning",
        "preflight/undefined-reference": "warning",
        "preflight/includeonly": "note",
    }
    place = by_rule["preflight/undefined-reference"]["locations"][0]["physicalLocation"]
    assert place["artifactLocation"]["uri"] == "sections/intro.tex"
    assert place["region"] == {"startLine": 3, "startColumn": 12}
    # only the file is known: line 1, as code scanning wants a region
    only_file = by_rule["preflight/includeonly"]["locations"][0]["physicalLocation"]
    assert only_file["region"] == {"startLine": 1}
    assert by_rule["preflight/duplicate-label"]["message"]["text"].endswith("[duplicate-label]")
    assert by_rule["ERROR"]["level"] == "error"
    assert by_rule["PAPER_ARGUMENT_GAP"]["level"] == "warning"
    note = by_rule["unfinished"]
    assert note["level"] == "note" and note["properties"]["count"] == 2
    assert note["properties"]["reasons"] == {
        "budget_exhausted": 1,
        "missing_library_interface": 1,
    }
    location = by_rule["ERROR"]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "sections/main.tex"
    assert location["region"]["startLine"] == 41
    for rule in sarif["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["fullDescription"]["text"] and rule["help"]["text"]
        assert rule["helpUri"].startswith("https://") and rule["name"].lower() != rule["id"].lower()
    assert sarif["runs"][0]["tool"]["driver"]["informationUri"].startswith("https://")


def test_blueprint_export_annotates_lean_names_leanok_and_uses(workspace):
    tex = render_blueprint(load_workspace(workspace))
    lemma = tex.split("\\label{lem:hoeff}")[1].split("\\end{proof}")[0]
    statement, proof = lemma.split("\\end{lemma}")
    assert "\\lean{Paper.lemma_2_2}\\leanok" in statement
    # conditional: the statement is formalised, the proof is not marked as formalised outright
    assert "\\begin{proof}\n" in proof and "\\uses{lem:var}" in proof
    assert "\\uses" not in statement
    bad = tex.split("\\label{lem:bad}")[1].split("\\end{proof}")[0]
    assert "\\leanok" not in bad and "\\uses{def:mean}" in bad.split("\\end{lemma}")[0]
    assert tex.count("\\begin{proof}") == 8  # the definition is an input: no proof


def test_worksheet_lists_every_external_input_with_its_source_and_use(workspace):
    text = render_worksheet(load_workspace(workspace))
    cited = text.split("## 1. ")[1].split("## 2. ")[0]
    assert "W. Hoeffding, Probability inequalities" in cited
    assert "- Locator: Theorem 2" in cited
    assert "- Lean hypothesis: `h_cite_hoeffding : ∀ n, True`" in cited
    assert "Lemma 2.2 (lem:hoeff), step 2" in cited
    assert "h\\_asserted\\_bound" in text and "h\\_missing\\_mgf" in text
    assert "## Inputs from other results of this paper" in text
    assert text.count("- [ ] checked") == 4


def test_files_to_check_name_each_statement_file_and_its_claim(workspace):
    text = render_files_to_check(load_workspace(workspace))
    assert "## `lean/Paper/Lemma_2_1.lean`" in text
    assert "Lemma 2.1 (`lem:var`) — verified unconditionally" in text
    assert "theorem lemma_2_1 (c : ℝ)" in text
    assert "## `lean/Paper/Lemma_2_4_cex.lean`" in text


@pytest.mark.parametrize("missing", ["events", "toml", "inventory"])
def test_every_output_renders_when_an_optional_file_is_missing(tmp_path, missing):
    ws = build_workspace(tmp_path, **{missing: False})
    paths = write_report(ws)
    assert len(paths) == 8
    md = (ws / "report" / "report.md").read_text()
    assert "What this report could not show" in md


def test_error_shows_the_claim_its_counterexample_proves(workspace):
    data = load_workspace(workspace)
    claim = "theorem Paper.lemma_2_4_counterexample : ¬ (∀ n : ℕ, n ≤ 2 * n - 1)"
    assert data.view("lem:bad").counterexample == claim
    assert claim in render_markdown(data)
    assert "¬ (∀ n : ℕ, n ≤ 2 * n - 1)" in render_html(data)


def test_bibliography_tex_is_shown_as_plain_text():
    from paperlint.reports.describe import plain_tex

    raw = r"J.~M. Steele, \emph{The Cauchy--Schwarz Master Class}, {Cambridge} Univ.\ Press \& Co"
    assert (
        plain_tex(raw)
        == "J. M. Steele, The Cauchy–Schwarz Master Class, Cambridge Univ. Press & Co"
    )


def test_worksheet_lists_planned_citations_no_hypothesis_covers(workspace):
    entries = [
        {
            "id": "cor:budget",
            "external_inputs": [
                {"key": "vaart1998", "locator": "Lemma~19.3", "bib_text": "A. W. van der Vaart"}
            ],
        },
        {"id": "lem:hoeff", "external_inputs": [{"key": "hoeffding1963"}]},  # covered
    ]
    (workspace / "blueprint.json").write_text(json.dumps({"entries": entries}))
    text = render_worksheet(load_workspace(workspace))
    uncovered = text.split("## Citations not (yet) stated as Lean hypotheses")[1]
    assert "\\[vaart1998\\], Lemma 19.3 — A. W. van der Vaart" in uncovered
    assert "Corollary 2.6 (`cor:budget`), unfinished" in uncovered
    assert "hoeffding1963" not in uncovered


def test_html_graph_nodes_link_to_their_results(workspace):
    page = render_html(load_workspace(workspace))
    assert '<a href="#r-lem-bad">' in page and 'id="r-lem-bad"' in page
    assert "<a href" not in render_svg(load_workspace(workspace))  # graph.svg stands alone


def test_graph_nodes_carry_the_kind_so_per_kind_counters_stay_apart(workspace):
    """A paper numbering each kind apart has a Lemma 2 and a Theorem 2: two nodes, two labels."""
    inventory = json.loads((workspace / "inventory.json").read_text())
    results = json.loads((workspace / "results.json").read_text())
    first, second = inventory["results"][1], inventory["results"][2]
    first.update(title="Lemma", number="2")
    second.update(title="Theorem", number="2")
    for record in results["results"]:
        if record["id"] in (first["id"], second["id"]):
            record["number"] = "2"
    (workspace / "inventory.json").write_text(json.dumps(inventory))
    (workspace / "results.json").write_text(json.dumps(results))
    root = ElementTree.fromstring(render_svg(load_workspace(workspace)))
    labels = {
        g.get("data-id"): g.find(f"{SVG}text").text
        for g in root.iter(f"{SVG}g")
        if g.get("data-id")
    }
    assert labels[first["id"]] == "Lemma 2" and labels[second["id"]] == "Thm. 2"
    # every node says its kind ("Claim" alone: the paper prints no number for it)
    assert all(re.fullmatch(r"[A-Z][a-z]+\.?( [\d.]+)?", text) for text in labels.values())


def test_preflight_diagnostics_reach_the_markdown_html_and_json_reports(workspace):
    """inventory.json's diagnostics (#28): every output lists each one, errors first, the
    paper's text in them escaped."""
    data = load_workspace(workspace)
    lines = [d.render() for d in DIAGNOSTICS]
    markdown = render_markdown(data)
    section = markdown.split("## Preflight diagnostics", 1)[1].split("\n## ", 1)[0]
    assert [line for line in section.splitlines() if ": " in line and "[" in line] == lines
    page = render_html(data)
    rows = re.findall(
        r'<tr data-severity="(\w+)"><td class="severity">\w+</td><td><code>([^<]*)<', page
    )
    assert rows == [
        ("error", "main.tex:95:1"),
        ("warning", "main.tex:41:7"),
        ("warning", "sections/intro.tex:3:12"),
        ("info", "main.tex"),
    ]
    assert "defined again &lt;b&gt;" in page and "defined again <b>" not in page
    report = json.loads(json.dumps(render_json(data)))
    assert [(d["severity"], d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        (d.severity, d.code, d.line, d.column) for d in DIAGNOSTICS
    ]


def test_a_paper_without_diagnostics_has_no_diagnostics_section(workspace):
    inventory = json.loads((workspace / "inventory.json").read_text())
    inventory["diagnostics"] = []
    (workspace / "inventory.json").write_text(json.dumps(inventory))
    data = load_workspace(workspace)
    assert "Preflight diagnostics" not in render_markdown(data)
    assert 'id="diagnostics"' not in render_html(data)
