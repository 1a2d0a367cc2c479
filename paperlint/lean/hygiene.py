"""The hygiene scan: refuse Lean text that could make a check claim more than Lean showed.

Lean accepts a file with `sorry`, a custom `axiom`, `native_decide`, an `#exit` that hides the
rest of the file, or a macro that turns `simp` into `sorry`. None of those is a proof of the
paper's claim, so paperlint refuses such text before Lean sees it (docs/design.md §7,
docs/lean-notes.md §6.0) and `paperlint lean scan` reports it. The scan works on lexed tokens,
so an occurrence inside a comment, a string or a `«quoted»` name is never a finding
(docs/prior-art.md §4.5).

It is a first filter: `#print axioms` and the final `lake env lean` remain the guarantee.
Two modes: project files (`scan_file`, `scan_text`) allow `import Mathlib…` and read-only
commands such as `#check`; model-written declarations (`refusal_findings`) may not import
anything, and review-worthy constructs (notation, local instances, unknown options, other `#`
commands) block instead of advising.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from paperlint.lean import hygiene_rules as rules
from paperlint.lean.declarations import Command, split_commands
from paperlint.lean.findings import LeanFinding, Rule
from paperlint.lean.lexer import (
    Kind,
    Token,
    glued,
    ident_parts,
    is_ident_start,
    lex,
    tokenize,
    unquoted_parts,
)


class HygienePolicy(BaseModel):
    """Limits and library names the scan trusts; the defaults are paperlint's policy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Raising a limit is a cost, not a soundness problem: project files get room (Mathlib
    # itself goes to 800000 heartbeats and 10000 recursion depth); model text gets Lean's
    # defaults (MODEL_POLICY): docs/lean-notes.md §6.0 refuses any raise there. 0 is unlimited.
    max_heartbeats: int = 1_000_000
    max_rec_depth: int = 10_000
    max_synth_heartbeats: int = 100_000
    max_synth_size: int = 1024
    external_libraries: tuple[str, ...] = (
        "Mathlib",
        "Std",
        "Batteries",
        "Aesop",
        "Qq",
        "ProofWidgets",
        "Plausible",
        "ImportGraph",
        "LeanSearchClient",
        "Init",
    )
    model_written: bool = False  # refusal mode for text a model wrote


DEFAULT_POLICY = HygienePolicy()
MODEL_POLICY = HygienePolicy(
    max_heartbeats=200_000,
    max_rec_depth=512,
    max_synth_heartbeats=20_000,
    max_synth_size=128,
    model_written=True,
)


@dataclass(frozen=True)
class ImportRef:
    """One `import` line: the module and where its name is written."""

    module: str
    line: int
    col: int
    is_meta: bool  # `meta import …`: compile-time code


def refusal_findings(
    text: str, *, file: str = "<candidate>", policy: HygienePolicy = MODEL_POLICY
) -> list[LeanFinding]:
    """Why model-written Lean must be refused before Lean sees it (empty: may be checked).

    Only blocking findings are returned: each one is a reason to refuse.
    """
    strict = policy.model_copy(update={"model_written": True})
    return [f for f in scan_text(text, file=file, policy=strict) if f.blocking]


def scan_text(
    text: str, *, file: str = "<text>", policy: HygienePolicy = DEFAULT_POLICY
) -> list[LeanFinding]:
    """The hygiene findings of one text; its imports are reported but not followed."""
    tokens = [t for t in tokenize(text) if t.kind is not Kind.COMMENT]
    raw = [*_token_findings(tokens, policy), *_command_findings(split_commands(text), policy)]
    raw.extend(_import_findings(imports(text), policy))
    raw.extend(_module_header(tokens))
    raw.extend(_boundary_findings(text))
    return [
        _finding(file, token, rule, message, blocking, policy)
        for token, rule, message, blocking in raw
    ]


def scan_file(
    path: Path, *, project_root: Path, policy: HygienePolicy = DEFAULT_POLICY
) -> list[LeanFinding]:
    """Scan `path` and every project-local file it imports, transitively.

    Imports are looked up only inside `project_root` (symlinks resolved, never outside it); a
    module that is neither there nor in a trusted library is a blocking `unresolved-import`.
    """
    findings: list[LeanFinding] = []
    seen: set[Path] = set()
    _scan_into(path, project_root, policy, findings, seen)
    return findings


def _scan_into(
    path: Path, root: Path, policy: HygienePolicy, findings: list[LeanFinding], seen: set[Path]
) -> None:
    resolved = path.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    text = path.read_text(encoding="utf-8", errors="replace")
    findings.extend(scan_text(text, file=str(path), policy=policy))
    for ref in imports(text):
        local = resolve_import(ref.module, project_root=root)
        if local is not None:
            _scan_into(local, root, policy, findings, seen)
        elif not is_library(ref.module, policy) and not policy.model_written:
            message = f"cannot find module `{ref.module}` under {root}; only its files are scanned"
            findings.append(
                LeanFinding(
                    file=str(path),
                    line=ref.line,
                    col=ref.col,
                    rule=Rule.UNRESOLVED_IMPORT,
                    message=message,
                    blocking=True,
                )
            )


def resolve_import(module: str, *, project_root: Path) -> Path | None:
    """`Paper.Foo` → `<root>/Paper/Foo.lean` when that file exists inside the root."""
    parts = [part.strip("«»") for part in ident_parts(module)]
    if any(part in {"", ".", ".."} or "/" in part or "\\" in part for part in parts):
        return None
    root = project_root.resolve()
    candidate = project_root.joinpath(*parts).with_suffix(".lean")
    try:
        real = candidate.resolve()
    except OSError:
        return None
    if not real.is_relative_to(root) or not real.is_file():
        return None
    return candidate


def is_library(module: str, policy: HygienePolicy = DEFAULT_POLICY) -> bool:
    """Whether `module` belongs to a trusted library (or to Lean itself) and is not scanned."""
    first = ident_parts(module)[0]
    return first in policy.external_libraries or first in rules.META_LIBRARIES


def imports(text: str) -> list[ImportRef]:
    """The modules imported by `text`, in order."""
    refs: list[ImportRef] = []
    tokens = [t for t in tokenize(text) if t.kind is not Kind.COMMENT]
    for index, token in enumerate(tokens):
        if token.kind is not Kind.IDENT or token.text != "import":
            continue
        after = [t for t in tokens[index + 1 : index + 4] if t.kind is Kind.IDENT]
        module = next((t for t in after if t.text not in {"all", "runtime"}), None)
        if module is not None:
            is_meta = index > 0 and tokens[index - 1].text == "meta"
            refs.append(ImportRef(module.text, module.line, module.col, is_meta))
    return refs


_Raw = tuple[Token, Rule, str, bool]


def _finding(
    file: str, token: Token, rule: Rule, message: str, blocking: bool, policy: HygienePolicy
) -> LeanFinding:
    strict = policy.model_written and rule in rules.STRICT_FOR_MODELS
    return LeanFinding(
        file=file,
        line=token.line,
        col=token.col,
        rule=rule,
        message=message,
        blocking=blocking or strict,
    )


def _token_findings(tokens: list[Token], policy: HygienePolicy) -> Iterator[_Raw]:
    attribute_depths = _attribute_mask(tokens)
    for index, token in enumerate(tokens):
        if token.kind is Kind.IDENT:
            yield from _ident_findings(tokens, index, in_attribute=attribute_depths[index])
        elif token.kind is Kind.STRING and any(p in token.text for p in rules.SPOOF_PHRASES):
            message = "this text imitates a Lean message that decides a verdict"
            yield token, Rule.MESSAGE_SPOOF, message, True
        elif token.kind is Kind.NAME:
            yield from _name_literal_findings(token, policy)
        if policy.model_written:
            yield from _model_meta_findings(token)


def _name_literal_findings(token: Token, policy: HygienePolicy) -> Iterator[_Raw]:
    """`` `debug.skipKernelTC `` handed to `withOptions`/`setBool` switches the kernel off."""
    name = ".".join(unquoted_parts(token.text.lstrip("`")))
    if name.startswith(rules.SOUNDNESS_OPTIONS):
        yield token, Rule.DEBUG_OPTION, f"the name literal `{name}` names a soundness option", True
    elif name in rules.LIMIT_OPTIONS:
        yield token, Rule.RESOURCE_LIMIT, f"the name literal `{name}` names a limit option", True
    elif policy.model_written:
        yield token, Rule.META_CODE, "a name literal is metaprogram code in a proof", True


def _model_meta_findings(token: Token) -> Iterator[_Raw]:
    """Model-written text has no use for string interpolation in any spelling."""
    if token.kind is Kind.STRING and "{" in token.text:
        yield token, Rule.META_CODE, "a string with `{…}` may be interpolated code", True
    elif token.kind is Kind.IDENT and token.text in rules.INTERPOLATING:
        yield token, Rule.META_CODE, f"`{token.text}` runs interpolated code", True


def _plain(text: str) -> str:
    """`«tactic»` → `tactic`: the name Lean resolves for a one-part identifier."""
    parts = unquoted_parts(text)
    return parts[0] if len(parts) == 1 else text


def _ident_findings(tokens: list[Token], index: int, *, in_attribute: bool) -> Iterator[_Raw]:
    token = tokens[index]
    # Outside attributes `«sorry»` is just a name; inside, `@[«tactic» k]` is the attribute.
    word = _plain(token.text) if in_attribute else token.text
    if word in rules.WORDS:
        rule, message = rules.WORDS[word]
        yield token, rule, message, True
    for part in unquoted_parts(token.text):
        if part in rules.COMPONENTS:
            rule, message = rules.COMPONENTS[part]
            yield token, rule, message, True
    if in_attribute and word == "extern":
        yield token, Rule.EXTERN, "`@[extern]` binds the declaration to unchecked code", True
    if in_attribute and word in rules.ATTRIBUTES:
        rule, message = rules.ATTRIBUTES[word]
        yield token, rule, message, True
    if unquoted_parts(token.text)[-1] == "native":
        # `decide +native`, `(config := { native := (true) })`, `(native := !false)`: any
        # spelling of the option; no proof needs the word `native` otherwise.
        yield token, Rule.NATIVE_DECIDE, "`native` evaluation trusts the compiler", True
    if token.text in rules.SEARCH_TACTICS:
        message = f"`{token.text}` searches at check time; write the proof it finds"
        yield token, Rule.SEARCH_TACTIC, message, False


def _attribute_mask(tokens: list[Token]) -> list[bool]:
    """For each token: is it inside `@[…]` or `attribute […]`?"""
    mask: list[bool] = []
    stack: list[bool] = []
    for index, token in enumerate(tokens):
        inside = any(stack)
        if token.kind is Kind.SYMBOL and token.text in {"@[", "[", "(", "{", "⟨", "⦃"}:
            opens_attribute = token.text == "@[" or (
                token.text == "[" and index > 0 and tokens[index - 1].text == "attribute"
            )
            stack.append(opens_attribute)
        elif token.kind is Kind.SYMBOL and token.text in {"]", ")", "}", "⟩", "⦄"} and stack:
            stack.pop()
        mask.append(inside)
    return mask


def _command_findings(commands: list[Command], policy: HygienePolicy) -> Iterator[_Raw]:
    for command in commands:
        keyword = command.tokens[command.keyword_index]
        if keyword.kind is Kind.HASH_COMMAND:
            yield from _hash_findings(command, policy)
        elif command.keyword == "set_option":
            yield from _option_findings(command, policy)
        elif command.keyword in rules.NOTATION_KEYWORDS:
            yield _notation_finding(command)
        elif command.keyword == "instance" and {"local", "scoped"} & set(command.modifiers):
            message = "a local or scoped instance can change what a statement means"
            yield keyword, Rule.LOCAL_INSTANCE, message, False
        if _prioritised_instance(command):
            # Strict for model text (STRICT_FOR_MODELS): a drafter's `@[instance 10000] def`
            # beside the gated definitions would re-mean `≤` in a statement the gate reads.
            message = "an instance with a priority (or a default instance) can win over the one"
            message += " a statement meant"
            yield keyword, Rule.LOCAL_INSTANCE, message, False
    for token in _inner_set_options(commands):
        yield from _option_value_findings(token, policy)


def _prioritised_instance(command: Command) -> bool:
    """`instance (priority := n)`, `@[instance n]`, `@[default_instance]` before a command."""
    texts = [t.text for t in command.tokens]
    if "default_instance" in texts[: command.keyword_index + 1]:
        return True
    if command.keyword == "instance" and "priority" in texts[command.keyword_index :][:4]:
        return True
    head = texts[: command.keyword_index]
    return any(
        text == "instance" and index + 1 < len(head) and head[index + 1] not in {"]", ","}
        for index, text in enumerate(head)
    )


def _inner_set_options(commands: list[Command]) -> Iterator[tuple[Token, ...]]:
    """`set_option … in` inside proofs, which are not commands of their own."""
    for command in commands:
        tokens = command.tokens
        for index in range(command.keyword_index + 1, len(tokens)):
            if tokens[index].text == "set_option":
                yield tokens[index : index + 3]


def _hash_findings(command: Command, policy: HygienePolicy) -> Iterator[_Raw]:
    token = command.tokens[command.keyword_index]
    name = token.text
    if name in rules.HASH_EFFECTS:
        rule, message = rules.HASH_EFFECTS[name]
        yield token, rule, message, True
        return
    following = command.tokens[command.keyword_index + 1 : command.keyword_index + 2]
    is_axioms_query = name == "#print" and [t.text for t in following] == ["axioms"]
    if policy.model_written and not (is_axioms_query or name in rules.MODEL_HASH):
        yield token, Rule.HASH_COMMAND, f"`{name}` is not allowed in model-written Lean", True
    elif not policy.model_written and name not in rules.READ_ONLY_HASH:
        yield token, Rule.HASH_COMMAND, f"`{name}` is not a known read-only command", False


def _option_findings(command: Command, policy: HygienePolicy) -> Iterator[_Raw]:
    start = command.keyword_index
    yield from _option_value_findings(command.tokens[start : start + 3], policy)


def _option_value_findings(tokens: tuple[Token, ...], policy: HygienePolicy) -> Iterator[_Raw]:
    if len(tokens) < 2:
        return
    option = tokens[1]
    value = tokens[2].text if len(tokens) > 2 else ""
    name = ".".join(unquoted_parts(option.text))
    if name.startswith(rules.SOUNDNESS_OPTIONS):
        yield option, Rule.DEBUG_OPTION, f"`{name}` changes what Lean checks", True
    elif name in rules.LIMIT_OPTIONS:
        limit = int(getattr(policy, rules.LIMIT_OPTIONS[name]))
        if not value.isdigit() or int(value) == 0 or int(value) > limit:
            message = f"`{name} {value}` exceeds the limit {limit} (0 means unlimited)"
            yield option, Rule.RESOURCE_LIMIT, message, True
    elif not name.startswith(rules.KNOWN_OPTIONS):
        yield option, Rule.UNKNOWN_OPTION, f"option `{name}` is not on the reviewed list", False


def _notation_finding(command: Command) -> _Raw:
    keyword = command.tokens[command.keyword_index]
    pattern = _notation_pattern(command)
    atoms = [t.text.strip('"').strip() for t in pattern if t.kind is Kind.STRING]
    # The leading atom decides which parser runs; later ones (`", "`, `" in "`) are separators.
    leading = next((a for a in atoms if a), "")
    if leading and _is_existing_atom(leading):
        message = f"notation `{leading}` can shadow a name, keyword, tactic or operator"
        return keyword, Rule.NOTATION_REDEFINES, message, True
    if any(t.text == "priority" for t in pattern):
        message = "a notation with a priority can win over the one a statement meant"
        return keyword, Rule.NOTATION_REDEFINES, message, True
    return keyword, Rule.NOTATION, "new notation can change how a statement reads", False


def _notation_pattern(command: Command) -> tuple[Token, ...]:
    """The tokens of a notation command before its `=>`: the syntax it declares."""
    tokens = command.tokens[command.keyword_index + 1 :]
    arrow = next((i for i, t in enumerate(tokens) if t.text == "=>"), len(tokens))
    return tokens[:arrow]


def _is_existing_atom(atom: str) -> bool:
    return is_ident_start(atom[0]) or atom in rules.RESERVED_ATOMS or atom in rules.OPERATOR_ATOMS


def _import_findings(refs: list[ImportRef], policy: HygienePolicy) -> Iterator[_Raw]:
    for ref in refs:
        token = Token(Kind.IDENT, ref.module, ref.line, ref.col, 0)
        first = ident_parts(ref.module)[0]
        if ref.is_meta or first in rules.META_LIBRARIES:
            message = f"`import {ref.module}` brings in metaprogramming"
            yield token, Rule.META_IMPORT, message, True
        elif policy.model_written:
            message = "model-written Lean may not import; the header is paperlint's"
            yield token, Rule.IMPORT, message, True


def _boundary_findings(text: str) -> Iterator[_Raw]:
    """Where a token runs into the next word, and where Lean's tokenizer refuses the text.

    Both rest on the lexer reading token boundaries as Lean does (docs/lean-tokens.md); the
    glue rule also holds where Lean's token table is larger than the lexer's (Mathlib).
    """
    lexed = lex(text)
    tokens = lexed.tokens
    for left, right in zip(tokens, tokens[1:], strict=False):
        if glued(left, right):
            message = f"`{left.text[-20:]}` runs straight into `{right.text[:20]}` with no space:"
            message += " Lean reads two tokens there; put a space between them"
            yield right, Rule.GLUED_TOKEN, message, True
    for error in lexed.errors:
        where = Token(Kind.SYMBOL, "", error.line, error.col, error.offset)
        yield where, Rule.LEX_ERROR, f"Lean refuses this text: {error.message}", False


def _module_header(tokens: list[Token]) -> Iterator[_Raw]:
    if tokens and tokens[0].text == "module":
        message = "`#print axioms` fails in a `module` file, so its axioms cannot be audited"
        yield tokens[0], Rule.MODULE_HEADER, message, False
