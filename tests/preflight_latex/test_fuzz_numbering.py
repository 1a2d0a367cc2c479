"""Preflight's numbers against pdflatex's on random documents (`fuzzdoc`): every `\\label`.

A few seeds run here (about fifteen seconds with TeX installed); the benchmark
`benchmarks/preflight_fuzz.py` runs as many as asked and prints the agreement. Each seed below
makes a document the preflight of 2026-12-04 numbered wrong before the fixes this fuzz led
to (checked by running these cases against that commit); every label must now agree.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.preflight_latex.fuzzdoc import compare, document

pytestmark = [
    pytest.mark.latex,
    pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed"),
]

CASES = [
    # seed, wide, more: each fails on the preflight of 2026-12-04 before the fuzz's fixes
    (80, False, False),  # thmtools: a sibling keeps \the<shared> as it was declared
    (118, False, False),
    (46, False, False),  # ntheorem: \newtheorem* steps a hidden counter
    (17, False, False),
    (2130, True, False),  # report
    (2064, True, False),  # scrreprt: equations 0.1 before a chapter
    (2074, True, False),  # scrartcl: \section* restarts what restarts with a section
    (2068, True, False),  # memoir: \M@TitleReference, floats 0.1
    (2093, True, False),  # elsarticle: \appendix
    (2106, True, False),
    (2125, True, False),  # llncs
    (2135, True, False),  # amsbook
    (2165, True, False),  # IEEEtran: the one appendix
    (2183, True, False),  # revtex4-2: the appendix's equations
    (5093, True, True),  # a \tag of \arabic{equation}
    (6148, True, True),  # memoir: footnotes restart per chapter
]


@pytest.mark.parametrize(("seed", "wide", "more"), CASES)
def test_every_label_gets_latexs_number(tmp_path: Path, seed: int, wide: bool, more: bool) -> None:
    outcome = compare(document(seed, wide=wide, more=more), tmp_path / "doc")
    assert outcome.compiled, "the generator made a document LaTeX refuses"
    assert outcome.labels > 0
    assert outcome.wrong == ()


def test_documents_are_the_same_for_a_seed() -> None:
    assert document(7, wide=True, more=True) == document(7, wide=True, more=True)
    assert document(7) != document(8)


RARE_CASES = [
    9023,  # revtex4-2: \paragraph is `a`, written `IV\,A\,0\,a`
    9050,  # IEEEtran: \paragraph numbered, `I-A1a`
    9062,  # amsbook: \part in arabic
    9079,  # amsart: \part in arabic
    9059,  # scrartcl: a \section past secnumdepth restarts what restarts with it
]


@pytest.mark.parametrize("seed", RARE_CASES)
def test_rarer_commands_get_latexs_numbers(tmp_path: Path, seed: int) -> None:
    """With `rare` (parts, `secnumdepth`, paragraphs, subfigures): each of these seeds was
    numbered wrong before the fixes of the same afternoon."""
    outcome = compare(document(seed, wide=True, more=True, rare=True), tmp_path / "doc")
    assert outcome.compiled and outcome.labels > 0
    assert outcome.wrong == ()
