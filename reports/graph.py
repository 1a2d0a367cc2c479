"""The dependency graph as an SVG picture, laid out in Python (no Graphviz on users' machines).

Layered layout: results a result depends on sit above it. Layers are the topological
generations of the graph (cycles, which a paper should not have, are collapsed first so a bad
inventory still draws). A few barycentre sweeps order each layer to cut crossings, and a wide
layer wraps onto several rows so ~200 results stay readable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from paperlint.digraph import Digraph, components
from paperlint.reports.load import ReportData, ResultView
from paperlint.reports.summary import VERDICT_LABELS, verdict_key

COLOURS: dict[str, str] = {  # Okabe–Ito colours, readable for colour-blind readers
    "verified_unconditional": "#009E73",
    "verified_conditional": "#56B4E9",
    "issue": "#D55E00",
    "unfinished": "#E69F00",
    "no_verdict": "#BBBBBB",
    "input": "#FFFFFF",
}
NODE_W, NODE_H = 88, 26
GAP_X, ROW_H = 14, 62
MAX_PER_ROW = 10
NODE_CHARS = 13  # what fits in NODE_W at the graph's font size
MARGIN, LEGEND_H = 16, 58
MIN_WIDTH = 820  # the legend's width


def _generations(graph: Digraph) -> list[set[int]]:
    """The topological generations of the graph with each cycle collapsed to one node."""
    component = components(graph)
    above: dict[int, set[int]] = {c: set() for c in component.values()}
    for source, target, _ in graph.edges():
        if component[source] != component[target]:
            above[component[target]].add(component[source])
    waiting = {c: len(sources) for c, sources in above.items()}
    below: dict[int, list[int]] = {c: [] for c in above}
    for c, sources in above.items():
        for s in sources:
            below[s].append(c)
    generation = {c for c, n in waiting.items() if n == 0}
    out: list[set[int]] = []
    while generation:
        out.append(generation)
        following: set[int] = set()
        for c in generation:
            for d in below[c]:
                waiting[d] -= 1
                if waiting[d] == 0:
                    following.add(d)
        generation = following
    return out


def build_graph(data: ReportData) -> Digraph:
    """Edges point from a result to the results that use it."""
    graph = Digraph()
    ids = {view.id for view in data.views}
    for view in data.views:
        graph.add_node(view.id)
    for view in data.views:
        for used in view.proof_uses:
            if used in ids and used != view.id:
                graph.add_edge(used, view.id, statement=False)
        for used in view.statement_uses:  # after proof uses: a statement use wins
            if used in ids and used != view.id:
                graph.add_edge(used, view.id, statement=True)
    return graph


def layers(graph: Digraph, order: list[str]) -> list[list[str]]:
    """Topological layers, each ordered by barycentre of its predecessors."""
    members = components(graph)
    rank = {node: i for i, node in enumerate(order)}
    result: list[list[str]] = []
    for generation in _generations(graph):
        layer = [n for n in order if members[n] in generation]
        result.append(sorted(layer, key=lambda n: rank[n]))
    position: dict[str, float] = {}
    for layer in result:
        layer.sort(key=lambda n: _barycentre(graph, n, position, rank[n]))
        position.update({n: i / max(1, len(layer) - 1) for i, n in enumerate(layer)})
    return result


def _barycentre(graph: Digraph, node: str, position: dict[str, float], rank: int) -> float:
    above = [position[p] for p in graph.predecessors(node) if p in position]
    # Ties (and nodes with nothing above) keep document order.
    return (sum(above) / len(above) if above else 0.5) + rank * 1e-6


def place(rows: list[list[str]]) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Centre of every node, plus the picture's width and height."""
    wrapped = [row[i : i + MAX_PER_ROW] for row in rows for i in range(0, len(row), MAX_PER_ROW)]
    widest = max((len(row) for row in wrapped), default=1)
    width = max(2 * MARGIN + widest * (NODE_W + GAP_X) - GAP_X, MIN_WIDTH)
    centres: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(wrapped):
        row_w = len(row) * (NODE_W + GAP_X) - GAP_X
        left = (width - row_w) / 2 + NODE_W / 2
        y = MARGIN + LEGEND_H + r * ROW_H + NODE_H / 2
        for i, node in enumerate(row):
            centres[node] = (left + i * (NODE_W + GAP_X), y)
    height = MARGIN * 2 + LEGEND_H + len(wrapped) * ROW_H - (ROW_H - NODE_H)
    return centres, width, height


def render_svg(data: ReportData, *, link: bool = False) -> str:
    """The picture; with `link`, each node links to its result's section of the HTML report."""
    return _picture(data.views, build_graph(data), link=link)


def _picture(
    views: list[ResultView],
    graph: Digraph,
    *,
    link: bool,
    outside: frozenset[str] = frozenset(),
    title: str = "Dependency graph of the paper's results",
) -> str:
    """Draw `views` and the edges among them; `outside` ones are drawn as references."""
    ids = [view.id for view in views]
    graph = graph.subgraph(ids)
    # Other sections' results are context: they sit on the top rows, without their own uses.
    for source, target in [(s, t) for s, t, _ in graph.edges() if t in outside]:
        graph.remove_edge(source, target)
    centres, width, height = place(layers(graph, ids))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" class="depgraph" '
        'font-family="system-ui, sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        _defs(),
        *_legend(),
    ]
    # Many edges blur into a grey mass; fainter lines keep the nodes readable.
    opacity = 0.75 if graph.number_of_edges() <= 60 else 0.4
    for source, target, attrs in graph.edges():
        parts.append(_edge(centres[source], centres[target], bool(attrs["statement"]), opacity))
    parts += [_node(view, centres[view.id], link, view.id in outside) for view in views]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


GROUP_AT = 60  # more results than this: an overview of the sections plus one graph per section


@dataclass(frozen=True)
class Group:
    """One section of the paper in the grouped graph."""

    key: str  # the section's number ("2"), or "" for results without a dotted number
    views: list[ResultView]
    svg: str  # this section's results plus, drawn apart, the results of others they use
    uses: dict[str, int]  # other section -> how many edges come from it


def section_of(view: ResultView) -> str:
    number = view.number or ""
    return number.rsplit(".", 1)[0] if "." in number else ""


def grouped(data: ReportData, *, link: bool = True) -> list[Group] | None:
    """Per-section graphs when the paper is too large for one readable picture, else None."""
    if len(data.views) <= GROUP_AT:
        return None
    graph = build_graph(data)
    sections: dict[str, list[ResultView]] = {}
    for view in data.views:
        sections.setdefault(section_of(view), []).append(view)
    if len(sections) < 2:
        return None
    by_id = {view.id: view for view in data.views}
    groups = []
    for key, views in sections.items():
        own = {view.id for view in views}
        used = sorted(
            {p for v in own for p in graph.predecessors(v) if p not in own},
            key=[view.id for view in data.views].index,
        )
        uses: dict[str, int] = {}
        for source, target, _ in graph.edges():
            if target in own and source not in own:
                uses[section_of(by_id[source])] = uses.get(section_of(by_id[source]), 0) + 1
        title = f"Dependency graph of section {key or '(unnumbered)'}"
        svg = _picture(
            [by_id[u] for u in used] + views, graph, link=link, outside=frozenset(used), title=title
        )
        groups.append(Group(key, views, svg, uses))
    return groups


def overview_svg(groups: list[Group]) -> str:
    """One box per section, its verdicts as a bar, and arrows for uses between sections."""
    graph = Digraph()
    for group in groups:
        graph.add_node(group.key)
    for group in groups:
        for source, count in group.uses.items():
            if source != group.key and source in graph:
                graph.add_edge(source, group.key, count=count)
    order = [group.key for group in groups]
    box_w, box_h, gap, row_h = 132, 44, 20, 84
    rows = layers(graph, order)
    wrapped = [row[i : i + 6] for row in rows for i in range(0, len(row), 6)]
    widest = max(len(row) for row in wrapped)
    width = max(2 * MARGIN + widest * (box_w + gap) - gap, 600)
    centres: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(wrapped):
        left = (width - (len(row) * (box_w + gap) - gap)) / 2 + box_w / 2
        for i, key in enumerate(row):
            centres[key] = (left + i * (box_w + gap), MARGIN + r * row_h + box_h / 2)
    height = 2 * MARGIN + len(wrapped) * row_h - (row_h - box_h)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" class="depgraph overview" '
        'font-family="system-ui, sans-serif" font-size="12">',
        "<title>Sections of the paper and the uses between them</title>",
        # a fixed-size head: with markerUnits=strokeWidth it would grow with the thick lines
        '<defs><marker id="arrow-fixed" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" '
        'markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 '
        'L0,10 z" fill="#555"/></marker></defs>',
    ]
    for source, target, attrs in graph.edges():
        (x1, y1), (x2, y2) = centres[source], centres[target]
        y1, y2 = y1 + box_h / 2, y2 - box_h / 2
        bend = max(abs(y2 - y1) / 2, 20)
        stroke = min(1 + attrs["count"] / 4, 5)
        parts.append(
            f'<path class="edge section-use" d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} '
            f'{x2:.1f},{y2 - bend:.1f} {x2:.1f},{y2:.1f}" fill="none" stroke="#555" '
            f'stroke-opacity="0.5" stroke-width="{stroke:.1f}" marker-end="url(#arrow-fixed)">'
            f"<title>{attrs['count']} uses</title></path>"
        )
    for group in groups:
        parts.append(_section_box(group, centres[group.key], box_w, box_h))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _section_box(group: Group, centre: tuple[float, float], w: int, h: int) -> str:
    x, y = centre[0] - w / 2, centre[1] - h / 2
    counts: dict[str, int] = {}
    for view in group.views:
        counts[verdict_key(view)] = counts.get(verdict_key(view), 0) + 1
    name = f"§{group.key}" if group.key else "unnumbered"
    tooltip = ", ".join(f"{n} {VERDICT_LABELS[k]}" for k, n in counts.items())
    bits = [
        f"<title>{escape(f'{name}: {tooltip}')}</title>",
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="6" fill="#fff" '
        'stroke="#333"/>',
        f'<text x="{centre[0]:.1f}" y="{y + 17:.1f}" text-anchor="middle" fill="#111">'
        f"{escape(name)} · {len(group.views)} results</text>",
    ]
    left = x + 8
    for key in COLOURS:  # the section's verdicts as one bar, in the legend's order
        if counts.get(key):
            part = (w - 16) * counts[key] / len(group.views)
            bits.append(
                f'<rect x="{left:.1f}" y="{y + 26:.1f}" width="{part:.1f}" height="10" '
                f'fill="{COLOURS[key]}" stroke="#333" stroke-width="0.5"/>'
            )
            left += part
    body = "".join(bits)
    href = quoteattr("#" + section_anchor(group.key))
    return f'<g class="section" data-section={quoteattr(group.key)}><a href={href}>{body}</a></g>'


def section_anchor(key: str) -> str:
    return "g-" + ("".join(c if c.isalnum() else "-" for c in key) or "unnumbered")


def _defs() -> str:
    return (
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker></defs>'
    )


def _edge(
    start: tuple[float, float], end: tuple[float, float], statement: bool, opacity: float
) -> str:
    (x1, y1), (x2, y2) = start, end
    y1, y2 = y1 + NODE_H / 2, y2 - NODE_H / 2
    bend = max(abs(y2 - y1) / 2, 20)
    dash = "" if statement else ' stroke-dasharray="5 4"'
    kind = "statement-use" if statement else "proof-use"
    return (
        f'<path class="edge {kind}" d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} '
        f'{x2:.1f},{y2 - bend:.1f} {x2:.1f},{y2:.1f}" fill="none" stroke="#555" '
        f'stroke-opacity="{opacity}" stroke-width="1.2"{dash} marker-end="url(#arrow)"/>'
    )


# Short heads of the usual kinds, so a node says "Prop. 2.3" where the paper says
# "Proposition 2.3"; per-kind counters give a paper a Lemma 2 and a Theorem 2.
SHORT_TITLES: Final[Mapping[str, str]] = {
    "theorem": "Thm.",
    "proposition": "Prop.",
    "corollary": "Cor.",
    "definition": "Def.",
    "remark": "Rem.",
    "example": "Ex.",
    "assumption": "Assum.",
    "conjecture": "Conj.",
    "hypothesis": "Hyp.",
    "condition": "Cond.",
    "observation": "Obs.",
    "exercise": "Exer.",
    "problem": "Prob.",
    "question": "Quest.",
    "notation": "Not.",
}


def node_label(view: ResultView) -> str:
    """The result's kind and number as the paper prints them, shortened to fit its node."""
    title = (view.source.title if view.source else "") or view.kind.capitalize()
    if len(title) > 6:
        title = SHORT_TITLES.get(title.lower(), title[:5] + ".")
    label = f"{title} {view.number}" if view.number else title if view.source else view.id
    return label if len(label) <= NODE_CHARS else label[: NODE_CHARS - 1] + "…"


def anchor(result_id: str) -> str:
    """The HTML id of a result's section (ids may hold `:` and `.`, fine in HTML5 but not CSS)."""
    return "r-" + "".join(c if c.isalnum() else "-" for c in result_id)


def _node(view: ResultView, centre: tuple[float, float], link: bool, outside: bool = False) -> str:
    key = verdict_key(view)
    x, y = centre[0] - NODE_W / 2, centre[1] - NODE_H / 2
    border = ' stroke-dasharray="3 2"' if key == "input" else ""
    if outside:  # a result of another section, drawn faint so this section's own stand out
        border += ' fill-opacity="0.35" stroke-opacity="0.5"'
    tooltip = f"{view.heading} ({view.id}): {VERDICT_LABELS[key]}"
    if outside:
        tooltip += ", from another section"
    body = (
        f"<title>{escape(tooltip)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="6" '
        f'fill="{COLOURS[key]}" stroke="#333"{border}/>'
        f'<text x="{centre[0]:.1f}" y="{centre[1] + 4:.1f}" text-anchor="middle" '
        f'fill="#111">{escape(node_label(view))}</text>'
    )
    if link:
        body = f"<a href={quoteattr('#' + anchor(view.id))}>{body}</a>"
    extra = ' data-outside="true"' if outside else ""
    return f'<g class="node" data-id={quoteattr(view.id)} data-verdict="{key}"{extra}>{body}</g>'


def _legend() -> list[str]:
    items = []
    x = MARGIN
    for key, colour in COLOURS.items():
        label = VERDICT_LABELS[key].replace(" (not verdict-bearing)", "")
        dash = ' stroke-dasharray="3 2"' if key == "input" else ""
        items.append(
            f'<rect x="{x}" y="{MARGIN}" width="14" height="14" rx="3" fill="{colour}" '
            f'stroke="#333"{dash}/><text x="{x + 19}" y="{MARGIN + 11}">{escape(label)}</text>'
        )
        x += 26 + 7 * len(label)
    y = MARGIN + 32
    items.append(
        f'<path d="M{MARGIN},{y} h34" stroke="#555" stroke-width="1.2" marker-end="url(#arrow)"/>'
        f'<text x="{MARGIN + 42}" y="{y + 4}">needed to state</text>'
        f'<path d="M{MARGIN + 160},{y} h34" stroke="#555" stroke-width="1.2" '
        f'stroke-dasharray="5 4" marker-end="url(#arrow)"/>'
        f'<text x="{MARGIN + 202}" y="{y + 4}">needed only to prove</text>'
    )
    return items
