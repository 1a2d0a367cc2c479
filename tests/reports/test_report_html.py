"""The HTML report as a reader meets it: title, rendered math, bodies, links, large papers."""

import json
import re
from pathlib import Path

from paperlint.reports.graph import GROUP_AT
from paperlint.reports.html import render_html
from paperlint.reports.load import load_workspace


def test_title_is_the_papers_and_the_other_pages_are_linked(example):
    html = (example / "report" / "report.html").read_text()
    assert "<title>paperlint report: Means of two numbers</title>" in html
    for page in ("report.md", "worksheet.md", "files-to-check.md", "report.sarif"):
        assert f'href="{page}"' in html
        assert (example / "report" / page).is_file()


def test_statements_are_mathml_with_the_papers_macro_expanded(example):
    html = (example / "report" / "report.html").read_text()
    assert html.count("<math") >= 10
    statements = re.findall(r'<div class="statement">(.*?)</div>', html, re.S)
    assert len(statements) == 5
    assert all("\\mean" not in s and "\\label" not in s for s in statements)
    assert "<mi>m</mi>" in statements[0]  # \newcommand{\mean}{m}
    # the TeX stays one click away
    assert html.count('<details class="source">') == 5


def test_a_definition_shows_its_body(example):
    html = (example / "report" / "report.html").read_text()
    assert "noncomputable def paperMean (a b : ℝ) : ℝ := (a + b) / 2" in html
    files = (example / "report" / "files-to-check.md").read_text()
    assert ":= (a + b) / 2" in files


def test_evidence_files_are_links_that_resolve_inside_the_workspace(example):
    html = (example / "report" / "report.html").read_text()
    hrefs = re.findall(r'href="(\.\./[^"]+)"', html)
    assert len(hrefs) >= 10
    for href in hrefs:
        target = (example / "report" / href).resolve()
        assert target.is_relative_to(example.resolve()) and target.is_file(), href


def _unfinished_workspace(tmp_path: Path, n: int, sections: int) -> Path:
    """`n` unfinished results in `sections` sections, all with one long reason."""
    from tests.reports.workspace_factory import build_workspace

    ws = build_workspace(tmp_path)
    inventory = json.loads((ws / "inventory.json").read_text())
    results = json.loads((ws / "results.json").read_text())
    template_inv = inventory["results"][1]
    template_res = next(r for r in results["results"] if r.get("unfinished"))
    reason = dict(
        template_res["unfinished"], detail=f"Lean is not set up: no {ws.resolve()}/x.olean"
    )
    for i in range(n):
        rid, number = f"lem:g{i}", f"{i % sections + 1}.{i}"
        uses = [f"lem:g{j}" for j in (i // 2, i // 3) if j < i]
        inventory["results"].append(
            {**template_inv, "id": rid, "labels": [rid], "number": number, "uses": uses}
        )
        results["results"].append(
            {**template_res, "id": rid, "number": number, "unfinished": reason}
        )
    (ws / "inventory.json").write_text(json.dumps(inventory))
    (ws / "results.json").write_text(json.dumps(results))
    return ws


def test_a_large_paper_gets_an_overview_and_a_collapsible_graph_per_section(tmp_path):
    html = render_html(load_workspace(_unfinished_workspace(tmp_path, 210, 7)))
    groups = re.findall(
        r'<details class="section-graph" id="([^"]+)" data-section="([^"]*)">', html
    )
    assert len(groups) >= 7
    assert 'class="depgraph overview"' in html
    # every section box of the overview links to its section's graph
    for anchor, _key in groups:
        assert f'href="#{anchor}"' in html
    # each result is drawn once as its own section's node (others are faint context)
    own = re.findall(r'<g class="node" data-id="([^"]+)" data-verdict="[^"]+">', html)
    assert len(own) == len(set(own)) == 210 + 9


def test_a_small_paper_keeps_one_graph(example):
    html = (example / "report" / "report.html").read_text()
    assert '<details class="section-graph"' not in html and 'class="depgraph"' in html
    assert len(load_workspace(example).views) <= GROUP_AT


def test_a_shared_reason_is_stated_once_with_relative_paths(tmp_path):
    ws = _unfinished_workspace(tmp_path, 50, 3)
    html = render_html(load_workspace(ws))
    assert html.count("Lean is not set up") == 1
    assert str(ws.resolve()) not in html and "no x.olean" in html
    shared = re.search(
        r'<div class="unfinished shared" id="(shared-\d)" data-results="(\d+)"', html
    )
    assert shared and int(shared.group(2)) == 50
    assert html.count(f'data-shared="{shared.group(1)}"') == 50


def test_report_files_are_readable_by_others_as_the_umask_allows(example):
    import os
    import stat

    umask = os.umask(0o022)
    try:
        from paperlint.reports.write import write_all

        for path in write_all(example):
            assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    finally:
        os.umask(umask)


def test_replay_misses_and_strategy_details_are_collapsed_out_of_the_readers_way(example):
    """The example replay has no answer for the convergence review: the report says so in
    plain words among the technical details, never as the raw key and transcript path, and
    each result's prover strategy sits in its own collapsed section."""
    html = (example / "report" / "report.html").read_text()
    markdown = (example / "report" / "report.md").read_text()
    for page in (html, markdown):
        assert "replay transcript has no entry" not in page and "/fixtures/" not in page
        assert "the replay holds no recorded answer for this step (convergence)" in page
    technical = re.findall(r'<details class="technical">(.*?)</details>', html, re.S)
    assert len(technical) == 1 + 4  # the run's, and one per verdict-bearing result
    assert "Technical details of this run" in technical[0] and "task=convergence" in technical[0]
    outside = re.sub(r'<details class="technical">.*?</details>', "", html, flags=re.S)
    assert "Strategy:" not in outside and "task=convergence" not in outside
    assert "Strategy:" in technical[1]
    assert markdown.count("<details><summary>Technical details") == 5
