"""Generated Lean token sequences for the differential lexer test, from a fixed seed.

Each sequence is one line (or a few) that Lean parses on a `prelude` file: glued pieces inside
the binders of `#check fun … => 0`, where Lean's grammar needs no space between two terms, so
every boundary Lean draws is shown. The pieces are the ones a lexer gets wrong: numerals of every
base and form, identifiers with subscripts, letter-likes, `'`/`!`/`?`, dots and `«»`, strings,
raw strings, characters, name literals, projections, comments of every kind, and glued after them
a command keyword (which ends the term and starts a command, after a doc comment or not), or a
modifier letter or another character Lean does not count as a letter. `MALFORMED` lists text
Lean refuses (`0x`, `1_`, `2.x`, `'ab'`, `"\\q"`), to compare where each side refuses it.
"""

from __future__ import annotations

import random

NUMERALS = (
    "0", "7", "42", "1_000", "1__0", "0_1", "00", "0b101", "0B1", "0b1_0", "0o17", "0O7",
    "0x1F", "0XaB", "0x1Fa", "0xFF_ff", "1.5", "0.25", "2e3", "2E3", "1.5e-3", "2e+10",
    "1.e3", "1.5E0", "12.50", "1_0.0_1", "3e0_1",
)  # fmt: skip
IDENTS = (
    "x", "x₀", "xᵢ", "x'", "x!", "x?", "x''", "α", "β₁", "ℝ", "𝓝", "é", "Ā", "ſ", "x.y",
    "«a b»", "x.«y z»", "«x».y", "_x", "x_1", "instance_of_x", "x₀instance", "axiomX",
    "h.«1»", "Ω", "ϰ", "ἀ", "ℓ", "𝔼", "run_cmd", "elab_rulesx", "sorry₁", "theorem'",
)  # fmt: skip
STRINGS = (
    '"s"', '"a\\"b"', '"\\x41"', '"\\u0041"', '"a\\\\"', '"\\t\\n\\r\\\'"', '""',
    '"a\\\n  b"', 'r"x"', 'r#"a"b"#', 'r##"x"#"##', '"instance"', '"-- x"', '"/-"',
)  # fmt: skip
CHARS = ("'a'", "'\\n'", "'\\''", "'\\\\'", "'\\x41'", "'\"'", "'ᶜ'", "'\\u03B1'", "' '")
NAMES = ("`n", "`a.b", "`«x y»", "`x₀", "`instance", "``n", "``a.«b c»")
GROUPS = ("(x)", "(0)", "⟨x⟩", "(x).1", "x.1", "x.1.2", "x.2.1", "h.1.2.3", "(1.5)")
ATOMS = (*NUMERALS, *IDENTS, *STRINGS, *CHARS, *NAMES, *GROUPS)
SEPARATORS = (
    "", "", "", "", " ", "/-c-/", "/- /- nested -/ -/", "/-/- -/", "/-/ -/", "/-- -/ -/",
    "--c\n  ", "\n  ", "/- -- -/", "/-\n-/", "--/-\n  ",
)  # fmt: skip
# Doc comments are tokens to Lean (`/-- -/ -/` above is a plain comment holding `-`), allowed
# before a declaration only; `/-!` starts a command of its own.
DOCS = ("/--d-/", "/-- d -/ ", "/--\n d -/\n", "/-!m-/ ", "/--/ -/", "/-- /- -/ -/")
# A command keyword and a completion Lean parses on a `prelude` file: declarations (which a
# doc comment may precede) and other commands.
DECLARATIONS = (
    "instance : T := t", "axiom a : T", "theorem t : T := x", "def d := x", "example : T := x",
    "abbrev a := x", "opaque o : T", "inductive I", "structure S", "private def p := x",
    "noncomputable def n := x", "unsafe def u := x", "partial def q := x",
    "@[simp] def s := x", "macro_rules | `(x) => `(x)", "syntax \"kw\" : term",
    "notation \"nt\" => x", "elab_rules : term | `(x) => pure x", "class C",
)  # fmt: skip
COMMANDS = (
    "set_option pp.all true", "open Foo", "namespace Foo", "section", "universe u",
    "variable (v : T)", "#check x", "#print x", "#eval x", "#reduce x", "end",
    "attribute [simp] x", "#print axioms x", "#check_failure x", "#synth x",
)  # fmt: skip
# Characters Python calls letters or digits and Lean does not (no token without Mathlib).
NOT_LEAN_LETTERS = ("ᶜ", "ᵒ", "ᵀ", "²", "ⁿ", "ж", "ا", "٣", "ª", "º", "µ", "ⱼ", "ᵃ", "ᴬ")
# Text Lean refuses; each goes in a file of its own (Lean's recovery may read past the line).
MALFORMED = (
    "0x", "0b2", "0o8", "1_", "1e", "1.ex", "2.x", "2.«x»", "'ab'", "'\\q'", "\"\\q\"",
    "0xg", "1e+", "«open", "\"open", "/-open", "\t", "\u00a0", "0b", "0x_", "1._",
    "1e_1", "'\\x4'", "\"\\u12\"", "\"a\\\n\n b\"", "r#\"open", "x.«y", "\r",
)  # fmt: skip


def _ends_word(text: str) -> bool:
    from paperlint.lean.lexer import is_ident_rest

    return is_ident_rest(text[-1]) or text.endswith("»")


def sequences(seed: int, count: int) -> list[str]:
    """`count` sequences; the same seed gives the same list on every machine."""
    rng = random.Random(seed)
    out: list[str] = []
    for index in range(count):
        atoms = [rng.choice(ATOMS) for _ in range(rng.randint(1, 4))]
        body = atoms[0]
        for atom in atoms[1:]:
            separator = rng.choice(SEPARATORS)
            if atom.startswith(("r", "'")) and not separator and _ends_word(body):
                separator = " "  # `xr"…"` and `x'"'…` are identifiers, and then an open string
            body += separator + atom
        ending = index % 10
        if ending < 3:
            out.append(f"#check fun {body}{rng.choice(DECLARATIONS)}")
        elif ending < 4:
            out.append(f"#check fun {body}{rng.choice(DOCS)}{rng.choice(DECLARATIONS)}")
        elif ending < 5:
            out.append(f"#check fun {body}{rng.choice(COMMANDS)}")
        elif ending < 7:
            out.append(f"#check fun {body}{rng.choice(NOT_LEAN_LETTERS)}")
        else:
            out.append(f"#check fun {body} => 0")
    return out
