"""Headless-Chromium screenshots of reports, for docs/screenshots/ (run by hand).

    .venv/bin/python scripts/report_screenshots.py [CORPUS_PAPER.tex] [--only real]

1. the example paper (`./dev example`'s replay): its report, top of the page;
2. a paper with 200+ results (default: the PFR blueprint of the shared corpus), checked with
   no model and no Lean, so every result is honestly *unfinished*: the page top with the
   section overview, and the same page with its largest section's graph opened (a copy of
   the page with that one `<details>` marked `open`; nothing else differs);
3. a real paper's statements (besov of the shared corpus, Apache-2.0, also checked with no
   model): its report's results, and its web blueprint (`report --format blueprint-web`)
   opened from `file://` with the network off: a proposition with labelled items and
   formulas, and the dependency-graph page (#28). `--only real` takes these alone.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CORPUS = Path("/work/shared/corpus/pfr/src/blueprint/src/print.tex")
REAL = Path("/work/shared/corpus/besov/src/preprint-source/besovish-2020-07-18.tex")
REAL_RESULT = "holder"  # Proposition 4.1: items A.-D., an unknown macro (\Cr{co}) in formulas
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # no host resolves: the pages get no network
]


def chromium(page: Path, shot: Path, height: int) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("chromium is not installed")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", f"--window-size=1280,{height}"]
            + ["--virtual-time-budget=3000"]
            + [f"--screenshot={shot}", page.as_uri()],
            check=True,
            capture_output=True,
        )
    print(shot)


def check(paper: Path, workdir: Path, *extra: str) -> None:
    paperlint = ROOT / ".venv" / "bin" / "paperlint"
    subprocess.run([paperlint, "check", paper, "--workdir", workdir, "--fresh", *extra])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:] == ["--only", "real"]:
        real_paper()
        return
    real_paper()
    with tempfile.TemporaryDirectory() as tmp:
        example = Path(tmp) / "example"
        fixture = ROOT / "fixtures" / "sample-variance"
        check(fixture / "paper.tex", example, "--replay", str(fixture / "replay"))
        chromium(example / "report" / "report.html", OUT / "example-report.png", 2400)

        corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS
        large = Path(tmp) / "large"
        check(corpus, large)
        page = large / "report" / "report.html"
        chromium(page, OUT / "large-report.png", 1800)
        html = page.read_text(encoding="utf-8")
        sizes = {m.group(1): int(m.group(2)) for m in _SECTIONS.finditer(html)}
        biggest = max(sizes, key=lambda key: sizes[key])
        tag = f'<details class="section-graph" id="g-{biggest}" data-section="{biggest}"'
        opened = html.replace(tag + ">", tag + " open>", 1)
        # the opened section first, so the screenshot shows it
        copy = page.with_name("section.html")
        copy.write_text(_only_graph(opened, biggest), encoding="utf-8")
        chromium(copy, OUT / "large-report-section.png", 1600)
        copy.write_text(_from(html, '<section id="results"'), encoding="utf-8")
        chromium(copy, OUT / "large-report-results.png", 1400)


def real_paper() -> None:
    paperlint = ROOT / ".venv" / "bin" / "paperlint"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "real"
        check(REAL, work)
        page = work / "report" / "report.html"
        html = page.read_text(encoding="utf-8")
        copy = page.with_name("results.html")
        anchor = f'<article class="result" id="r-{REAL_RESULT}"'
        copy.write_text(_from(html, anchor), encoding="utf-8")
        chromium(copy, OUT / "real-paper-report.png", 1500)
        blueprint = Path(tmp) / "blueprint"
        report = [paperlint, "report", work, "--format", "blueprint-web", "-o", blueprint]
        subprocess.run(report, check=True, capture_output=True)
        web = blueprint / "web"
        index = (web / "index.html").read_text(encoding="utf-8")
        body = index.index("<body")
        start = index.index(f'id="{REAL_RESULT}"')
        start = index.rindex("<div", 0, start)
        cut = index[: index.index(">", body) + 1] + index[start:]
        (web / "shot.html").write_text(cut, encoding="utf-8")
        chromium(web / "shot.html", OUT / "real-paper-blueprint.png", 1300)
        chromium(web / "dep_graph_document.html", OUT / "real-paper-blueprint-graph.png", 1100)


_SECTIONS = re.compile(r'data-section="([^"]*)">\s*<summary>[^<]*?· (\d+) results')


def _from(html: str, marker: str) -> str:
    """The page from `marker` on (the head and header kept), to put that part on screen."""
    return html[: html.index("<main>") + 6] + html[html.index(marker) :]


def _only_graph(html: str, key: str) -> str:
    """The page with the overview dropped, so the opened section is on screen."""
    start = html.index('<section id="graph"')
    begin = html.index(f'<details class="section-graph" id="g-{key}"')
    return html[:start] + '<section id="graph">' + html[begin:]


if __name__ == "__main__":
    main()
