"""The fast scans stop only where something can happen: each must give exactly what the plain
scan it replaced gives (kept here as the oracle) on generated and on real text. The pre-pass
blanks comments and verbatim, `split_rows` splits a display's rows, `plain_mentions` finds
"Lemma 2.3", `expand_macros` expands a display's numbering macros, `find_closing_brace` finds
the `}` that closes a group."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlint.preflight import counters as counters_module
from paperlint.preflight import equations, numbering, prepass, references, texscan
from paperlint.preflight.counters import Counters
from paperlint.preflight.equations import split_rows
from paperlint.preflight.numbering import Walker

_PLAIN = re.compile(
    r"(?P<verb>\\verb\*?(?P<d>[^A-Za-z\s*])[^\n]*?(?P=d))"
    r"|\\begin\s*\{(?P<venv>[A-Za-z*]+)\}"
    r"|(?P<esc>\\.)"
    r"|(?P<pct>%[^\n]*)",
    re.S,
)


def plain_strip(text: str, extra: tuple[str, ...] = (), keep: tuple[str, ...] = ()) -> str:
    envs = (set(prepass.VERBATIM_ENVS) | set(extra)) - set(keep)
    out: list[str] = []
    pos = 0
    while (match := _PLAIN.search(text, pos)) is not None:
        out.append(text[pos : match.start()])
        end = match.end()
        if match.group("pct") is not None or match.group("verb") is not None:
            out.append(re.sub(r"[^\n]", " ", match.group(0)))
        elif match.group("venv") is not None and match.group("venv") in envs:
            closing = text.find("\\end{" + match.group("venv") + "}", end)
            end = len(text) if closing < 0 else closing + len(match.group("venv")) + 6
            out.append(re.sub(r"[^\n]", " ", text[match.start() : end]))
        else:
            out.append(match.group(0))
        pos = end
    out.append(text[pos:])
    return "".join(out)


PIECES = st.sampled_from(
    [
        "\\",
        "\\\\",
        "%",
        "\\%",
        "\\verb",
        "\\verb*",
        "|",
        "+",
        "a",
        "x y",
        "\n",
        "\r",
        " ",
        "\\begin",
        "\\begin{verbatim}",
        "\\end{verbatim}",
        "\\begin {comment}",
        "\\end{comment}",
        "{",
        "}",
        "\\begin{verbatim*}",
        "\\end{verbatim*}",
        "\\begin{my-env}",
        "\\end{my-env}",
        "\\begin{notes}",
        "\\end{notes}",
        "\\begin{alltt}",
        "é",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(PIECES, max_size=30).map("".join),
    st.sampled_from([(), ("notes",), ("my-env", "notes")]),
    st.sampled_from([(), ("comment",)]),
)
def test_scan_blanks_what_the_plain_scan_blanks(
    text: str, extra: tuple[str, ...], keep: tuple[str, ...]
) -> None:
    assert prepass.strip_comments_and_verbatim(text, extra, keep) == plain_strip(text, extra, keep)


CORPUS = Path("/work/shared/corpus")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_scan_agrees_on_real_papers() -> None:
    files = sorted(CORPUS.rglob("*.tex")) + sorted(
        (Path(__file__).resolve().parents[2] / "fixtures").rglob("*.tex")
    )
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert prepass.strip_comments_and_verbatim(text) == plain_strip(text), path


_PLAIN_ROW_TOKEN = re.compile(r"\\\\|\\begin\s*\{[^}]*\}|\\end\s*\{[^}]*\}|\\[A-Za-z@]+|\\.|[{}]")
_ROW_SKIP = re.compile(r"\*?\s*(?:\[[^\]]*\])?")


def plain_split_rows(body: str) -> list[str]:
    rows: list[str] = []
    depth = start = 0
    spaced_end = False
    for match in _PLAIN_ROW_TOKEN.finditer(body):
        token = match.group(0)
        if token == "{" or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth -= 1
        elif token in ("\\intertext", "\\shortintertext") and depth <= 0:
            if body[start : match.start()].strip():
                rows.append(body[start : match.start()])
                start, spaced_end = match.start(), False
        elif token == "\\\\" and depth <= 0:
            rows.append(body[start : match.start()])
            skip = _ROW_SKIP.match(body, match.end())
            start = skip.end() if skip else match.end()
            spaced_end = "[" in body[match.end() : start]
    rows.append(body[start:])
    if len(rows) > 1 and not rows[-1].strip() and not spaced_end:
        rows.pop()
    return rows


ROW_PIECES = st.sampled_from(
    [
        "\\\\",
        "\\",
        "{",
        "}",
        "\\{",
        "\\}",
        "\\begin{cases}",
        "\\end{cases}",
        "\\begin",
        "\\end",
        "\\intertext{x}",
        "\\shortintertext",
        "\\intertexts",
        "\\intertext@",
        "\\endinput",
        "[1em]",
        "\\begingroup",
        "\\endgroup",
        "\\begin {x",
        "\\end ",
        "*",
        " ",
        "\n",
        "a",
        "&",
        "\\label{e}",
        "\\\n",
        "\\@",
        "\\\\[2pt]",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(ROW_PIECES, max_size=30).map("".join))
def test_rows_split_as_the_plain_split(body: str) -> None:
    assert split_rows(body) == plain_split_rows(body)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_rows_split_as_the_plain_split_on_real_papers() -> None:
    align = re.compile(r"\\begin\{(align|gather|eqnarray)\*?\}(.*?)\\end\{\1\*?\}", re.S)
    bodies = [
        m.group(2)
        for path in sorted(CORPUS.rglob("*.tex"))
        for m in align.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert len(bodies) > 100
    for body in bodies:
        assert split_rows(body) == plain_split_rows(body)


_PLAIN_MENTION = re.compile(r"\b" + references._PLAIN.pattern)

MENTION_PIECES = st.sampled_from(
    ["Lemma", "Theorem", "Lemmas", "Thm.", " ", "~", "2", "3.1", "a", "A", "é", "_", "x", "\n"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(MENTION_PIECES, max_size=20).map("".join))
def test_mentions_found_as_with_a_word_boundary(text: str) -> None:
    want = [(m.group(1).lower(), m.group(2)) for m in _PLAIN_MENTION.finditer(text)]
    assert references.plain_mentions(text) == want


_PROOF_OF_IGNORING_CASE = re.compile(r"Proof\s+of\s+(?:the\s+)?", re.I)
PROOF_OF_PIECES = st.sampled_from(
    [
        "Proof",
        "proof",
        "PROOF",
        "pRoOf",
        "P",
        "roof",
        " of",
        " OF",
        " Of",
        "the",
        " THE ",
        " ",
        "\n",
        "\t",
        "x",
        "é",
        "ſ",
        "K",
        "\u212a",
        "\u0130",
        "\u00a0",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PROOF_OF_PIECES, max_size=16).map("".join))
def test_proof_of_found_as_with_the_whole_pattern_ignoring_case(text: str) -> None:
    from paperlint.preflight import proofs

    want = [m.span() for m in _PROOF_OF_IGNORING_CASE.finditer(text)]
    assert [m.span() for m in proofs._PROOF_OF.finditer(text)] == want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["\\numberthis", "\\nt", "\\ntx", "\\n", "a", "\\\\", " ", "\\n-t", "\\@n", "-"]
        )
    ).map("".join),
    st.sampled_from(
        [{}, {"nt": "\\stepcounter{equation}"}, {"numberthis": "\\tag{x}", "n": ""}]
        + [{"n-t": "\\tag{y}", "ntx": "\\\\", "@n": "z"}]
    ),
)
def test_expand_macros_as_the_regex_alone(body: str, expanders: dict[str, str]) -> None:
    want = re.sub(
        r"\\([A-Za-z@]+)(?![A-Za-z@])", lambda m: expanders.get(m.group(1), m.group(0)), body
    )
    assert equations.expand_macros(body, expanders) == want


def test_a_long_excludecomment_list_costs_no_more_than_a_set_lookup() -> None:
    # 20,000 names sharing a long prefix and 20,000 `\begin`s of other names: tried one name
    # after another at each `\begin` (a pattern of all the names) this took 13 s; looked up
    # in a set, 0.06 s.
    names = ["q" * 12 + "".join("abcdefghij"[int(d)] for d in f"{i:05d}") for i in range(20_000)]
    text = "".join(f"\\excludecomment{{{n}}}\n" for n in names)
    text += "".join(f"\\begin{{{n}z}} % c\n" for n in names)
    text += f"\\begin{{{names[7]}}} hidden \\end{{{names[7]}}}"
    start = time.process_time()
    cleaned = prepass.clean(text)
    assert time.process_time() - start < 3
    assert "hidden" not in cleaned and f"\\begin{{{names[0]}z}}" in cleaned and "% c" not in cleaned


_PLAIN_BRACE_TOKEN = re.compile(r"\\.|[{}]", re.S)


def plain_closing_brace(text: str, pos: int) -> int:
    depth = 0
    for match in _PLAIN_BRACE_TOKEN.finditer(text, pos):
        if match.group(0) == "{":
            depth += 1
        elif match.group(0) == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return len(text)


BRACE_PIECES = st.sampled_from(["{", "}", "\\", "\\\\", "\\{", "\\}", "a", "\\x", "\n", " ", "%"])


@settings(max_examples=600, deadline=None)
@given(st.lists(BRACE_PIECES, max_size=40).map("".join))
def test_closing_brace_found_as_the_plain_loop(text: str) -> None:
    # every start: a `{` (balanced, unbalanced, nested past the regex's six levels), and not
    for pos in range(len(text) + 1):
        assert texscan.find_closing_brace(text, pos) == plain_closing_brace(text, pos), pos


def test_closing_brace_past_six_levels_and_unbalanced() -> None:
    for depth in range(1, 10):
        text = "x{" * depth + "\\}" + "}" * depth + "tail"  # the outer group's `}` before "tail"
        assert texscan.find_closing_brace(text, 1) == len(text) - 5
        unclosed = text[:-5]
        assert texscan.find_closing_brace(unclosed, 1) == len(unclosed)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_closing_brace_agrees_on_real_papers() -> None:
    files = sorted(CORPUS.rglob("*.tex")) + sorted(CORPUS.rglob("*.bib"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for pos in [m.start() for m in re.finditer(r"\{", text)][:3000]:
            assert texscan.find_closing_brace(text, pos) == plain_closing_brace(text, pos), path


@pytest.mark.parametrize(
    "hostile",
    [
        lambda n: "{" * n,  # deeper than six levels and never closed
        lambda n: "{" + "{}" * n,  # shallow, never closed: the regex scans it all, then the loop
        lambda n: ("{" * 7 + "}" * 7) * n,  # balanced, past six levels, closed once each
        lambda n: "{" + "\\" * n,  # a backslash run to the end
    ],
)
def test_closing_brace_stays_linear(hostile: object) -> None:
    make = hostile  # type: ignore[assignment]
    times = []
    for n in (20_000, 80_000):
        text = make(n)  # type: ignore[operator]
        start = time.process_time()
        for pos in range(0, 50):
            texscan.find_closing_brace(text, pos)
        times.append(time.process_time() - start)
    assert times[1] < 8 * times[0] + 0.05  # 4x the input: ~4x the time, not 16x


def plain_read_optional(text: str, pos: int, *, newline: bool = True) -> tuple[str, int] | None:
    """`texscan.read_optional` as it was, a character at a time (the oracle)."""
    start = texscan.skip_spaces(text, pos, newline=newline)
    if start >= len(text) or text[start] != "[":
        return None
    depth = 0
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == "]" and depth == 0:
            return text[start + 1 : i], i + 1
        elif ch == "\n" and text.startswith("\n", i + 1) and depth == 0:
            return None
        i += 1
    return None


OPTIONAL_PIECES = st.sampled_from(
    ["[", "]", "{", "}", "\\", "\\]", "\\{", "a", " ", "\t", "\n", "\n\n", "%", "x=y,"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(OPTIONAL_PIECES, max_size=30).map("".join), st.booleans())
def test_optional_read_as_the_plain_loop(text: str, newline: bool) -> None:
    for pos in range(len(text) + 1):
        want = plain_read_optional(text, pos, newline=newline)
        assert texscan.read_optional(text, pos, newline=newline) == want, pos


def plain_short_argument(
    walker: Walker, text: str, m: re.Match[str], at: int
) -> tuple[str | None, int]:
    """`Walker.short_argument` as it was, always through `read_group_span` (the oracle)."""
    span = texscan.read_group_span(text, at)
    if span is None:
        return None, at
    start, stop, after = span
    if text is not walker.text or text[start - 1 : start] != "{":
        return text[start:stop].strip(), after
    command = "\\" + m.group(1)
    runaway = re.compile(r"\n[ \t]*\n|\\par(?![A-Za-z@])").search(text, start, stop)
    if runaway is not None:
        stops, goes_on = f"Paragraph ended before {command} was complete", runaway.start()
    elif stop >= len(text):
        stops, goes_on = f"File ended while scanning use of {command}", len(text)
    else:
        return text[start:stop].strip(), after
    head = text[start:goes_on].strip().split("\n")[0][:40]
    message = f'{command}{{{head} is missing its closing brace: LaTeX stops ("{stops}")'
    walker.problem(walker.at(m.start()), "error", "runaway-argument", message)
    return None, goes_on


ARGUMENT_PIECES = st.sampled_from(
    ["{", "}", "\\\\", "\\{", "\\par", "\\x", "a", " ", "\t", "\n", "\n\n", "%", "*", "name"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(ARGUMENT_PIECES, max_size=20).map("".join))
def test_short_argument_as_the_group_reader(pieces: str) -> None:
    """`Walker.short_argument` reads a one-line `{name}` with one regex: it answers, and
    reports, what reading the group does (in the walk's own text and in a snippet). The text
    never ends in a lone backslash: `read_group_span` fails an assertion there (before this
    fast path too: a paper ending in `\\begin\\` stops preflight with an internal error)."""
    text = "\\begin" + pieces + "x"
    match = re.match(r"\\(begin)", text)
    assert match is not None
    for own in (True, False):
        fast, plain = Walker(text if own else ""), Walker(text if own else "")
        for pos in range(match.end(), len(text) + 1):
            want = plain_short_argument(plain, text, match, pos)
            assert fast.short_argument(text, match, pos) == want, pos
        assert fast.out.problems == plain.out.problems


PROOF_NAMES = st.sampled_from(
    ["proof", "Proof", "PROOF", "pf", "prf", "demo", "Demostracion", "preuve", "beweis", "tree"]
    + ["of", "list", "my", "*", "x", "@", "ſ", "ı", "K", "é", " ", "0", "s", "lemma"]
)


@settings(max_examples=800, deadline=None)
@given(st.lists(PROOF_NAMES, max_size=4).map("".join))
def test_proof_names_as_the_regex_alone(name: str) -> None:
    assert Walker.is_proof_name(name) == (_PLAIN_PROOF_ENV.match(name) is not None)


_PLAIN_PROOF_ENV = re.compile(numbering._PROOF_ENV.pattern, re.I)

TEMPLATE_PIECES = st.sampled_from(
    ["\\thesection", "\\thetheorem", "\\thenone", "\\arabic{theorem}", "\\roman{section}"]
    + ["\\Alph {chapter}", "\\arabic", "{", "}", ".", "-", "~", "\\ ", "\\@", "\\,", "\\fi"]
    + ["\\ifnum\\c@chapter>\\z@ \\thechapter.\\fi", "\\ifnum\\value{section}=2 A\\else B\\fi"]
    + ["\\ifnum x", "\\prefix", "\\space", "\\the\\c@section", "\\number\\value{theorem}"]
    + ["\\two@digits{\\value{section}}", "\\@arabic\\c@section", "\\textbf{", "a b"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(TEMPLATE_PIECES, max_size=12).map("".join), st.integers(0, 3))
def test_counter_templates_read_as_token_by_token(template: str, chapter: int) -> None:
    """`Counters.expand` of a template read into pieces once (`counters._pieces`) prints
    what reading it token by token prints, whatever the counters, macros and templates."""
    counters = Counters()
    for name, value in (("chapter", chapter), ("section", 2), ("theorem", 7)):
        counters.new(name)
        counters.set(name, value)
    counters.the["section"] = "\\thechapter.\\arabic{section}"
    counters.the["theorem"] = "\\thesection.\\arabic{theorem}"
    counters.macros["prefix"] = "P\\thesection"
    for depth in (0, 11):
        got = counters.expand(template, depth)
        with pytest.MonkeyPatch.context() as patch:  # every template read token by token
            patch.setattr(counters_module, "_pieces", lambda template: None)
            assert got == counters.expand(template, depth)


def plain_braces(text: str, start: int, end: int) -> tuple[list[tuple[int, bool]], list[int]]:
    """The brace check token by token (the oracle): every brace left open, outermost first,
    with whether it is listed (not a `\\begin{`'s), and every `}` closing nothing."""
    opened: list[tuple[int, bool]] = []
    extra: list[int] = []
    i = start
    while i < end:
        if text.startswith(("\\begin{", "\\end{", "\\label{"), i):
            i = text.index("{", i)
            opened.append((i, False))
        elif text[i] == "\\":
            i += 1  # the next character is escaped
        elif text[i] == "{":
            opened.append((i, True))
        elif text[i] == "}":
            if opened:
                opened.pop()
            else:
                extra.append(i)
        i += 1
    return opened, extra


@given(
    st.lists(st.sampled_from(["{", "}", "\\", "\\{", "\\}", "\\\\", "a", "\n", "\\begin{"])).map(
        "".join
    ),
    st.integers(1, 7),
    st.integers(0, 4),
    st.integers(1, 4),
)
def test_braces_checked_a_chunk_at_a_time_as_token_by_token(
    text: str, chunk: int, limit: int, kept: int
) -> None:
    """The brace check in chunks of a few characters (a backslash at a chunk's end moves the
    end back) agrees with the token walk over the whole: whether all is balanced, and where
    it is not: the first `limit` of each kind, the open ones among the `kept` outermost."""
    old = texscan._CHUNK, texscan._KEPT_OPEN
    texscan._CHUNK = chunk
    try:
        opened, extra = plain_braces(text, 0, len(text))
        assert texscan._balanced(text, 0, len(text)) is (not opened and not extra)
        want = [at for at, listed in opened if listed][:limit], extra[:limit]
        assert texscan.unbalanced_braces(text, 0, len(text), limit) == want
        texscan._KEPT_OPEN = kept
        want = [at for at, listed in opened[:kept] if listed][:limit], extra[:limit]
        assert texscan.unbalanced_braces(text, 0, len(text), limit) == want
    finally:
        texscan._CHUNK, texscan._KEPT_OPEN = old


def test_braces_are_checked_without_copying_the_whole_body() -> None:
    """The balanced check of a long body holds what `re` makes of one chunk at a time, not
    of the whole body (whose copies, and the pieces `re.sub` joins, were 220 MiB of
    preflight's peak on a 39.5 MB paper)."""
    import tracemalloc

    body = "\\section{A} text {\\em b} and $\\{x\\}$.\n" * 200_000  # 7.6 MB
    tracemalloc.start()
    try:
        assert texscan.unbalanced_braces(body, 0, len(body), 5) == ([], [])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(body) / 2, peak  # one copy of the body alone would be len(body)


def test_open_braces_past_a_few_thousand_are_counted_not_kept():
    """A body of nothing but `{` (hostile): the walk keeps the places of the outermost
    `_KEPT_OPEN` and counts the rest (keeping them all, ten million took 1.1 GB)."""
    import tracemalloc

    body = "{" * 300_000 + "}" * 10
    tracemalloc.start()
    try:
        unclosed, extra = texscan.unbalanced_braces(body, 0, len(body), 5)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (unclosed, extra) == ([0, 1, 2, 3, 4], [])
    # a few copies of a chunk (`_balanced`); the places of all would be ~25 MB
    assert peak < 8 * texscan._CHUNK, peak
