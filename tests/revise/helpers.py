"""Small papers for the pure revision tests: built through preflight, like a real run."""

from __future__ import annotations

import shutil
from pathlib import Path

from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.model import Blueprint
from paperlint.preflight.inventory import build_inventory
from paperlint.preflight.model import Inventory

PREAMBLE = r"""\documentclass{article}
\usepackage{amsthm}
\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\theoremstyle{definition}
\newtheorem{definition}[theorem]{Definition}
\newcommand{\avg}{m}
\begin{document}
"""


def paper(tmp: Path, name: str, body: str, *, bib: str = "") -> Inventory:
    folder = tmp / name
    folder.mkdir(parents=True, exist_ok=True)
    tex = folder / "paper.tex"
    bibliography = (
        "\\begin{thebibliography}{1}\n" + bib + "\n\\end{thebibliography}\n" if bib else ""
    )
    tex.write_text(PREAMBLE + body + bibliography + "\\end{document}\n", encoding="utf-8")
    return build_inventory(tex)


def blueprint(inventory: Inventory) -> Blueprint:
    return build_blueprint(inventory)


def env(kind: str, label: str | None, statement: str, proof: str | None = None) -> str:
    head = f"\\begin{{{kind}}}" + (f"\\label{{{label}}}" if label else "") + "\n"
    text = head + statement + f"\n\\end{{{kind}}}\n"
    if proof is not None:
        text += "\\begin{proof}\n" + proof + "\n\\end{proof}\n"
    return text + "\n"


def checked_fixture(folder: Path, fixture: Path) -> Path:
    """`fixture`'s version 1 (`paper.tex`) checked from its `replay/` in an author's `folder`
    (a repository): the workspace."""
    from paperlint.cli.root import run

    (folder / ".git").mkdir()
    shutil.copyfile(fixture / "paper.tex", folder / "paper.tex")
    argv = ["check", str(folder / "paper.tex"), "--replay", str(fixture / "replay"), "-q"]
    assert run(argv) == 1  # the example's issues are recorded
    return folder / "paper.paperlint"
