"""The lexer against Lean's own tokenizer: the real Lean 4.35.0 decides every boundary.

`leantokens` reads each token Lean parsed, with its position, out of a `pp.raw.showInfo`
trace (docs/lean-tokens.md says how); `sequences` generates glued token sequences from a fixed
seed. Each test runs Lean on batched `prelude` files and compares, token by token:

- 800 generated sequences (numerals of every form, identifiers, `«»`, strings, characters,
  names, projections, comments of every kind, glued to command keywords and to characters Lean
  does not count as letters): every boundary equal, every Python token start shown by Lean;
- malformed text (`0x`, `2.x`, `'ab'`, a tab, …): refused by both, at the same place;
- identifier characters: every range end of `isLetterLike`/`isSubScriptAlnum` and a seeded
  sample of code points (`PAPERLINT_ORACLE_FULL=1`: all of U+0080–U+10FFFF, ~20 minutes);
- multi-character symbols and hash commands: the lexer's built-in tables, and seeded runs of
  punctuation, read as Lean reads them at the start of a line.
"""

from __future__ import annotations

import json
import os
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from paperlint.lean import lexer
from paperlint.lean.lexer import code_tokens, is_ident_rest, is_ident_start, lex_errors
from tests.lean_oracle import leantokens, sequences

SEED = 2025
COUNT = 800


def test_the_lexer_draws_every_boundary_where_lean_does(lean_oracle: Path) -> None:
    generated = sequences.sequences(SEED, COUNT)
    assert len(generated) >= 500
    results = leantokens.run_batches(lean_oracle, generated)
    problems: list[str] = []
    tokens = confirmed = 0
    for sequence, (text, begin, end, reading) in zip(generated, results, strict=True):
        verdict = leantokens.compare(text, begin, end, reading)
        assert verdict.synchronized, f"Lean was still inside the sequence before {sequence!r}"
        problems += [f"{sequence!r}: {p}" for p in verdict.problems]
        tokens += verdict.tokens
        confirmed += verdict.confirmed
    assert problems == []
    # Every Python token's start was shown by Lean: no sequence tested less than it says.
    assert confirmed == tokens and tokens > 5 * COUNT


@pytest.mark.parametrize("malformed", sequences.MALFORMED, ids=repr)
def test_malformed_text_is_refused_where_lean_refuses_it(lean_oracle: Path, malformed: str):
    sequence = f"#check fun x {malformed}"
    [(text, begin, end, reading)] = leantokens.run_batches(lean_oracle, [sequence])
    verdict = leantokens.compare(text, begin, end, reading, alone=True)
    assert verdict.problems == []
    assert lex_errors(sequence), "Lean refuses this text, so must the lexer"
    assert any(m.offset >= begin for m in reading.messages if m.severity == "error")


def _code_points() -> list[int]:
    """Each range end of Lean's identifier characters and one past it, Latin, Greek, symbol
    blocks, and a seeded sample of the rest; all of them with PAPERLINT_ORACLE_FULL=1."""
    if os.environ.get("PAPERLINT_ORACLE_FULL") == "1":
        points = range(0x80, 0x110000)
    else:
        ends = [
            p
            for lo, hi in (*lexer._LETTER_LIKE, *lexer._SUBSCRIPTS)
            for p in (lo - 1, lo, hi, hi + 1)
        ]
        rng = random.Random(SEED)
        sample = [rng.randrange(0x80, 0x30000) for _ in range(1500)]
        points = [*range(0x80, 0x250), *range(0x370, 0x400), *range(0x1D00, 0x1DC0), *ends]
        points = [*points, *range(0x2000, 0x2200), *sample]
    return sorted({p for p in points if not 0xD800 <= p <= 0xDFFF and p not in (0xAB, 0xBB)})


def test_identifier_characters_are_leans(lean_oracle: Path) -> None:
    """`#check a<c>b` names one identifier when `c` is `isIdRest`, `#check <c>b` when it is
    `isIdFirst`: Lean's `Unknown identifier` message spells the identifier it read."""
    points = _code_points()

    def one(chunk: list[int]) -> list[str]:
        lines = ["prelude"]
        for point in chunk:
            lines += [f"#check a{chr(point)}b", f"#check {chr(point)}b"]
        text = "\n".join(lines) + "\n"
        read = {}
        for message in leantokens.run_lean(lean_oracle, text):
            found = re.fullmatch(r"Unknown identifier `(.*)`", str(message["data"]), re.S)
            if found:
                pos = message["pos"]
                assert isinstance(pos, dict)
                read[int(pos["line"])] = found.group(1).strip("«»")
        wrong = []
        for index, point in enumerate(chunk):
            ch = chr(point)
            rest = read.get(2 + 2 * index) == f"a{ch}b"
            first = read.get(3 + 2 * index) == f"{ch}b"
            if (first, rest) != (is_ident_start(ch), is_ident_rest(ch)):
                wrong.append(f"U+{point:04X} {ch!r}: Lean first={first} rest={rest}")
        return wrong

    chunks = [points[i : i + 1000] for i in range(0, len(points), 1000)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        wrong = [w for part in pool.map(one, chunks) for w in part]
    assert wrong == [], f"{len(wrong)} of {len(points)} code points: {wrong[:10]}"


def _first_tokens(lean: Path, starts: list[str]) -> dict[str, str]:
    """The token Lean reads at the start of a line, for each text in `starts`: the one its
    `unexpected token 'X'` names, or the first atom of the command it parsed there."""
    lines = [
        "prelude",
        "set_option trace.Elab.command true",
        "set_option pp.raw true",
    ]
    for start in starts:
        lines += [leantokens.RESYNC, f"{start} x"]
    found: dict[str, str] = {}
    for message in leantokens.run_lean(lean, "\n".join(lines) + "\n"):
        pos = message["pos"]
        assert isinstance(pos, dict)
        line, data = int(pos["line"]), str(message["data"])
        index = (line - 5) // 2
        if line < 5 or line % 2 == 0 or pos["column"] != 0 or index >= len(starts):
            continue
        refused = re.match(r"unexpected token '(.*?)'; expected", data)
        parsed = re.search(r'^\[Elab\.command\][^(]*\(\S+\s+"((?:[^"\\]|\\.)*)"', data)
        if refused:
            found[starts[index]] = refused.group(1)
        elif parsed and message.get("kind") == "trace":
            found.setdefault(starts[index], json.loads(f'"{parsed.group(1)}"'))
    return found


def test_symbols_and_hash_commands_are_leans(lean_oracle: Path) -> None:
    punctuation = "!$&()*+,.:;<=>?@[]^_{|}~·λ←→↦⟨⟩⦃⦄∀⋯▸"
    rng = random.Random(SEED)
    runs = ["".join(rng.choice(punctuation) for _ in range(rng.randint(2, 4))) for _ in range(400)]
    glued = [f"{command}x" for command in lexer.BUILTIN_HASH_COMMANDS if command != "#exit"]
    starts = [*lexer.BUILTIN_SYMBOLS, *runs, *glued]
    starts = [s for s in starts if not s.startswith("@[")]  # a command's attributes
    read = _first_tokens(lean_oracle, starts)
    wrong = []
    for start in starts:
        if start not in read:
            continue  # a command Lean parsed without an atom first (`(`, `⟨` … open terms)
        python = code_tokens(f"{start} x")[0].text
        if python != read[start]:
            wrong.append(f"{start!r}: Lean {read[start]!r}, Python {python!r}")
    assert wrong == []
    assert all(s in read for s in lexer.BUILTIN_SYMBOLS if s != "@[")
    assert all(read.get(f"{c}x") == c for c in lexer.BUILTIN_HASH_COMMANDS if c != "#exit")
    assert len(read) > 300  # the runs tested something


def test_exit_glued_to_a_word_still_stops_lean(lean_oracle: Path) -> None:
    """`#exitfoo` is `#exit` and `foo` to Lean: everything after it goes unchecked."""
    text = "prelude\n#exitfoo\ntheorem bad : Nope := nope\n"
    messages = leantokens.run_lean(lean_oracle, text)
    assert [m["data"] for m in messages] == ["using 'exit' to interrupt Lean"]
    assert [t.text for t in code_tokens(text)][1:3] == ["#exit", "foo"]
