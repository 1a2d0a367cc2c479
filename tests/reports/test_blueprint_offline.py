"""The built web blueprint made to work offline from file:// (#28), on hand-made pages: the
real plasTeX build is tests/reports/test_blueprint_web.py, its pages in Chromium
tests/reports/test_browser.py."""

from paperlint.reports.blueprint_offline import inline_icons, offline_math, static_graph

PAGE = r"""<html><head><title>t</title></head><body>
<p>Let \(x {\lt} 1\) and \(\Cr{co}\) hold, with \(x^\) broken.</p>
<div class="displaymath">\begin{align*} a &amp; = b \\ &amp; = c \end{align*}</div>
<script>var s = "\(not math\)";</script>
<p title="\(not math either\)">end</p>
</body></html>"""


def test_formulas_of_the_text_become_mathml_and_nothing_else_is_touched():
    page = offline_math(PAGE)
    assert page.count("<math") == 3  # x < 1, \Cr{co}, the align*
    assert "<mo>&lt;</mo>" in page and "<mtable" in page
    assert '<mtext class="tex-macro"' in page and "\\Cr{co}</mtext>" in page
    assert r"\(x^\)" in page  # a formula the converter cannot read stays TeX
    assert 'var s = "\\(not math\\)"' in page and 'title="\\(not math either\\)"' in page
    assert page.index("<style>") < page.index("</head>")


GRAPH_PAGE = """<html><head></head><body>
    <div id="graph"></div>
<script src="js/d3.min.js"></script>
<script src="js/hpcc.min.js"></script>
<script src="js/d3-graphviz.js"></script>
<script type="text/javascript">
const graphContainer = d3.select("#graph");
graphContainer.graphviz({useWorker: true})
    .fit(true)
    .renderDot(`strict digraph "" {	"lem:a"	[label=a];}`)
    .on("end", interactive);
function interactive() {}
</script></body></html>"""


def test_the_graph_is_laid_out_at_build_time_with_the_labels_given():
    seen = []

    def layout(dot, labels):
        seen.append((dot, dict(labels)))
        return '<svg class="laid-out"></svg>'

    page = static_graph(GRAPH_PAGE, {"lem:a": "Lemma 2"}, layout)
    assert seen == [('strict digraph "" {\t"lem:a"\t[label=a];}', {"lem:a": "Lemma 2"})]
    assert '<div id="graph"><svg class="laid-out"></svg></div>' in page
    assert "renderDot" not in page and "useWorker" not in page and "interactive();" in page
    assert "hpcc" not in page and "d3-graphviz" not in page and "js/d3.min.js" in page


def test_a_page_without_a_graph_is_left_alone():
    assert static_graph("<p>x</p>", {}, lambda dot, labels: "") == "<p>x</p>"


def test_the_icon_sprite_is_copied_into_the_page():
    sprite = '<?xml version="1.0"?><svg style="position: absolute"><symbol id="icon-x"/></svg>'
    page = '<body class="b"><svg><use xlink:href="symbol-defs.svg#icon-x"></use></svg></body>'
    out = inline_icons(page, sprite)
    assert out.startswith('<body class="b">\n<svg style="position: absolute"><symbol id="icon-x"/>')
    assert 'xlink:href="#icon-x"' in out and "symbol-defs.svg" not in out
