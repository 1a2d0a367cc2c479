"""The leanblueprint project export, and its real plasTeX build (skipped without the extra).

The build tests check the HTML plasTeX writes: every result present under its label, the
number TeX Live gives it in the paper, leanblueprint's check mark only on what paperlint
verified, and graph marks that tell the four verdicts apart.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.records.results import Verdict
from paperlint.reports.blueprint_build import build_web, plastex_available, write_project
from paperlint.reports.blueprint_web import render_project
from paperlint.reports.load import load_workspace
from paperlint.reports.texsafe import allowed_commands, make_safe
from tests.reports.workspace_factory import build_workspace

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "sample-variance"
needs_plastex = pytest.mark.skipif(
    not plastex_available(),
    reason="plasTeX/leanblueprint absent: pip install 'paperlint[blueprint]'",
)
needs_latexmk = pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")

# leanblueprint's graph colours (its Packages/blueprint.py defaults)
STATED, NOT_READY = "green", "#FFAA33"
PROOF_DONE = {"#9CEC8B", "#1CAC78"}  # proved / proved with every ancestor


def _label(view) -> str:
    return view.source.labels[0] if view.source and view.source.labels else view.id


def _graph_nodes(web: Path) -> dict[str, dict[str, str]]:
    """Each node of the graph page's SVG (laid out at build time): its border `color`, its
    `fillcolor` (as leanblueprint's dot names them; absent when it has none) and `label`."""
    page = (web / "dep_graph_document.html").read_text()
    assert "renderDot(" not in page, "the graph is left for the browser to lay out"
    nodes = {}
    for m in re.finditer(
        r'<g id="node\d+" class="node">\s*<title>([^<]*)</title>(.*?)</g>', page, re.S
    ):
        shape = re.search(r'<(?:ellipse|polygon)[^>]*fill="([^"]*)" stroke="([^"]*)"', m.group(2))
        text = re.search(r"<text[^>]*>([^<]*)</text>", m.group(2))
        assert shape and text, m.group(0)
        fill, stroke = (c.upper() if c.startswith("#") else c for c in shape.groups())
        node = {"label": html.unescape(text.group(1))}
        node |= {"color": stroke} if stroke != "black" else {}
        node |= {"fillcolor": fill} if fill != "none" else {}
        nodes[html.unescape(m.group(1))] = node
    return nodes


def _assert_offline(web: Path) -> None:
    """Every page opens from file:// with nothing fetched: no MathJax, no remote or WebAssembly
    script, every formula MathML, the graph an inline SVG whose clicks the page still wires."""
    for page in web.glob("*.html"):
        text = page.read_text()
        # loaded resources are local (a link to Mathlib's documentation is only a link)
        assert not re.search(r"""src=["'](https?:)?//|<link[^>]*href=["'](https?:)?//""", text)
        assert "MathJax" not in text and "hpcc" not in text and "d3-graphviz" not in text
        body = re.sub(r"<script\b.*?</script>", "", text, flags=re.S)
        assert "\\(" not in body and "\\[" not in body, page.name  # no formula left as TeX
        assert "<math" in text, page.name
    graph = (web / "dep_graph_document.html").read_text()
    assert '<div id="graph"><svg' in graph and "interactive();" in graph


def _html_results(web: Path) -> dict[str, dict[str, object]]:
    """Per result id in index.html: the number plasTeX printed and whether it shows the ✓."""
    html = (web / "index.html").read_text()
    out: dict[str, dict[str, object]] = {}
    blocks = re.split(r'(?=<div class="\w+_thmwrapper[^"]*" id=")', html)
    for block in blocks[1:]:
        rid = re.match(r'<div class="\w+_thmwrapper[^"]*" id="([^"]+)"', block)
        number = re.search(r'thmlabel">([^<]*)<', block)
        assert rid, block[:300]
        heading = "".join(block.split("</div>", 2)[0:2])
        number = re.search(r'thmlabel">([^<]*)<', heading)
        out[rid.group(1)] = {"number": number.group(1) if number else None, "check": "✓" in heading}
    return out


# ------------------------------------------------------------------------- the project files


def test_project_has_leanblueprints_layout_and_each_result_once_with_its_number(workspace):
    data = load_workspace(workspace)
    files = render_project(data)
    assert set(files) == {
        "web.tex", "print.tex", "content.tex", "plastex.cfg",
        "macros/common.tex", "macros/web.tex", "macros/print.tex", "graph-labels.json",
    }  # fmt: skip
    content = files["content.tex"]
    for view in data.views:
        assert content.count(f"\\label{{{_label(view)}}}") == 1
        block = content.split(f"\\label{{{_label(view)}}}")[0].rsplit("\\renewcommand", 1)[1]
        assert block.startswith(f"{{\\theplresult}}{{{view.number or ''}}}")  # unnumbered: none
    thms = "definition+lemma+theorem+proposition+corollary+claim"
    assert f"\\usepackage[dep_graph, thms={thms}]{{blueprint}}" in files["web.tex"]
    assert "\\newtheorem{lemma}[plresult]{Lemma}" in files["macros/common.tex"]
    assert (
        "imager=none" in files["plastex.cfg"]
        and "plugins=plastexdepgraph leanblueprint" in (files["plastex.cfg"])
    )


def test_verdicts_map_onto_leanblueprints_marks(workspace):
    content = render_project(load_workspace(workspace))["content.tex"]

    def block(label: str) -> str:
        return content.split(f"\\label{{{label}}}")[1].split("\\renewcommand", 1)[0]

    assert "\\leanok" in block("lem:var").split("\\begin{proof}")[0]
    assert "\\begin{proof}\\leanok" in block("lem:var")
    hoeff = block("lem:hoeff")  # conditional: statement formalised, proof not marked
    assert "\\leanok" in hoeff.split("\\begin{proof}")[0] and "\\begin{proof}\\leanok" not in hoeff
    bad = block("lem:bad")
    assert "\\notready" in bad and "\\leanok" not in bad


# ------------------------------------------------------------------------- hostile paper text

RAW = r"\paperlintraw{\textbackslash{}"  # an unknown command, shown as its escaped source
HOSTILE = [
    (r"\input{/etc/passwd}", RAW + r"input\{/etc/passwd\}}"),
    (r"\lstinputlisting{/etc/passwd}", RAW + r"lstinputlisting\{/etc/passwd\}}"),
    (
        r"\usepackage{xr}\externaldocument{x}",
        RAW + r"usepackage\{xr\}}" + RAW + r"externaldocument\{x\}}",
    ),
    (r"\csname input\endcsname{x}", RAW + "csname} input" + RAW + r"endcsname\{x\}}"),
    (
        r"\begin{filecontents}{a.tex}x\end{filecontents}",
        "begin{filecontents}{a.tex}xend{filecontents}",
    ),
    (r"^^5cinput{x}", "^{}^5cinput{x}"),
    (r"\makeatletter\@@input x", RAW + "makeatletter}" + RAW + "@@input} x"),
    (r"\def\x{1}\catcode`\|=0", RAW + "def}" + RAW + r"x\{1\}}" + RAW + r"catcode}`\|=0"),
    # kept: mathematics, the paper's own macro, a line break before letters
    (r"$\alpha \le \mean(a) \\ \frac{1}{2}$", r"$\alpha \le \mean(a) \\ \frac{1}{2}$"),
    (r"\\input x", r"\\input x"),
    (r"\begin{align*} a &= b \end{align*}", r"\begin{align*} a &= b \end{align*}"),
]


@pytest.mark.parametrize(("text", "safe"), HOSTILE)
def test_paper_text_keeps_only_allowlisted_commands(text, safe):
    assert make_safe(text, commands=allowed_commands(["\\mean"])) == safe


def test_no_file_definition_or_catcode_command_is_on_the_allowlist():
    allowed = allowed_commands()
    for name in ("input", "include", "InputIfFileExists", "openin", "read", "readline", "csname",
                 "catcode", "def", "edef", "gdef", "let", "newcommand", "renewcommand",
                 "usepackage", "RequirePackage", "write", "immediate", "special", "openout",
                 "externaldocument", "lstinputlisting", "verbatiminput", "includegraphics",
                 "makeatletter", "expandafter", "href", "url"):  # fmt: skip
        assert name not in allowed, name


def _hostile_workspace(tmp_path: Path, secret: Path, *, shadow: bool = False) -> Path:
    """Paper text that names `secret` through \\input, \\lstinputlisting and a macro; with
    `shadow`, the paper also defines a macro named \\input."""
    ws = build_workspace(tmp_path / "ws")
    inventory = json.loads((ws / "inventory.json").read_text())
    inventory["results"][1]["statement"] += f" \\input{{{secret}}} \\lstinputlisting{{{secret}}}"
    inventory["macros"] = [{"name": "\\leak", "definition": f"\\input{{{secret}}}", "arity": 0}]
    if shadow:
        inventory["macros"].insert(0, {"name": "\\input", "definition": "X", "arity": 1})
    inventory["results"][2]["statement"] += " \\leak"
    (ws / "inventory.json").write_text(json.dumps(inventory))
    return ws


@pytest.mark.parametrize("shadow", [False, True], ids=["plain", "paper-defines-input"])
def test_a_paper_macro_cannot_smuggle_a_file_command(tmp_path, shadow):
    secret = tmp_path / "secret.tex"
    files = render_project(load_workspace(_hostile_workspace(tmp_path, secret, shadow=shadow)))
    common, content = files["macros/common.tex"], files["content.tex"]
    # The text does not rely on the definitions: the paper's macros are expanded into it (a
    # \providecommand{\input} would leave the built-in \input in force), then allowlisted.
    shown = f"\\{{{secret}\\}}}}".replace("_", "\\_")  # the path, escaped in \paperlintraw{}
    assert f"\\providecommand{{\\leak}}{{{RAW}input{shown}}}" in common
    assert "\\leak" not in content and f"\\input{{{secret}}}" not in content
    assert f"{RAW}lstinputlisting{shown}" in content and "\\lstinputlisting{" not in content
    if not shadow:
        assert f"{RAW}input{shown}" in content  # shown as text, not run


# ------------------------------------------------------------------------- the real build


@needs_plastex
@needs_latexmk
def test_example_blueprint_builds_offline_with_the_papers_numbers(example, tmp_path):
    from paperlint.preflight.latexrun import CompileStatus, compile_project

    folder = tmp_path / "blueprint"
    assert run(["report", str(example), "--format", "blueprint-web", "-o", str(folder)]) == 0
    web = folder / "web"
    html = _html_results(web)
    data = load_workspace(example)
    tex_live = compile_project(FIXTURE, "paper.tex").aux.numbers()  # ground truth
    assert {_label(v) for v in data.views} == set(html)  # every result, nothing else
    for view in data.views:
        assert html[_label(view)]["number"] == tex_live[_label(view)] == view.number
    # leanblueprint's ✓: statement (and proof, when there is one) formalised
    checked = {rid for rid, r in html.items() if r["check"]}
    assert checked == {"def:mean", "lem:mean-max"}  # the definition and the unconditional one
    # The printed blueprint keeps the numbers too (TeX Live on print.tex).
    printed = compile_project(folder / "src", "print.tex")
    assert printed.status is CompileStatus.OK, printed.errors
    numbers = printed.aux.numbers()
    assert {k: numbers[k] for k in html} == {k: tex_live[k] for k in html}
    nodes = _graph_nodes(web)
    # the nodes say the kind and number, as the report's graph does (not "mean-max")
    assert {k: n["label"] for k, n in nodes.items()} == {
        "def:mean": "Def. 1.1",
        "lem:mean-max": "Lemma 2.1",
        "lem:mean-square": "Lemma 2.2",
        "prop:square": "Prop. 2.3",
        "thm:product": "Thm. 2.4",
    }
    _assert_offline(web)
    assert nodes["lem:mean-max"]["color"] == STATED
    assert nodes["lem:mean-max"]["fillcolor"] in PROOF_DONE
    assert nodes["lem:mean-square"]["color"] == STATED  # conditional
    assert nodes["lem:mean-square"].get("fillcolor") not in PROOF_DONE
    assert nodes["prop:square"]["color"] == NOT_READY and nodes["thm:product"]["color"] == NOT_READY


@needs_plastex
@pytest.mark.parametrize("shadow", [False, True], ids=["plain", "paper-defines-input"])
def test_the_four_verdicts_are_marked_distinctly_and_no_file_is_read(tmp_path, shadow):
    # One build (plasTeX is slow on a shared machine): the synthetic workspace with all four
    # verdicts, whose paper text also tries to read a file.
    secret = tmp_path / "secret.tex"
    secret.write_text("TOPSECRET-7f3a\n")
    data = load_workspace(_hostile_workspace(tmp_path, secret, shadow=shadow))
    folder = tmp_path / "bp"
    write_project(data, folder)
    index = build_web(folder)
    for page in index.parent.rglob("*.html"):
        assert "TOPSECRET-7f3a" not in page.read_text(), page
    nodes = _graph_nodes(index.parent)
    assert set(nodes) == {_label(v) for v in data.views}
    marks: dict[str, set[tuple[str, str]]] = {}
    for view in data.views:
        if not view.record.verdict_bearing:
            continue
        if view.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL) and (
            view.lean_statement is None
        ):  # its Lean file lacks the declaration: no \leanok, so it may look unfinished
            assert "color" not in nodes[_label(view)] or nodes[_label(view)]["color"] != STATED
            continue
        node = nodes[_label(view)]
        verdict = view.verdict.value if view.verdict else "unfinished"
        if verdict == "unfinished" and view.record.unfinished is None:
            verdict = "in progress"
        marks.setdefault(verdict, set()).add((node.get("color", ""), node.get("fillcolor", "")))
    assert {"verified_unconditional", "verified_conditional", "issue", "unfinished"} <= set(marks)
    for a in ("verified_unconditional", "verified_conditional", "issue", "unfinished"):
        for b in ("verified_unconditional", "verified_conditional", "issue", "unfinished"):
            if a < b:
                assert not marks[a] & marks[b], (a, b, marks)
    assert all(fill in PROOF_DONE for _c, fill in marks["verified_unconditional"])
    assert all(color == NOT_READY for color, _f in marks["issue"])
    html = _html_results(index.parent)
    for view in data.views:
        assert html[_label(view)]["number"] == view.number
        unconditional = view.verdict is Verdict.VERIFIED_UNCONDITIONAL
        if view.record.verdict_bearing:
            shown = unconditional and view.lean_statement is not None
            assert html[_label(view)]["check"] is shown, view.id


def test_without_the_extra_the_project_is_written_and_the_hint_names_it(
    workspace, tmp_path, monkeypatch, capsys
):
    import paperlint.reports.blueprint_build as build

    monkeypatch.setattr(build, "plastex_available", lambda: False)
    folder = tmp_path / "bp"
    assert run(["report", str(workspace), "--format", "blueprint-web", "-o", str(folder)]) == 2
    assert (folder / "src" / "content.tex").is_file() and not (folder / "web").exists()
    assert "paperlint[blueprint]" in capsys.readouterr().err


def test_item_labels_notes_and_counters_survive_plastex(tmp_path):
    """plasTeX prints no label for `\\item[A.]` in itemize or enumerate: such a list becomes a
    description; an author's note and a counter command are dropped, not printed as words;
    an unknown macro is shown as its source (texsafe's \\paperlintraw)."""
    ws = build_workspace(tmp_path / "ws")
    inventory = json.loads((ws / "inventory.json").read_text())
    inventory["results"][1]["statement"] = (
        r"\refstepcounter{change}\todo[inline]{check $x$} Then"
        r" \begin{itemize}\item[A.] $\Cr{co} \le 1$, \item[B.] two.\end{itemize}"
        r" \begin{enumerate}\item plain\end{enumerate}"
    )
    (ws / "inventory.json").write_text(json.dumps(inventory))
    content = render_project(load_workspace(ws))["content.tex"]
    assert r"\begin{description}\item[A.]" in content and r"two.\end{description}" in content
    assert r"\begin{enumerate}\item plain\end{enumerate}" in content  # no label: kept
    assert "todo" not in content and "refstepcounter" not in content and "check $x" not in content
    assert r"$\paperlintraw{\textbackslash{}Cr\{co\}} \le 1$" in content
