"""Bad input never gives a traceback, never reads outside the project, and says file:line."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path

import pytest

from paperlint.errors import InputError
from paperlint.preflight.inventory import build_inventory

HEAD = "\\documentclass{article}\n\\usepackage{amsthm}\n\\newtheorem{theorem}{Theorem}\n"


def _paper(folder: Path, body: str, name: str = "paper.tex") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(HEAD + "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8")
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every path the preflight opens (through open() or Path.read_bytes/read_text)."""
    seen: list[Path] = []
    real_open = builtins.open
    real_io_open = io.open

    def spy(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, str | os.PathLike):
            seen.append(Path(os.fspath(file)).resolve())
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(io, "open", spy)
    del real_io_open
    return seen


def _codes(inventory: object) -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for d in inventory.diagnostics:  # type: ignore[attr-defined]
        codes.setdefault(d.code, d.line)
    return codes


def test_traversal_is_never_read(tmp_path: Path, opened: list[Path]) -> None:
    secret = tmp_path / "secret.tex"
    secret.write_text("\\begin{theorem}\\label{thm:leak}Leak\\end{theorem}", encoding="utf-8")
    project = tmp_path / "a" / "b"
    _paper(project, "\\input{../../secret}\n\\input{../../../../../../etc/passwd}")
    opened.clear()
    inventory = build_inventory(project / "paper.tex")
    assert not inventory.results
    assert _codes(inventory)["path-outside-project"] == 5
    assert secret.resolve() not in opened
    assert all(p.is_relative_to(project.resolve()) for p in opened)


def test_absolute_path_is_never_read(tmp_path: Path, opened: list[Path]) -> None:
    secret = tmp_path / "abs.tex"
    secret.write_text("\\begin{theorem}Leak\\end{theorem}", encoding="utf-8")
    project = tmp_path / "p"
    _paper(project, f"\\input{{{secret}}}")
    opened.clear()
    inventory = build_inventory(project)
    assert not inventory.results
    assert _codes(inventory)["path-outside-project"] == 5
    assert secret.resolve() not in opened


def test_symlink_out_of_the_project_is_never_read(tmp_path: Path, opened: list[Path]) -> None:
    secret = tmp_path / "outside.tex"
    secret.write_text("\\begin{theorem}Leak\\end{theorem}", encoding="utf-8")
    project = tmp_path / "p"
    _paper(project, "\\input{link}")
    (project / "link.tex").symlink_to(secret)
    opened.clear()
    inventory = build_inventory(project / "paper.tex")
    assert not inventory.results
    assert secret.resolve() not in opened


def test_include_cycle_is_reported(tmp_path: Path) -> None:
    _paper(tmp_path, "\\input{a}")
    (tmp_path / "a.tex").write_text("\\input{b}\n", encoding="utf-8")
    (tmp_path / "b.tex").write_text(
        "\\begin{theorem}\\label{t}x\\end{theorem}\n\\input{a}\n", encoding="utf-8"
    )
    inventory = build_inventory(tmp_path / "paper.tex")
    assert [r.id for r in inventory.results] == ["t"]
    cycle = next(d for d in inventory.diagnostics if d.code == "include-cycle")
    assert (cycle.file, cycle.line) == ("b.tex", 2)


def test_missing_input_is_a_warning(tmp_path: Path) -> None:
    _paper(tmp_path, "text\n\\input{nowhere}")
    inventory = build_inventory(tmp_path / "paper.tex")
    missing = next(d for d in inventory.diagnostics if d.code == "missing-input")
    assert (missing.severity, missing.file, missing.line) == ("warning", "paper.tex", 6)


def test_unterminated_environment(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(
        HEAD + "\\begin{document}\n\\begin{theorem}\\label{t}\nNo end.\n", encoding="utf-8"
    )
    inventory = build_inventory(path)
    assert [r.number for r in inventory.results] == ["1"]
    problem = next(d for d in inventory.diagnostics if d.code == "unterminated-environment")
    assert (problem.file, problem.line) == ("paper.tex", 5)


def test_binary_root_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_bytes(b"\x00\x01\x02binary\x00" * 100)
    with pytest.raises(InputError, match="binary"):
        build_inventory(path)


def test_binary_include_is_a_diagnostic(tmp_path: Path) -> None:
    _paper(tmp_path, "\\input{blob}")
    (tmp_path / "blob.tex").write_bytes(b"\x00\xff" * 50)
    inventory = build_inventory(tmp_path / "paper.tex")
    assert "binary-file" in _codes(inventory)


def test_undecodable_bytes_fall_back(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_bytes(
        (
            HEAD + "\\begin{document}\nCaf\xe9\n\\begin{theorem}\\label{t}x\\end{theorem}\n"
            "\\end{document}\n"
        ).encode("latin-1")
    )
    inventory = build_inventory(path)
    assert [r.id for r in inventory.results] == ["t"]
    assert _codes(inventory)["decoding"] is None


def test_huge_file_is_read_linearly(tmp_path: Path) -> None:
    filler = ("Some words about $x^2$ and \\emph{things}. " * 20 + "\n") * 25_000  # ~20 MB
    _paper(tmp_path, "\\input{big}\n\\begin{theorem}\\label{t}x\\end{theorem}")
    (tmp_path / "big.tex").write_text(filler, encoding="utf-8")
    inventory = build_inventory(tmp_path / "paper.tex")
    assert [r.id for r in inventory.results] == ["t"]
    assert "huge-file" in _codes(inventory)


def test_a_broken_pdf_is_a_clear_input_error(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(b"%PDF-1.5\n")
    with pytest.raises(InputError, match="broken PDF"):
        build_inventory(path)


def test_tie_between_roots_asks_for_root(tmp_path: Path) -> None:
    _paper(tmp_path, "a", name="one.tex")
    _paper(tmp_path, "b", name="two.tex")
    with pytest.raises(InputError, match="--root") as info:
        build_inventory(tmp_path)
    assert "one.tex" in str(info.value) and "two.tex" in str(info.value)


def test_root_ranking_prefers_main_and_skips_included_and_standalone(tmp_path: Path) -> None:
    _paper(tmp_path, "\\input{part}", name="main.tex")
    _paper(tmp_path, "x", name="part.tex")
    (tmp_path / "fig.tex").write_text(
        "\\documentclass{standalone}\n\\begin{document}x\\end{document}\n", encoding="utf-8"
    )
    _paper(tmp_path, "x", name="old_draft.tex")
    assert build_inventory(tmp_path).root == "main.tex"


def test_names_the_os_rejects_are_missing_inputs(tmp_path: Path) -> None:
    _paper(tmp_path, "\\input{" + "x" * 5000 + "}\n\\include{" + "y/" * 3000 + "}")
    inventory = build_inventory(tmp_path / "paper.tex")
    assert [d.line for d in inventory.diagnostics if d.code == "missing-input"] == [5, 6]


@pytest.mark.parametrize("seed", range(3))
def test_random_token_soup_never_raises(tmp_path: Path, seed: int) -> None:
    import random

    tokens = [
        "\\begin{theorem}",
        "\\end{theorem}",
        "\\begin{proof}",
        "\\end{proof}",
        "{",
        "}",
        "[",
        "]",
        "\\label{a}",
        "\\section",
        "\\appendix",
        "\\begin{align}",
        "\\\\",
        "\\end{align}",
        "\\newcommand",
        "\\def",
        "#1",
        "\\input{",
        "\\ifx",
        "\\else",
        "\\fi",
        "\\newif",
        "\\iffalse",
        "%",
        "\\verb|",
        "\\tag{",
        "\\setcounter{theorem}{",
        "\\newtheorem{",
        "\\renewcommand{\\thetheorem}{",
        "\\newenvironment{x}{",
        "\\begin{x}",
        "\\begin{document}",
        "\\item",
        "\\cref{",
        "\\cite[",
        "x",
        "\n\n",
    ]
    rng = random.Random(seed)
    for i in range(30):
        body = "".join(rng.choice(tokens) for _ in range(rng.randint(1, 150)))
        folder = tmp_path / str(i)
        folder.mkdir()
        (folder / "paper.tex").write_text(HEAD + body, encoding="utf-8")
        build_inventory(folder / "paper.tex")


COMMENT_BLOCK = (
    "\\begin{comment}\n\\begin{theorem}\\label{thm:in}Kept?\\end{theorem}\n\\end{comment}\n"
)
DEFINES_COMMENT = "\\newenvironment{comment}{\\par\\emph{Comment.} }{\\par}\n"


@pytest.mark.parametrize(
    ("where", "kept"),
    [
        (None, False),  # the comment package's block: LaTeX skips it
        ("paper", True),  # the paper's own environment: content
        ("package", True),  # defined in a package of the paper's folder it loads
        ("input", True),  # defined in a file it inputs after the block
        ("unread", False),  # a file of the folder the paper never reads does not count
        ("unread-deep", False),
    ],
)
def test_a_comment_block_is_content_only_where_the_paper_defines_comment(
    tmp_path: Path, where: str | None, kept: bool
) -> None:
    """What a block `comment` holds counts only if a file the paper reads defines the
    environment; the rest of its folder is never read, however large."""
    body = "\\usepackage{mine}\n" if where == "package" else ""
    body += DEFINES_COMMENT if where == "paper" else ""
    text = COMMENT_BLOCK + ("\\input{defs}\n" if where == "input" else "")
    paper = _paper(tmp_path, text)
    paper.write_text(paper.read_text(encoding="utf-8").replace(HEAD, HEAD + body), encoding="utf-8")
    (tmp_path / "mine.sty").write_text(DEFINES_COMMENT if where == "package" else "", "utf-8")
    (tmp_path / "defs.tex").write_text(DEFINES_COMMENT if where == "input" else "", "utf-8")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "draft.tex").write_text(DEFINES_COMMENT if where == "unread" else "")
    deep = tmp_path / "data" / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "x.sty").write_text(DEFINES_COMMENT if where == "unread-deep" else "", "utf-8")
    labels = [r.labels for r in build_inventory(paper).results]
    assert labels == ([["thm:in"]] if kept else [])


def test_a_named_main_file_walks_no_folder(tmp_path: Path, monkeypatch) -> None:
    """Given its main file, preflight reads what the paper reads: no walk of the folder (a
    data folder of a paper's repository can hold tens of thousands of files)."""
    paper = _paper(tmp_path, "\\input{sec}\n\\begin{theorem}T\\end{theorem}")
    (tmp_path / "sec.tex").write_text("\\begin{theorem}S\\end{theorem}\n", encoding="utf-8")

    def refuse(*_: object, **__: object) -> object:
        raise AssertionError("walked the folder")

    monkeypatch.setattr(Path, "rglob", refuse)
    monkeypatch.setattr(Path, "glob", refuse)
    monkeypatch.setattr(Path, "iterdir", refuse)
    monkeypatch.setattr(os, "walk", refuse)
    monkeypatch.setattr(os, "scandir", refuse)
    monkeypatch.setattr(os, "listdir", refuse)
    assert len(build_inventory(paper).results) == 2


def test_the_tex_files_of_a_folder_are_those_rglob_lists(tmp_path: Path) -> None:
    """`find_root`'s candidates: what `Path.rglob("*.tex")` lists (a folder named `x.tex`, a
    broken link, a link to a file), without entering a link to a folder (a loop here)."""
    from paperlint.preflight.sourcetree import _tex_files

    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("main.tex", "a/one.tex", "a/b/two.tex", "a/b/data.csv", "notes.TEX"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "odd.tex").mkdir()
    (tmp_path / "link.tex").symlink_to(tmp_path / "main.tex")
    (tmp_path / "gone.tex").symlink_to(tmp_path / "nowhere.tex")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.tex").write_text("x", encoding="utf-8")
    expected = sorted(tmp_path.rglob("*.tex"))
    assert sorted(_tex_files(tmp_path)) == expected
    assert len(expected) == 7


def _command_names() -> list[str]:
    from paperlint.preflight.handlers import HANDLERS

    conditionals = ["if", "ifx", "ifnum", "ifodd", "ifdefined", "ifcsname", "ifcat", "iftrue"]
    return sorted({*HANDLERS, *conditionals})


@pytest.mark.parametrize("ending", ["\\{name}\\", "\\{name} \\", "\\{name}{{\\", "\\{name}[\\"])
def test_a_command_whose_argument_is_a_lone_backslash_at_the_end_is_no_crash(
    tmp_path: Path, ending: str
) -> None:
    """`\\begin\\` as the last characters of a file: the group reader once asserted that a
    backslash starts a control sequence and stopped preflight with an internal error."""
    for name in _command_names():
        paper = tmp_path / name / "paper.tex"
        paper.parent.mkdir()
        paper.write_text(HEAD + "\\begin{document}\nx " + ending.format(name=name), "utf-8")
        inventory = build_inventory(paper)
        assert inventory.root == "paper.tex"
