"""What the mechanical audit reports: one `LeanFinding` per problem, with a stable rule id.

The rule ids are a contract: records, fixtures (`-- expect: <rule>`) and users' suppressions
name them, so a rule is never renamed, only added. A blocking finding refuses the Lean text (or
fails `paperlint lean scan` with exit 1); an advisory one is printed and changes nothing.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Rule(StrEnum):
    # Incomplete proofs and unsound constants.
    SORRY = "sorry"  # `sorry`, `sorryAx`
    ADMIT = "admit"
    AXIOM = "axiom"
    UNSOUND_CONSTANT = "unsound-constant"  # `lcProof` and friends: core axioms for the compiler
    NATIVE_DECIDE = "native-decide"  # native_decide, decide +native, Lean.ofReduceBool
    # Declarations the kernel cannot see into.
    OPAQUE = "opaque"
    UNSAFE = "unsafe"
    PARTIAL = "partial"
    IMPLEMENTED_BY = "implemented-by"
    EXTERN = "extern"
    CSIMP = "csimp"
    # Options.
    DEBUG_OPTION = "debug-option"  # debug.* (skipKernelTC), bootstrap.*, internal.*
    RESOURCE_LIMIT = "resource-limit"  # maxHeartbeats & co. raised past the policy or to 0
    UNKNOWN_OPTION = "unknown-option"  # advisory: an option not on the reviewed list
    # Commands with effects.
    EVAL = "eval"  # #eval
    EXIT = "exit"  # #exit: Lean stops reading, everything after it goes unchecked
    MESSAGE_GUARD = "message-guard"  # #guard_msgs can swallow `sorry` warnings and errors
    MESSAGE_SPOOF = "message-spoof"  # a string imitating `#print axioms` or the sorry warning
    HASH_COMMAND = "hash-command"  # another # command (model text), advisory in project files
    RUN_COMMAND = "run-command"  # run_cmd, run_tac, run_elab, run_meta
    INITIALIZE = "initialize"
    IO = "io"
    # Metaprogramming and syntax.
    META_IMPORT = "meta-import"  # import Lean, Lean.Elab, Lean.Meta, Lake, meta import
    IMPORT = "import"  # any import in model-written declarations
    UNRESOLVED_IMPORT = "unresolved-import"  # neither a known library nor a file in the root
    PRELUDE = "prelude"
    MACRO = "macro"
    SYNTAX = "syntax"
    ELAB = "elab"
    META_CODE = "meta-code"  # by_elab, interpolated strings, name literals, option literals
    NOTATION_REDEFINES = "notation-redefines"  # a notation whose atom is a word: `"simp"`, `"ℝ"`
    NOTATION = "notation"  # advisory: symbolic notation
    LOCAL_INSTANCE = "local-instance"  # advisory: `local instance`, `scoped instance`
    SEARCH_TACTIC = "search-tactic"  # advisory: exact?, apply?, rw?
    MODULE_HEADER = "module-header"  # advisory: `#print axioms` fails in a `module` file
    # Token boundaries (docs/lean-tokens.md): where a reader and Lean may split text apart.
    GLUED_TOKEN = "glued-token"  # `0instance`, `1.5e3run_cmd`, `#checkx`: word against word
    LEX_ERROR = "lex-error"  # text Lean's tokenizer refuses: `0x`, `2.foo`, `'ab'`, a tab
    # The skeleton check: the proof only fills `sorry` holes.
    STATEMENT_CHANGED = "statement-changed"
    DECLARATION_CHANGED = "declaration-changed"  # a gated non-proof declaration was edited
    DECLARATION_REMOVED = "declaration-removed"
    DECLARATION_REORDERED = "declaration-reordered"
    DUPLICATE_DECLARATION = "duplicate-declaration"
    HEADER_CHANGED = "header-changed"
    CONTEXT_CHANGED = "context-changed"  # namespace/section/open/variable/universe commands
    HELPER_NOT_ALLOWED = "helper-not-allowed"  # a new declaration that is not a lemma or def
    # The prover-answer allowlist (answer.py): what a model's answer may contain at all.
    COMMAND_NOT_ALLOWED = "command-not-allowed"  # any command but theorem/lemma (+ approved def)
    ATTRIBUTE_NOT_ALLOWED = "attribute-not-allowed"  # any attribute but `simp`
    OPTION_NOT_ALLOWED = "option-not-allowed"  # a `set_option` off the answer allowlist
    # The unused-hypothesis lint.
    UNUSED_HYPOTHESIS = "unused-hypothesis"


class LeanFinding(BaseModel):
    """One problem at one place. `line` is 1-based and `col` 0-based, as Lean prints them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    line: int
    col: int
    rule: Rule
    message: str
    blocking: bool

    def render(self) -> str:
        """`file:line:col: rule: message`, the form compilers and linters print."""
        note = "" if self.blocking else " (advisory)"
        return f"{self.file}:{self.line}:{self.col}: {self.rule.value}: {self.message}{note}"


def sort_findings(findings: list[LeanFinding]) -> list[LeanFinding]:
    """Findings in file order, without duplicates."""
    unique = {(f.file, f.line, f.col, f.rule, f.message): f for f in findings}
    return sorted(unique.values(), key=lambda f: (f.file, f.line, f.col, f.rule.value))


def has_blocking(findings: list[LeanFinding]) -> bool:
    return any(f.blocking for f in findings)
