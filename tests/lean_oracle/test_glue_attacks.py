"""The glue family of tests/adversarial is a real attack: the real Lean splits where we refuse.

Every `refused/glue_*.lean` answer is refused with `glued-token` (tests/adversarial). Here each
one goes to Lean 4.35 itself (as a `prelude` file, so only Lean's built-in grammar runs; the
answers are written in it) and, at every place the scan says one token runs into the next,
Lean must start a new token: where the second token is a command keyword Lean has without a
library, a new command (the hidden `instance`, `axiom`, `elab_rules`, `set_option`, `#eval`);
where the first is a character only Mathlib makes a token (`ᶜ`, `ᵀ`, `²`), Lean refuses it
rather than reading it into the identifier before it. And the look-alikes of `clean/` that
hold one identifier (`x₀instance`, `instance_of_x`) are one identifier to Lean too.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from paperlint.lean.answer import answer_findings
from paperlint.lean.lexer import BUILTIN_SYMBOLS, Kind, code_tokens, tokenize
from tests.lean_oracle import leantokens

ADVERSARIAL = Path(__file__).parents[1] / "adversarial"
GLUE = sorted((ADVERSARIAL / "refused").glob("glue_*.lean"))
# Command keywords of Lean's built-in grammar (they need no `Init`).
COMMANDS = frozenset(
    {"instance", "axiom", "elab_rules", "set_option", "#eval", "#check", "theorem", "def"}
)


def _offset(text: str, line: int, col: int) -> int:
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts[line - 1] + col


def _lean_reading(lean: Path, answer: str) -> tuple[str, leantokens.Reading]:
    text = leantokens.HEADER + answer
    return text, leantokens.read(text, leantokens.run_lean(lean, text))


def test_the_family_is_big_enough():
    assert len(GLUE) >= 25


def test_every_glue_point_is_where_lean_starts_a_new_token(lean_oracle: Path) -> None:
    def check(path: Path) -> list[str]:
        answer = path.read_text(encoding="utf-8")
        text, reading = _lean_reading(lean_oracle, answer)
        shift = len(leantokens.HEADER)
        tokens = {t.offset: t for t in tokenize(answer) if t.kind is not Kind.COMMENT}
        starts = {leaf.start for _, leaves in reading.commands for leaf in leaves}
        commands = {start for start, _ in reading.commands}
        errors = {m.offset for m in reading.messages if m.severity == "error"}
        exits = {m.offset for m in reading.messages if "using 'exit'" in m.data}
        points = [f for f in answer_findings(answer) if f.rule.value == "glued-token"]
        wrong = []
        for finding in points:
            at = _offset(answer, finding.line, finding.col)
            right = tokens[at]
            left = max((t for t in tokens.values() if t.end == at), key=lambda t: t.offset)
            where = f"{path.name}:{finding.line}:{finding.col} `{left.text}|{right.text}`"
            if left.kind is Kind.SYMBOL and left.text not in BUILTIN_SYMBOLS:
                # a Mathlib token (`ᶜ`): Lean stops the word before it and refuses it here
                if left.offset + shift not in errors:
                    wrong.append(f"{where}: Lean did not stop at `{left.text}`")
            elif left.kind is Kind.HASH_COMMAND and left.text == "#exit":
                if left.offset + shift not in exits:
                    wrong.append(f"{where}: Lean did not exit at `#exit`")
            elif right.text in COMMANDS and at + shift not in commands:
                wrong.append(f"{where}: Lean did not start the command `{right.text}` here")
            elif at + shift not in starts | errors | commands:
                wrong.append(f"{where}: Lean shows no token starting here")
        return wrong if points else [f"{path.name}: no glued-token finding"]

    with ThreadPoolExecutor(max_workers=2) as pool:
        wrong = [w for part in pool.map(check, GLUE) for w in part]
    assert wrong == []


@pytest.mark.parametrize("word", ["x₀instance", "instance_of_x", "axiom₀", "sorry₁", "x'axiom"])
def test_look_alike_identifiers_are_one_identifier_to_lean(lean_oracle: Path, word: str):
    _, reading = _lean_reading(lean_oracle, f"#check fun {word} => 0\n")
    idents = [
        leaf.text for _, leaves in reading.commands for leaf in leaves if leaf.kind == "ident"
    ]
    assert word in idents
    assert [t.text for t in code_tokens(f"#check fun {word} => 0")][2] == word
