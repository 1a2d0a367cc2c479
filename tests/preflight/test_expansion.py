"""The expansion layer (issue 26): user macros, conditionals and counter expressions as
LaTeX evaluates them. The label numbers of the fixtures `expansion_macros`,
`conditionals_bools`, `conditionals_case`, `counter_calc`, `label_wrappers`, `label_counters`,
`etoolbox_tests`, `kernel_tests`, `macro_aliases` and `emptiness_versions` are checked against
LaTeX's own .aux in test_fixtures.py; these tests pin what the .aux cannot show: spans,
diagnostics, bounds, and the arithmetic itself."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from paperlint.preflight import conditionals, expansion, macros, numexpr, prepass, texscan
from paperlint.preflight.inventory import build_inventory
from paperlint.preflight.macros import ArgSpec, Definition
from paperlint.preflight.model import Inventory
from paperlint.preflight.numbering import Walker

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "preflight"
HEAD = "\\documentclass{article}\n\\usepackage{amsthm,etoolbox}\n\\newtheorem{theorem}{Theorem}\n"


def _paper(tmp_path: Path, preamble: str, body: str, **files: str) -> Inventory:
    (tmp_path / "paper.tex").write_text(
        HEAD + preamble + "\\begin{document}\n" + body + "\\end{document}\n", encoding="utf-8"
    )
    for name, text in files.items():
        (tmp_path / f"{name}.tex").write_text(text, encoding="utf-8")
    return build_inventory(tmp_path / "paper.tex")


def _codes(inventory: Inventory, code: str) -> list[str]:
    return [d.message for d in inventory.diagnostics if d.code == code]


class _Lookup:
    """What the walk would know: counters, labels, registers, argument-free macros."""

    def counter(self, name: str) -> int | None:
        return {"aux": 3, "theorem": 8, "section": 1}.get(name)

    def label_number(self, key: str) -> str | None:
        return {"def:b": "2", "sec": "1.2"}.get(key)

    def register(self, name: str) -> int | None:
        return {"mode": 2}.get(name)

    def macro_body(self, name: str) -> str | None:
        return {"version": "1", "two": "\\version+1"}.get(name)


# Each value was printed by pdflatex (TeX Live) for the same expression, with calc loaded or
# not; the fixture counter_calc compiles the ones a counter can show.
@pytest.mark.parametrize(
    ("expression", "calc", "value"),
    [
        ("\\value{aux}-1", False, 3),  # TeX reads one number and typesets "-1"
        ("\\value{aux}-1", True, 2),
        ("(\\value{theorem}-1)/2", True, 3),  # calc's / truncates
        ("\\value{aux} * 2 - 1", True, 5),
        ("-7/2", True, -3),
        ("3 - 1 * 2", True, 1),
        ("2*(3+4)", True, 14),
        ("5+-2", True, 3),
        ("\\numexpr -7/2\\relax", True, -4),  # \numexpr rounds halves away from zero
        ("\\numexpr 7*3/2\\relax", False, 11),
        ("\\numexpr (1+2)*3\\relax+1", True, 10),
        ("\\getrefnumber{def:b}-1", True, 1),
        ("-\\value{section}", False, -1),
        ("\\two", False, 1),  # expands to "1+1": TeX assigns 1
        ("\\two", True, 2),
        ("\\mode", False, 2),
        ("3 and then words", False, 3),
        ("3 and then words", True, None),  # calc stops with an error
        ("\\getrefnumber{sec}-1", True, None),  # "1.2" is no integer
        ("\\getrefnumber{later}", False, None),  # a label not seen yet
        ("\\getpagerefnumber{def:b}", False, None),  # pages are not known
        ("\\value{nocounter}", False, None),
        ("7/0", True, None),
    ],
)
def test_counter_expressions_evaluate_as_latex_does(
    expression: str, calc: bool, value: int | None
) -> None:
    assert numexpr.evaluate(expression, _Lookup(), calc=calc) == value


def test_numbers_in_running_text_end_where_tex_stops_reading() -> None:
    lookup = _Lookup()
    text = "\\ifcase\\mode \\begin{theorem}"
    assert numexpr.read_number(text, len("\\ifcase"), lookup) == (2, len("\\ifcase\\mode "))
    assert numexpr.read_relation("\\value{aux} = 3\\relax x", 0, lookup) == (True, 15)
    assert numexpr.read_relation("\\value{nothing}>1 x", 0, lookup)[0] is None


def test_arguments_keep_their_source_offsets_through_nested_expansions() -> None:
    call = "\\wrap{abc}{de}"
    read = expansion.read_call(call, len("\\wrap"), (ArgSpec("m"), ArgSpec("m")))
    assert read is not None
    args, end = read
    assert end == len(call) and [a.text for a in args] == ["abc", "de"]
    assert args[0].start is not None
    body, pieces = expansion.substitute("<#2|#1|##>", args, None)
    assert body == "<de|abc|#>"
    outer = expansion.SourceMap(begin=100, after=114, pieces=pieces)
    assert outer.flat(body.index("abc") + 1) == args[0].start + 1
    assert outer.flat(0) == 100 and outer.flat(0, body=True) == 114
    # the same text copied again by a macro used inside the expansion maps to the source too
    inner = outer.carry(body.index("abc"), body.index("abc") + 3, to=7)
    assert inner == [(7, 10, args[0].start)]


def test_a_default_and_a_missing_star_are_substituted_without_source() -> None:
    params = (ArgSpec("s"), ArgSpec("o", "dflt"), ArgSpec("m"))
    read = expansion.read_call("{x}", 0, params)
    assert read is not None
    assert [(a.text, a.start) for a in read[0]] == [
        ("\\BooleanFalse", None),
        ("dflt", None),
        ("x", 1),
    ]
    assert expansion.read_call("", 0, (ArgSpec("m"),)) is None  # read as text


def test_a_macro_is_expanded_only_when_it_can_change_the_inventory() -> None:
    expander = expansion.Expander(100)
    relevant = expansion.Relevance(frozenset({"label"}), frozenset({"ifarxiv"}))
    expander.define("R", Definition("\\R", "\\mathbb{R}"))
    expander.define("norm", Definition("\\norm", "\\|#1\\|", (ArgSpec("m"),)))
    expander.define("ignore", Definition("\\ignore", "", (ArgSpec("m"),)))
    expander.define("lab", Definition("\\lab", "\\label{x:#1}", (ArgSpec("m"),)))
    expander.define("viaLab", Definition("\\viaLab", "\\lab{#1}", (ArgSpec("m"),)))
    expander.define("supp", Definition("\\supp", "\\ifarxiv#1\\fi", (ArgSpec("m"),)))
    expander.define("flag", Definition("\\flag", "\\ifarxiv x\\fi"))
    expander.define("delim", Definition("\\delim", "\\label{#1}", None))
    active = {name for name in expander.table if expander.active(name, relevant, 0)}
    # and the kernel's pickers every walk knows, but `\\@firstofone` (it drops nothing)
    assert active == {"ignore", "lab", "viaLab", "supp"} | {
        "@gobble",
        "@gobbletwo",
        "@firstoftwo",
        "@secondoftwo",
    }


def test_spans_and_statements_stay_in_the_source_after_expansion(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        "\\newif\\ifarxiv\\arxivtrue\n\\newcommand{\\supp}[1]{\\ifarxiv#1\\fi}\n"
        "\\newcommand{\\wrapthm}[1]{\\begin{theorem}#1\\end{theorem}}\n\\newbool{long}\n",
        "\\supp{\nText.\n\n\\begin{theorem}\\label{thm:in}\nInside the argument.\n"
        "\\end{theorem}\n}\n\\wrapthm{\\label{thm:wrapped}Wrapped.}\n"
        "\\ifbool{long}{}{\\input{extra}}\n",
        extra="% the supplement\n\n\\begin{theorem}\\label{thm:extra}\nFrom a file.\n"
        "\\end{theorem}\n",
    )
    inside, wrapped, extra = inventory.results
    assert (inside.span.file, inside.span.start_line, inside.span.end_line) == ("paper.tex", 12, 14)
    assert inside.statement == "\\label{thm:in}\nInside the argument."
    assert (wrapped.span.start_line, wrapped.statement) == (16, "\\label{thm:wrapped}Wrapped.")
    assert (extra.span.file, extra.span.start_line, extra.number) == ("extra.tex", 3, "3")


def test_an_unknown_condition_is_read_as_before_and_named(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        "",
        "\\ifdefined\\nosuchmacro\n\\begin{theorem}\\label{a}A.\\end{theorem}\n\\fi\n"
        "\\ifmmode x\\else y\\fi\n"  # no result inside: nothing to say
        "\\ifbool{undeclared}{\\begin{theorem}\\label{b}B.\\end{theorem}}{}\n",
    )
    assert [r.id for r in inventory.results] == ["a", "b"]
    messages = _codes(inventory, "unknown-condition")
    assert len(messages) == 2
    assert messages[0].startswith("\\ifdefined: its value is not known here")
    assert messages[1].startswith("\\ifbool{undeclared}:")


def test_a_label_defined_twice_keeps_its_last_definition(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        "",
        "\\begin{theorem}\\label{dup}One.\\end{theorem}\n"
        "\\begin{theorem}\\label{dup}Two.\\end{theorem}\n",
    )
    first, second = inventory.results
    assert (first.id, first.labels, second.id, second.labels) == ("theorem:1", [], "dup", ["dup"])
    assert inventory.labels["dup"] == "2"
    [message] = _codes(inventory, "duplicate-label")
    assert message == "label 'dup' multiply defined; LaTeX keeps this last definition"


def test_a_macro_redefined_between_displays_labels_by_its_current_definition(
    tmp_path: Path,
) -> None:
    """A display reads the paper's argument-taking macros as defined when it stands: the
    walk keeps the ones that label (`_math_writers`) up to date through each redefinition."""
    inventory = _paper(
        tmp_path,
        "\\newcommand\\eql[1]{}\n",
        "\\begin{equation}a\\eql{eq:a}\\end{equation}\n"
        "\\renewcommand\\eql[1]{\\label{#1}}\n"
        "\\begin{equation}b\\eql{eq:b}\\end{equation}\n"
        "\\renewcommand\\eql[1]{#1}\n"
        "\\begin{equation}c\\eql{eq:c}\\end{equation}\n"
        "\\renewcommand\\eql[1]{\\label{x#1}}\n"
        "\\begin{equation}d\\eql{eq:d}\\end{equation}\n",
    )
    assert inventory.labels == {"eq:b": "2", "xeq:d": "4"}


def test_refstyle_references_are_uses(tmp_path: Path) -> None:
    inventory = build_inventory(FIXTURES / "label_wrappers", root="paper.tex")
    assert inventory.result("thm:main") is not None
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage{amsthm,refstyle}\\newtheorem{theorem}{Theorem}\n"
        "\\newref{thm}{name=Theorem~}\\begin{document}\n"
        "\\begin{theorem}\\thmlabel{a}A.\\end{theorem}\n"
        "\\begin{theorem}\\thmlabel{b}By \\thmref{a} and \\Thmref*[s]{a,b}.\\end{theorem}\n"
        "\\end{document}\n",
        encoding="utf-8",
    )
    second = build_inventory(tmp_path / "paper.tex").results[1]
    assert (second.id, second.uses) == ("thm:b", ["thm:a"])


def test_page_numbers_are_not_guessed(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        "\\usepackage{refcount}\n",
        "\\begin{theorem}\\label{a}A.\\end{theorem}\n"
        "\\setcounter{theorem}{\\getpagerefnumber{a}}\n",
    )
    [message] = _codes(inventory, "unsure-counter")
    assert "value not understood" in message


# `\\bU` expands to two `\\bT`, … down to 2^21 counter steps
_DOUBLING = "\\newcounter{x}\\def\\bA{\\stepcounter{x}\\stepcounter{x}}" + "".join(
    f"\\def\\b{name}{{\\b{lower}\\b{lower}}}"
    for lower, name in zip("ABCDEFGHIJKLMNOPQRST", "BCDEFGHIJKLMNOPQRSTU", strict=True)
)


@pytest.mark.parametrize(
    ("preamble", "use", "reason"),
    [
        ("\\def\\a{\\begin{theorem}x\\end{theorem}\\a}", "\\a", "expands to itself"),
        ("\\newcommand\\b[1]{\\b{#1#1}}", "\\b{xy}", "expands to itself"),
        (_DOUBLING, "\\bU", "exceed their size limit"),
    ],
    ids=["recursion", "growing-recursion", "exponential"],
)
def test_hostile_macros_are_bounded(tmp_path: Path, preamble: str, use: str, reason: str) -> None:
    start = time.process_time()
    inventory = _paper(tmp_path, preamble + "\n", (use + "\n") * 200)
    # unbounded, each took minutes; bounded, about 0.5 s of CPU (6 s: a loaded CI machine)
    assert time.process_time() - start < 6.0
    assert any(reason in m for m in _codes(inventory, "macro-expansion"))


def _macro_name(i: int) -> str:
    return "m" + "".join(chr(ord("a") + int(d)) for d in str(i))


_CHAIN = "".join(f"\\def\\{_macro_name(i)}{{\\{_macro_name(i + 1)}}}" for i in range(10_000))


@pytest.mark.parametrize(
    ("preamble", "unclosed", "results"),
    [
        ("", "\\ifbool{undeclared}{\\begin{theorem} x\n", 10_000),
        ("\\newtoggle{t}", "\\iftoggle{t}{}{\\begin{theorem} x\n", 10_000),
        ("\\newcommand\\supp[1]{\\ifx\\else#1\\fi}", "\\supp{\\begin{theorem} x\n", 10_000),
        ("", "\\footnote{\\begin{theorem} x\n", 10_000),
        # the argument swallows the file, and the test then swallows its own branches
        (
            "\\NewDocumentCommand\\pick{m}{\\IfNoValueTF{#1}{}{#1}}",
            "\\pick{\\begin{theorem} x\n",
            0,
        ),
    ],
    ids=["ifbool", "iftoggle", "wrapping-macro", "footnote", "xparse-test"],
)
def test_ten_thousand_unclosed_groups_cost_linear_time(
    tmp_path: Path, preamble: str, unclosed: str, results: int
) -> None:
    # each group holds all that follows: read again at every use, or walked once more per
    # level, this took minutes or exhausted the stack. Linear: five times the groups cost at
    # most about five times the CPU (quadratic would be 25 times); the ratio, not a figure
    # in seconds, so a loaded machine cannot fail it (a generous absolute bound stays).
    # Measured quiet: 2k 0.14 s, 10k 0.91 s (a ratio of 6.4; the wrapping macro's case grows
    # about n^1.25, from allocation); quadratic was 25 and more
    def cost(n: int, folder: Path) -> tuple[float, Inventory]:
        folder.mkdir()
        start = time.process_time()
        inventory = _paper(folder, preamble + "\n", unclosed * n)
        return time.process_time() - start, inventory

    small, _ = cost(2_000, tmp_path / "small")
    large, inventory = cost(10_000, tmp_path / "large")
    assert large < 15 * max(small, 0.1), (small, large)
    assert large < 30.0
    assert len(inventory.results) == results


def test_a_chain_of_ten_thousand_macros_is_bounded(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        _CHAIN + f"\\def\\{_macro_name(10_000)}{{\\label{{deep}}}}\n",
        f"\\{_macro_name(0)}\n",
    )
    assert any("nest more than 16 deep" in m for m in _codes(inventory, "macro-expansion"))


def test_etoolbox_tests_read_only_the_branch_latex_takes() -> None:
    # every test of the fixture has a theorem in each branch: LaTeX's .aux holds one label per
    # test, and preflight must find exactly those (reading both branches finds 26 more and
    # shifts every number after the first test)
    folder = FIXTURES / "etoolbox_tests"
    latex = json.loads((folder / "expected" / "latex.json").read_text(encoding="utf-8"))
    inventory = build_inventory(folder, root="paper.tex")
    assert inventory.labels == latex["labels"]
    assert [r.number for r in inventory.results] == [str(n) for n in range(1, 27)]
    unknown = _codes(inventory, "unknown-condition")
    assert [m.split(":")[0] for m in unknown] == [
        "\\ifdimcomp{\\textwidth}{>}{10cm}",
        "\\ifdefstring{\\undefinedhere}{x}",
    ]


@pytest.mark.parametrize(
    ("test", "value"),
    [
        ("\\ifstrequal{a}{a}", True),
        ("\\ifstrequal{a}{ a}", False),  # a space token after `{` is kept
        ("\\ifstrequal{\\x  y}{\\x y}", True),
        ("\\ifstrempty{}", True),
        ("\\ifstrempty{ }", False),
        ("\\ifblank{  }", True),
        ("\\notblank{}", False),
        ("\\ifnumcomp{5}{<}{3}", False),
        ("\\ifnumcomp{5}{!}{3}", None),  # not a relation
        ("\\ifnumgreater{-7/2}{-4}", False),  # \numexpr rounds -3.5 to -4
        ("\\ifnumodd{-3}", True),
        ("\\ifnumequal{\\value{nosuch}}{0}", None),
        ("\\ifboolexpr{togl {t} and}", None),  # an operator with nothing after it
        ("\\ifboolexpr{(togl {t}}", None),
        # known whatever the toggle preflight does not know (declared where it does not read:
        # in LaTeX an undeclared one is an error, and the value error recovery gives)
        ("\\ifboolexpr{togl {t} or togl {nosuch}}", True),
        ("\\ifboolexpr{bool {b} and togl {nosuch}}", False),
        ("\\ifboolexpr{togl {t} and togl {nosuch}}", None),
        ("\\ifboolexpr{test {\\ifnosuchtest{x}}}", None),
        ("\\ifboolexpr{{\\ifdraft}}", None),  # a TeX conditional as an operand: not read
        ("\\ifdefstring{\\m}{A \\B}", True),
        ("\\ifdefstring{\\p}{#1}", False),  # a macro with parameters is no string
        ("\\ifdefempty{\\e}", True),
        ("\\ifdefvoid{\\nosuch}", None),  # undefined here: a package may define it
        ("\\ifdefstrequal{\\m}{\\n}", True),
        ("\\ifltxcounter{theorem}", True),
        ("\\ifltxcounter{nosuch}", None),
        ("\\ifdimless{1pt}{2pt}", None),
        ("\\ifinlist{a}{\\list}", None),
    ],
)
def test_etoolbox_test_values(test: str, value: bool | None) -> None:
    # every known value here is what pdflatex gives with etoolbox v2.5k (checked 2026-12-04),
    # but for the two `nosuch` toggles above; None: preflight does not know it
    walker = Walker(
        HEAD
        + "\\newtoggle{t}\\toggletrue{t}\\newbool{b}\\newcommand{\\m}{A  \\B}\\def\\n{A \\B}"
        + "\\newcommand{\\p}[1]{#1}\\newcommand{\\e}{}\n",
        [],
    )
    walker.run()
    word = test[1 : test.index("{")]
    args, _ = texscan.read_args(test, len(word) + 1, "{" * prepass.ETOOLBOX_TESTS[word])
    assert conditionals.test_value(walker, word, [a or "" for a in args]) is value


@pytest.mark.parametrize(
    "expression",
    [
        "not " * 50_000 + "togl {t}",
        "(" * 50_000 + "togl {t}" + ")" * 50_000,
        "togl {t} and " * 50_000 + "togl {t}",
        "test {\\ifboolexpr{" * 2_000 + "togl {t}" + "}}" * 2_000,
    ],
    ids=["nots", "parentheses", "ands", "nested-tests"],
)
def test_a_hostile_boolean_expression_is_not_known_and_cheap(
    tmp_path: Path, expression: str
) -> None:
    start = time.process_time()
    inventory = _paper(
        tmp_path,
        "\\newtoggle{t}\\toggletrue{t}\n",
        f"\\ifboolexpr{{{expression}}}{{\\begin{{theorem}}\\label{{a}}A.\\end{{theorem}}}}{{}}\n",
    )
    assert time.process_time() - start < 5
    assert [r.id for r in inventory.results] == ["a"]  # both branches read, and said so
    assert _codes(inventory, "unknown-condition")


def test_kernel_tests_read_only_the_branch_latex_takes() -> None:
    folder = FIXTURES / "kernel_tests"
    latex = json.loads((folder / "expected" / "latex.json").read_text(encoding="utf-8"))
    inventory = build_inventory(folder, root="paper.tex")
    assert inventory.labels == latex["labels"]  # old code: 26 results, both branches of each
    assert [m.split(":")[0] for m in _codes(inventory, "unknown-condition")] == [
        "\\@ifpackageloaded{nosuchpackage}",
        "\\@ifundefined{nosuchmacro}",
        "\\IfFileExists{nosuchfile.tex}",
    ]


def test_if_file_exists_never_looks_outside_the_paper(tmp_path: Path) -> None:
    (tmp_path / "outside.tex").write_text("x", encoding="utf-8")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "paper.tex").write_text(
        HEAD + "\\begin{document}\n"
        "\\IfFileExists{../outside.tex}{}{\\begin{theorem}\\label{a}A.\\end{theorem}}\n"
        "\\IfFileExists{/etc/hostname}{}{\\begin{theorem}\\label{b}B.\\end{theorem}}\n"
        "\\end{document}\n",
        encoding="utf-8",
    )
    inventory = build_inventory(paper / "paper.tex")
    assert [r.id for r in inventory.results] == ["a", "b"]  # not known: read, and said
    assert len(_codes(inventory, "unknown-condition")) == 2


@pytest.mark.parametrize(
    ("body", "arg", "expanded"),
    [
        ("\\if\\relax#1\\relax", "x", "\\if\\relax x\\relax"),  # not `\relaxx`
        ("\\langle#1", "He", "\\langle He"),
        ("\\langle#1", "(", "\\langle("),  # no letter after: nothing to separate
        ("#1x", "\\alpha", "\\alpha x"),  # the argument's last word, the body's letter
        ("\\\\#1", "x", "\\\\x"),  # `\\` is a control symbol: `x` is not part of it
        ("\\\\\\a#1", "b", "\\\\\\a b"),
        ("\\a#1#2", "\\b", "\\a\\b"),  # a backslash is no letter
        ("\\@gobble#1", "@x", "\\@gobble @x"),
    ],
)
def test_a_control_word_never_runs_into_an_argument(body: str, arg: str, expanded: str) -> None:
    # TeX tokenized the body and the argument apart; as text, side by side, they must read as
    # the same tokens (both substitutions: the walk's, and the report's math)
    args = [expansion.Arg(arg, 0), expansion.Arg("", 0)]
    assert expansion.substitute(body, args, None)[0] == expanded
    assert macros.substitute(body, [arg, ""]) == expanded


def test_a_file_name_expands_only_macros_defined_before_it(tmp_path: Path) -> None:
    inventory = _paper(
        tmp_path,
        "\\def\\loop{\\loop}\n",
        "\\input{\\dir/a}\n"  # defined only after: TeX cannot find it, and neither may we
        "\\newcommand{\\dir}{sub}\n"
        "\\input{\\dir/a}\n"
        "\\input{\\loop}\n",  # a macro naming itself: expanded a few times, then not found
    )
    (tmp_path / "sub").mkdir(exist_ok=True)
    assert [r.id for r in inventory.results] == []  # nothing read: `sub/a.tex` did not exist
    (tmp_path / "sub" / "a.tex").write_text(
        "\\begin{theorem}\\label{a}A.\\end{theorem}\n", encoding="utf-8"
    )
    inventory = build_inventory(tmp_path / "paper.tex")
    assert [r.id for r in inventory.results] == ["a"]
    missing = _codes(inventory, "missing-input")
    assert any("\\\\dir/a" in m for m in missing) and any("\\\\loop" in m for m in missing)


def test_an_unclosed_document_hook_is_read_where_it_stands(tmp_path: Path) -> None:
    # `\AtBeginDocument{` never closed would swallow `\begin{document}` if kept for it
    (tmp_path / "paper.tex").write_text(
        HEAD + "\\AtBeginDocument{\\setcounter{theorem}{4}\n\\begin{document}\n"
        "\\begin{theorem}\\label{a}A.\\end{theorem}\n\\end{document}\n",
        encoding="utf-8",
    )
    inventory = build_inventory(tmp_path / "paper.tex")
    assert [(r.id, r.number) for r in inventory.results] == [("a", "5")]
