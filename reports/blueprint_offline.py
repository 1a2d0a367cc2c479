"""The web blueprint works offline, opened from `file://` (#28).

plasTeX leaves every formula as TeX for MathJax, which leanblueprint loads from a CDN, and the
dependency-graph page lays its graph out in the browser with Graphviz compiled to WebAssembly,
started in a Web Worker and fetched next to the page: offline every formula is raw `\\(…\\)`,
and from `file://` the browser refuses the worker and the fetch, so the graph stays blank.
After the build, every page is rewritten here:

- each formula (`\\(…\\)`, `\\[…\\]`, amsmath's display environments) becomes MathML by the
  report's own converter (`texmath.convert_math`, allowlisted MathML; a formula it cannot
  convert stays TeX), and plastex.cfg turns MathJax off;
- the graph is laid out at build time by Graphviz (pygraphviz, which leanblueprint needs
  anyway) from the very `dot` text the page would have handed the worker, with each node
  labelled by its kind and number as the report's graph is ("Prop. 2.3"); the SVG is put in
  the page, and the page's own script only wires the clicks (d3 and jQuery are local files);
- the theme's icons, an SVG sprite in another file (refused on file:// too), are copied into
  each page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from paperlint.reports.texmath import DISPLAY_ENVS, convert_math, display_env_body

LABELS_FILE: Final = "graph-labels.json"  # in src/: node id -> the label to draw
_STYLE: Final = """<style>
.tex-macro { font-family: monospace; font-size: 0.85em; background: #f1f1f4; }
math[display="block"] { margin: 0.4em 0; overflow-x: auto; }
#graph svg { max-width: 100%; height: auto; }
</style>
"""
_MATH = re.compile(
    r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]|\\begin\{(?P<env>"
    + "|".join(re.escape(e) for e in DISPLAY_ENVS)
    + r")\}(?P<body>.*?)\\end\{(?P=env)\}",
    re.S,
)
_PIECE = re.compile(r"(<script\b.*?</script>|<style\b.*?</style>|<[^>]+>)", re.S | re.I)
_RENDER_DOT = re.compile(
    r"graphContainer\.graphviz\(.*?\.renderDot\(`(?P<dot>.*?)`\)\s*\.on\(\"end\", interactive\);",
    re.S,
)
_WASM_SCRIPTS = re.compile(r'\s*<script src="js/(?:hpcc\.min|d3-graphviz)\.js"></script>')
Layout = Callable[[str, Mapping[str, str]], str]  # dot text, node labels -> SVG


def offline_math(page: str) -> str:
    """`page` with each formula of its text (never of a script or a tag) as MathML."""
    pieces = _PIECE.split(page)
    for i in range(0, len(pieces), 2):  # the even pieces are text between tags
        pieces[i] = _MATH.sub(_formula, pieces[i])
    return "".join(pieces).replace("</head>", _STYLE + "</head>", 1)


def _formula(match: re.Match[str]) -> str:
    if match.group("env"):
        tex = display_env_body(match.group("env"), match.group("body"))
    else:
        tex = match.group("inline") or match.group("display")
    if not tex.strip():
        return ""  # plasTeX writes an empty \(\) for some groups: nothing to show
    converted = convert_math(html.unescape(tex), display=match.group("inline") is None)
    return converted.mathml if converted is not None else match.group(0)


def static_graph(page: str, labels: Mapping[str, str], layout: Layout) -> str:
    """The dependency-graph page with its graph laid out already (no worker, no WebAssembly)."""
    found = _RENDER_DOT.search(page)
    if found is None:
        return page
    svg = layout(found.group("dot"), labels)
    page = page[: found.start()] + "interactive();" + page[found.end() :]
    page = page.replace('<div id="graph"></div>', f'<div id="graph">{svg}</div>', 1)
    return _WASM_SCRIPTS.sub("", page)


def graphviz_layout(dot: str, labels: Mapping[str, str]) -> str:
    """Graphviz's `dot` layout of `dot`, each node in `labels` drawn with its label there (its
    id, which the page's script looks results up by, unchanged), as an inline SVG element."""
    import pygraphviz

    graph = pygraphviz.AGraph(string=dot)
    for node in graph.nodes():
        if str(node) in labels:
            node.attr["label"] = labels[str(node)]
    graph.layout(prog="dot")
    svg = str(graph.draw(format="svg").decode("utf-8"))
    return svg[svg.index("<svg") :]  # without the XML prolog and doctype


def inline_icons(page: str, symbols: str) -> str:
    """The theme's icons (`<use xlink:href="symbol-defs.svg#icon-cross">`) from a copy of
    symbol-defs.svg inside the page: a browser refuses another file's SVG on file://."""
    if "symbol-defs.svg#" not in page or "<svg" not in symbols:
        return page
    sprite = symbols[symbols.index("<svg") :]  # the theme's sprite is styled to take no room
    page = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + sprite, page, count=1)
    return page.replace('xlink:href="symbol-defs.svg#', 'xlink:href="#')


def make_offline(web: Path, labels: Mapping[str, str], layout: Layout = graphviz_layout) -> None:
    """Rewrite every page of the built blueprint in `web` (see the module docstring)."""
    from paperlint.reports.write import publish

    icons = web / "symbol-defs.svg"
    symbols = icons.read_text(encoding="utf-8") if icons.is_file() else ""
    for path in sorted(web.glob("*.html")):
        page = inline_icons(offline_math(path.read_text(encoding="utf-8")), symbols)
        if path.name.startswith("dep_graph"):
            page = static_graph(page, labels, layout)
        publish(path, page)
