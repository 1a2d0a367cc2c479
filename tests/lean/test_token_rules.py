"""The lexer's token rules (docs/lean-tokens.md) as a case table, and the scans built on them.

Each expectation of `test_token_boundaries` is what the real Lean 4.35 reads (checked there;
tests/lean_oracle checks the rules themselves where the executable is available, these cases run
everywhere); `test_documented_departures_from_the_builtin_table` lists what the lexer reads as
Lean does with a library imported. Then the rules that
use the boundaries: `glued-token`, `lex-error` and `native-decide`, under every text gate that
screens model-written Lean, which all call the one scan (`hygiene.scan_text`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.engine import ports
from paperlint.lean import guard
from paperlint.lean.answer import answer_findings, answer_problem
from paperlint.lean.audit import audit_files
from paperlint.lean.hygiene import refusal_findings, scan_text
from paperlint.lean.lexer import (
    Kind,
    glued,
    is_ident_rest,
    is_ident_start,
    lex_errors,
    tokenize,
)
from paperlint.validate.leanfile import hygiene_findings


def _texts(text: str) -> list[str]:
    return [t.text for t in tokenize(text) if t.kind is not Kind.COMMENT]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # numerals stop after their digits
        ("0instance", ["0", "instance"]),
        ("0b101axiom", ["0b101", "axiom"]),
        ("0o17elab_rules", ["0o17", "elab_rules"]),
        ("0x1Faxiom", ["0x1Fa", "xiom"]),
        ("0XABtheorem", ["0XAB", "theorem"]),
        ("0xFF_ffinstance", ["0xFF_ff", "instance"]),
        ("1_000x", ["1_000", "x"]),
        ("1__0", ["1__0"]),
        ("1.5instance", ["1.5", "instance"]),
        ("2e3axiom", ["2e3", "axiom"]),
        ("1.5e-3run_cmd", ["1.5e-3", "run_cmd"]),
        ("2E+10x", ["2E+10", "x"]),
        ("1.e3", ["1.e3"]),
        ("2.", ["2."]),
        ("1..5", ["1", "..", "5"]),
        ("1.5..2", ["1.5", "..", "2"]),
        # projections: a field index is digits only
        ("h.1.2", ["h", ".", "1", ".", "2"]),
        ("h.1instance", ["h", ".", "1", "instance"]),
        ("h.1e3", ["h", ".", "1", "e3"]),
        ("(x).2.1", ["(", "x", ")", ".", "2", ".", "1"]),
        ("2.5.1", ["2.5", ".", "1"]),
        # identifiers: Lean's characters only
        ("x₀instance", ["x₀instance"]),
        ("xⱼ", ["xⱼ"]),
        ("sorryᶜ", ["sorry", "ᶜ"]),
        ("xᶜaxiom", ["x", "ᶜ", "axiom"]),
        ("x²y", ["x", "²", "y"]),
        ("aжb", ["a", "ж", "b"]),
        ("éĀſ", ["éĀſ"]),
        ("λx", ["λ", "x"]),
        ("Πx", ["Π", "x"]),
        ("α'!?", ["α'!?"]),
        ("x.«y z».w", ["x.«y z».w"]),
        ("«x»axiom", ["«x»", "axiom"]),
        ("x«y»", ["x", "«y»"]),
        ("x.1", ["x", ".", "1"]),
        ("x..y", ["x", "..", "y"]),
        # hash commands are the longest Lean knows
        ("#checkx", ["#check", "x"]),
        ("#printaxioms", ["#print", "axioms"]),
        ("#exitfoo", ["#exit", "foo"]),
        ("#check_failure x", ["#check_failure", "x"]),
        ("#eval!x", ["#eval!", "x"]),
        # symbols
        ("a:=b", ["a", ":=", "b"]),
        ("a<=b", ["a", "<=", "b"]),
        ("x |>.f", ["x", "|>.", "f"]),
        ("`(x)", ["`(", "x", ")"]),
        ("?_", ["?", "_"]),
        # literals
        ("'a'b", ["'a'", "b"]),
        ("'\\x41'", ["'\\x41'"]),
        ('"a\\"b"x', ['"a\\"b"', "x"]),
        ('r#"a"b"#x', ['r#"a"b"#', "x"]),
        ("`n.m x", ["`n.m", "x"]),
    ],
)
def test_token_boundaries(text: str, tokens: list[str]) -> None:
    assert _texts(text) == tokens
    assert lex_errors(text) == []


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("#mycommand", ["#mycommand"]),  # a library's command the table does not know
        ("#reduce x", ["#reduce", "x"]),  # a library's command it knows
        ("f '' s ⊆ g ⁻¹' t", ["f", "''", "s", "⊆", "g", "⁻¹'", "t"]),  # Mathlib's tokens
        ("``n x", ["``n", "x"]),  # Lean: `, ` and n; one name literal for the scans
    ],
)
def test_documented_departures_from_the_builtin_table(text: str, tokens: list[str]) -> None:
    assert _texts(text) == tokens


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("/-/- -/ instance", ["instance"]),  # the third character is stepped over
        ("/- /- -/ -/ x", ["x"]),
        ("/-- doc /- nested -/ -/ x", ["x"]),
        ("/--/ -/ x", ["x"]),
        ("x -- instance\ny", ["x", "y"]),
        ("x/-c-/y", ["x", "y"]),
    ],
)
def test_comments(text: str, code: list[str]) -> None:
    assert _texts(text) == code


@pytest.mark.parametrize(
    ("text", "message", "col"),
    [
        ("0x", "unexpected character; expected hexadecimal number", 2),
        ("0b2", "unexpected character; expected binary number", 2),
        ("1_", "unexpected character; expected decimal number", 2),
        ("1e", "missing exponent digits in scientific literal", 1),
        ("2example", "missing exponent digits in scientific literal", 1),
        ("2.x", "unexpected identifier after decimal point", 0),
        ("'ab'", "missing end of character literal", 3),
        ("'\\q'", "invalid escape sequence", 2),
        ("'\\x4'", "invalid hexadecimal numeral", 4),
        ('"\\q"', "invalid escape sequence", 2),
        ('"a\\\n\n b"', "unexpected additional newline in string gap", 0),
        ('"open', "unterminated string literal", 0),
        ("/- open", "unterminated comment", 0),
        ("«open", "unterminated identifier escape", 1),
        ('r#"open', "unterminated raw string literal", 0),
        ("x\ty", "tabs are not allowed", 1),
        ("x\ry", "isolated carriage returns are not allowed", 1),
        ("x\u00a0y", "U+00A0 is not whitespace to Lean", 1),
    ],
)
def test_what_leans_tokenizer_refuses(text: str, message: str, col: int) -> None:
    [error] = lex_errors(text)
    assert error.message.startswith(message) and error.col == col


def test_crlf_is_a_line_break_not_an_error() -> None:
    assert lex_errors("x\r\ny") == [] and _texts("x\r\ny") == ["x", "y"]


@pytest.mark.parametrize(
    ("char", "first", "rest"),
    [
        ("a", True, True),
        ("_", True, True),
        ("0", False, True),
        ("'", False, True),
        ("α", True, True),
        ("λ", False, False),
        ("Π", False, False),
        ("Σ", False, False),
        ("ℝ", True, True),
        ("𝓝", True, True),
        ("é", True, True),
        ("×", False, False),
        ("₀", False, True),
        ("ᵢ", False, True),
        ("ⱼ", False, True),
        ("ᶜ", False, False),
        ("²", False, False),
        ("ж", False, False),
        ("µ", False, False),
    ],
)
def test_identifier_characters(char: str, first: bool, rest: bool) -> None:
    assert (is_ident_start(char), is_ident_rest(char)) == (first, rest)


@pytest.mark.parametrize(
    ("text", "is_glued"),
    [
        ("0instance", True),
        ("0x1Faxiom", True),
        ("1.5e3run_cmd", True),
        ("h.1instance", True),
        ("«x»axiom", True),
        ("#checkx", True),
        ('"s"instance', True),
        ("'c'axiom", True),
        ("xᶜaxiom", True),
        ("0ᶜ", True),
        ("x«y»", True),
        ("`n#eval", True),
        ("sᶜ", False),
        ("sᶜᶜ", False),
        ("x⁻¹", False),
        ("h.1.2", False),
        ("?_", False),
        ("!b", False),
        ("←h", False),
        ("(x)y", False),
        ("x₀instance", False),
        ("0 instance", False),
        ("0/-c-/instance", False),
        ('s!"a{x}b"', False),
        ("2⁻¹", False),
        ("f ⁻¹' s", False),
    ],
)
def test_glue(text: str, is_glued: bool) -> None:
    tokens = tokenize(text)
    assert any(glued(a, b) for a, b in zip(tokens, tokens[1:], strict=False)) == is_glued


GLUED = "theorem main (n : Nat) : Nat := 0instance : Inhabited Nat := ⟨n⟩\n"
SPACED = "theorem main (n : Nat) : Nat := 0\n"


def _rules(findings: list[str]) -> str:
    return " ".join(findings)


@pytest.mark.parametrize(
    "gate",
    [
        pytest.param(lambda t: guard.refusals(t), id="repl-pre-check"),
        pytest.param(lambda t: ports.refusals(t, allow_sorry=True), id="draft-step"),
        pytest.param(ports.answer_refusals, id="counterexample"),
        pytest.param(lambda t: [f.render() for f in answer_findings(t)], id="answer-allowlist"),
        pytest.param(lambda t: [f.render() for f in refusal_findings(t)], id="learning-library"),
        pytest.param(lambda t: [answer_problem(SPACED, t)], id="prove-step"),
        pytest.param(lambda t: [f.render() for f in scan_text(t) if f.blocking], id="project-scan"),
        pytest.param(
            lambda t: [f.render() for f in hygiene_findings("a.lean", {"a.lean": t.encode()})],
            id="validate-hygiene",
        ),
    ],
)
def test_every_text_gate_refuses_glue_by_the_one_rule(gate) -> None:
    assert "glued-token" in _rules(gate(GLUED))
    assert "glued-token" not in _rules(gate(SPACED))


def test_lean_scan_refuses_glue_with_and_without_a_skeleton(tmp_path: Path) -> None:
    answer, skeleton = tmp_path / "A.lean", tmp_path / "S.lean"
    answer.write_text(GLUED)
    skeleton.write_text("theorem main (n : Nat) : Nat := sorry\n")
    for found in (audit_files([answer]), audit_files([answer], skeleton=skeleton)):
        assert any(f.rule.value == "glued-token" and f.blocking for f in found)


@pytest.mark.parametrize(
    "proof",
    [
        "by decide +native",
        "by decide (config := { native := true })",
        "by decide (config := { native := (true) })",
        "by decide (config := {native:=true})",
        "by decide (native := !false)",
        "by decide (config := { «native» := Bool.true })",
        "by decide (config := { native :=\n    true })",
    ],
)
def test_every_spelling_of_native_evaluation_is_refused(proof: str) -> None:
    found = answer_findings(f"theorem main : 2 + 2 = 4 := {proof}\n")
    assert any(f.rule.value == "native-decide" and f.blocking for f in found)


def test_a_tokenizer_error_blocks_model_text_and_advises_in_project_files() -> None:
    text = "theorem main : True := by\n  exact 2.foo\n"
    assert any(f.rule.value == "lex-error" and f.blocking for f in refusal_findings(text))
    advisory = [f for f in scan_text(text) if f.rule.value == "lex-error"]
    assert advisory and not any(f.blocking for f in advisory)


def test_every_hash_command_the_scan_names_is_one_token() -> None:
    """A rule about `#eval` must see `#eval` glued to a word as `#eval` (the lexer's table)."""
    from paperlint.lean import hygiene_rules
    from paperlint.lean.lexer import HASH_COMMANDS

    named = {*hygiene_rules.HASH_EFFECTS, *hygiene_rules.READ_ONLY_HASH, *hygiene_rules.MODEL_HASH}
    assert named <= set(HASH_COMMANDS)
