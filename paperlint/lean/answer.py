"""What a prover or counterexample answer may contain: an allowlist over the lexer's tokens.

A denylist of dangerous commands is never complete: `instance (priority := 10000)` next to a
helper lemma, `@[instance 10000] def`, `attribute [local instance 10000] …` or a scoped
notation each leave the statement's *text* unchanged and change what Lean checks. So a model's
answer may hold, at top level, only `theorem`/`lemma` declarations, `def`/`abbrev` whose names
the gate approved, and `open … in` / allowlisted `set_option … in` prefixes; every other
command is refused before Lean sees it, with a finding naming its line. The hygiene scan in
model mode (`refusal_findings`: `sorry`, axioms, meta-level entry points inside proofs,
interpolated strings, name literals) runs on top.

`paperlint lean scan --skeleton` applies exactly `answer_findings`; the engine calls it on every
prover and counterexample answer; `validate` re-applies it to every accepted proof.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from paperlint.lean.declarations import (
    COMMAND_KEYWORDS,
    THEOREM_KEYWORDS,
    Command,
    Declaration,
    declarations,
    normalized_text,
    split_commands,
)
from paperlint.lean.findings import LeanFinding, Rule, sort_findings
from paperlint.lean.hygiene import MODEL_POLICY, refusal_findings
from paperlint.lean.lexer import Kind, Token, code_tokens, unquoted_parts

PROOF_KINDS = THEOREM_KEYWORDS
APPROVED_KINDS = frozenset({"def", "abbrev"})  # only under a name the gate approved
MODIFIERS = frozenset({"private", "protected", "noncomputable"})
ATTRIBUTES = frozenset({"simp"})
# `set_option NAME VALUE in`: the limits a proof may raise, up to the model policy's bound.
OPTION_LIMITS = {
    "maxHeartbeats": MODEL_POLICY.max_heartbeats,
    "maxRecDepth": MODEL_POLICY.max_rec_depth,
    "synthInstance.maxHeartbeats": MODEL_POLICY.max_synth_heartbeats,
    "synthInstance.maxSize": MODEL_POLICY.max_synth_size,
}
BOOLEAN_OPTIONS = ("linter.", "pp.")
# What may start a line at column 0: Lean reads anything else there as a new command only if
# it is one, and the splitter cannot know every command Mathlib adds, so it is refused.
LINE_STARTS = (
    PROOF_KINDS
    | APPROVED_KINDS
    | MODIFIERS
    | {
        "@[",
        "open",
        "set_option",
        "|",
        "termination_by",
        "decreasing_by",
        "where",
        ")",
        "]",
        "}",
        "⟩",
    }
)
# Every command keyword but theorem/lemma/def/abbrev is refused wherever it stands: the ones
# the splitter knows, and those of Batteries and Mathlib it does not.
EXTRA_COMMANDS = (COMMAND_KEYWORDS - PROOF_KINDS - APPROVED_KINDS) | frozenset(
    {
        "register_option", "register_simp_attr", "register_label_attr", "add_decl_doc",
        "assert_not_exists", "compile_inductive", "suppress_compilation", "unseal", "seal",
        "recall", "initialize_simps_projections", "mk_iff_of_inductive_prop", "add_aesop_rules",
        "declare_aesop_rule_sets", "library_note", "def_delab", "binder_predicate", "simproc",
        "dsimproc", "grind_pattern",
    }
)  # fmt: skip


def answer_findings(
    text: str, *, approved: Collection[str] = (), file: str = "<answer>"
) -> list[LeanFinding]:
    """Why a model's answer must be refused before Lean sees it (empty: it may be checked).

    `approved` names the definitions the gate approved (fully qualified); only those may be
    written as `def`/`abbrev`.
    """
    found = [
        *_command_findings(text, frozenset(approved), file),
        *_open_findings(text, file),
        *_keyword_findings(text, file),
        *_attribute_findings(text, file),
    ]
    found += refusal_findings(text, file=file)
    return sort_findings(found)


def main_declaration(answer: str, name: str) -> Declaration | None:
    """The declaration named `name`, wherever it is in the answer (None: absent or twice)."""
    found = [d for d in declarations(answer) if d.name == name]
    return found[0] if len(found) == 1 else None


def statement_fingerprint(answer: str, name: str) -> str | None:
    """The statement fingerprint of the declaration named `name` in `answer` (None: absent)."""
    from paperlint.lean.fingerprint import fingerprint, statement_text

    found = main_declaration(answer, name)
    return fingerprint(statement_text(found)) if found is not None else None


def answer_problem(skeleton: str, candidate: str, *, approved: Collection[str] = ()) -> str:
    """Why a prover's `candidate` for the gated `skeleton` may not reach Lean ("" when none).

    The allowlist first, then the main declaration, found by its name wherever it stands (a
    helper lemma may come first), must keep the skeleton's statement fingerprint.
    """
    from paperlint.lean.fingerprint import fingerprint, statement_text

    refused = [f.render() for f in answer_findings(candidate, approved=approved)]
    if refused:
        return "refused before Lean: " + "; ".join(refused[:5])
    gated = [d for d in declarations(skeleton) if d.name is not None]
    if not gated:
        return "the obligation's skeleton could not be parsed"
    target = gated[-1]  # a step skeleton is one declaration; the main one comes last
    assert target.name is not None
    found = main_declaration(candidate, target.name)
    if found is None:
        return f"the answer must contain exactly one declaration named {target.name}"
    if fingerprint(statement_text(found)) != fingerprint(statement_text(target)):
        return f"the statement of {target.name} was changed; only its proof may be written"
    return ""


def skeleton_answer_findings(
    skeleton: str, candidate: str, *, file: str = "<candidate>"
) -> list[LeanFinding]:
    """The answer allowlist over what `candidate` adds to the gated `skeleton` file.

    Commands the skeleton holds verbatim (header, namespaces, gated definitions) are blanked,
    keeping every line and column; the rest is an answer, and the skeleton's `def`/`abbrev`
    names are the approved ones.
    """
    gated = {normalized_text(c.tokens) for c in split_commands(skeleton)}
    approved = {d.name for d in declarations(skeleton) if d.kind in APPROVED_KINDS and d.name}
    chars = list(candidate)
    for command in split_commands(candidate):
        if normalized_text(command.tokens) in gated:
            for j in range(command.start, command.end):
                if chars[j] != "\n":
                    chars[j] = " "
    return answer_findings("".join(chars), approved=approved, file=file)


def _at(file: str, token: Token, rule: Rule, message: str) -> LeanFinding:
    return LeanFinding(
        file=file, line=token.line, col=token.col, rule=rule, message=message, blocking=True
    )


def _command_findings(text: str, approved: frozenset[str], file: str) -> Iterator[LeanFinding]:
    named = {d.command.start: d.name for d in declarations(text)}
    commands = split_commands(text)
    for index, command in enumerate(commands):
        keyword = command.tokens[command.keyword_index]
        if command.is_scoped_prefix:
            yield from _prefix_findings(command, commands[index + 1 : index + 2], file)
            continue
        for modifier in command.modifiers:
            if modifier not in MODIFIERS:
                message = f"`{modifier}` is not allowed in an answer"
                yield _at(file, command.tokens[0], Rule.COMMAND_NOT_ALLOWED, message)
        if command.keyword in PROOF_KINDS:
            continue
        name = named.get(command.start)
        if command.keyword in APPROVED_KINDS and name is not None and name in approved:
            continue
        if command.keyword in APPROVED_KINDS:
            message = f"`{command.keyword} {name}` was not approved by the gate"
        else:
            message = f"`{_short(command)}`: an answer may only add theorems and lemmas"
        yield _at(file, keyword, Rule.COMMAND_NOT_ALLOWED, message)


def _prefix_findings(
    command: Command, following: list[Command], file: str
) -> Iterator[LeanFinding]:
    keyword = command.tokens[command.keyword_index]
    if not following or following[0].keyword not in PROOF_KINDS | APPROVED_KINDS:
        message = f"`{_short(command)}` must scope a theorem or lemma"
        yield _at(file, keyword, Rule.COMMAND_NOT_ALLOWED, message)
    if command.keyword == "set_option":
        yield from _option_findings(command.tokens[command.keyword_index :], file)
    elif command.keyword != "open":
        message = f"`{command.keyword} … in` is not allowed in an answer"
        yield _at(file, keyword, Rule.COMMAND_NOT_ALLOWED, message)


def _option_findings(tokens: tuple[Token, ...], file: str) -> Iterator[LeanFinding]:
    if len(tokens) < 4:
        yield _at(file, tokens[0], Rule.OPTION_NOT_ALLOWED, "an incomplete `set_option`")
        return
    option, value = tokens[1], tokens[2].text
    name = ".".join(unquoted_parts(option.text))
    if name in OPTION_LIMITS:
        if value.isdigit() and 0 < int(value) <= OPTION_LIMITS[name]:
            return
        message = f"`{name} {value}` is outside 1..{OPTION_LIMITS[name]}"
    elif name.startswith(BOOLEAN_OPTIONS) and value in {"true", "false"}:
        return
    else:
        message = f"option `{name}` is not on the answer allowlist"
    yield _at(file, option, Rule.OPTION_NOT_ALLOWED, message)


def _attribute_findings(text: str, file: str) -> Iterator[LeanFinding]:
    """Every `@[…]` anywhere (a command's, a `where` clause's) may list only `simp`."""
    tokens = code_tokens(text)
    index = 0
    while index < len(tokens):
        if tokens[index].text != "@[":
            index += 1
            continue
        depth, index = 1, index + 1
        while index < len(tokens) and depth:
            token = tokens[index]
            depth += token.text in {"[", "@["}
            depth -= token.text == "]"
            allowed = token.text in {"]", ","} or token.text in ATTRIBUTES
            if depth and not allowed:
                message = f"attribute `{token.text}` is not allowed in an answer (only `simp`)"
                yield _at(file, token, Rule.ATTRIBUTE_NOT_ALLOWED, message)
            index += 1


def _open_findings(text: str, file: str) -> Iterator[LeanFinding]:
    """`open`/`set_option` anywhere (also indented) must be a scoped `… in` prefix.

    The command splitter starts those two only at column 0, because they are tactics too; an
    indented `open Foo` after a proof is still a top-level command to Lean.
    """
    tokens = code_tokens(text)
    for index, token in enumerate(tokens):
        if token.kind is not Kind.IDENT or token.text not in {"open", "set_option"}:
            continue
        if not _scoped(tokens, index):
            message = f"`{token.text}` outside an `… in` prefix changes the rest of the file"
            yield _at(file, token, Rule.COMMAND_NOT_ALLOWED, message)


def _keyword_findings(text: str, file: str) -> Iterator[LeanFinding]:
    """Command keywords wherever they stand, and unknown words at the start of a line."""
    tokens = code_tokens(text)
    for index, token in enumerate(tokens):
        is_command = token.kind is Kind.IDENT and token.text in EXTRA_COMMANDS
        if is_command or token.kind is Kind.HASH_COMMAND:
            message = f"`{token.text}` is a command; an answer may only add theorems and lemmas"
            yield _at(file, token, Rule.COMMAND_NOT_ALLOWED, message)
        elif (
            token.col == 0
            and (index == 0 or tokens[index - 1].line < token.line)
            and token.text not in LINE_STARTS
        ):
            message = f"`{token.text}` at the start of a line would be read as a new command"
            yield _at(file, token, Rule.COMMAND_NOT_ALLOWED, message)


def _scoped(tokens: list[Token], index: int) -> bool:
    """Whether the `open`/`set_option` at `index` is closed by an `in` on its own line."""
    line = tokens[index].line
    for token in tokens[index + 1 :]:
        if token.line != line:
            return False
        if token.text == "in":
            return True
    return False


def _short(command: Command) -> str:
    text = normalized_text(command.tokens)
    return text if len(text) <= 50 else text[:47] + "..."
