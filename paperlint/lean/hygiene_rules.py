"""The tables behind the hygiene scan: which tokens, attributes, options and commands count.

Kept apart from `hygiene.py` so that reviewing what is refused means reading data, not code.
Each entry maps to a stable `Rule` id (findings.py) and the message a user sees.
"""

from __future__ import annotations

from paperlint.lean.findings import Rule

# Exact keywords; `sorry_free`, `«sorry»` and `Foo.sorry` are other tokens and never match.
WORDS: dict[str, tuple[Rule, str]] = {
    "sorry": (Rule.SORRY, "`sorry` leaves a proof obligation open"),
    "admit": (Rule.ADMIT, "`admit` leaves a proof obligation open"),
    "stop": (Rule.SORRY, "`stop` closes the rest of the proof with `sorry`"),
    "axiom": (Rule.AXIOM, "`axiom` assumes a statement; cite it as a named hypothesis instead"),
    "opaque": (Rule.OPAQUE, "`opaque` hides a definition from the kernel"),
    "unsafe": (Rule.UNSAFE, "`unsafe` code is not checked by the kernel"),
    "partial": (Rule.PARTIAL, "`partial def` is opaque to the kernel; nothing can be proved of it"),
    "native_decide": (Rule.NATIVE_DECIDE, "`native_decide` trusts the compiler, not the kernel"),
    "implemented_by": (Rule.IMPLEMENTED_BY, "`implemented_by` swaps in unchecked code"),
    "csimp": (Rule.CSIMP, "`@[csimp]` replaces code the compiler runs"),
    "run_cmd": (Rule.RUN_COMMAND, "`run_cmd` runs arbitrary code while elaborating"),
    "run_tac": (Rule.RUN_COMMAND, "`run_tac` runs arbitrary code while elaborating"),
    "run_elab": (Rule.RUN_COMMAND, "`run_elab` runs arbitrary code while elaborating"),
    "run_meta": (Rule.RUN_COMMAND, "`run_meta` runs arbitrary code while elaborating"),
    "initialize": (Rule.INITIALIZE, "`initialize` runs code when the module is loaded"),
    "builtin_initialize": (Rule.INITIALIZE, "`builtin_initialize` runs code at load time"),
    "macro": (Rule.MACRO, "a macro can redefine a tactic, e.g. `simp` as `sorry`"),
    "macro_rules": (Rule.MACRO, "`macro_rules` can redefine a tactic, e.g. `simp` as `sorry`"),
    "syntax": (Rule.SYNTAX, "new syntax can shadow a keyword or a tactic"),
    "declare_syntax_cat": (Rule.SYNTAX, "new syntax can shadow a keyword or a tactic"),
    "elab": (Rule.ELAB, "an elaborator runs arbitrary code and can close goals unsoundly"),
    "elab_rules": (Rule.ELAB, "an elaborator runs arbitrary code and can close goals unsoundly"),
    "prelude": (Rule.PRELUDE, "`prelude` drops the core library; core names may be redefined"),
    "simproc": (Rule.ELAB, "a simproc is metaprogram code run while elaborating"),
    "dsimproc": (Rule.ELAB, "a simproc is metaprogram code run while elaborating"),
    "simproc_decl": (Rule.ELAB, "a simproc is metaprogram code run while elaborating"),
    "dsimproc_decl": (Rule.ELAB, "a simproc is metaprogram code run while elaborating"),
    "by_elab": (Rule.META_CODE, "`by_elab` runs metaprogram code while elaborating"),
}
# Attributes that register code Lean runs while elaborating or printing.
ATTRIBUTES: dict[str, tuple[Rule, str]] = {
    "tactic": (Rule.ELAB, "`@[tactic]` installs a tactic implementation, e.g. for `simp`"),
    "command_elab": (Rule.ELAB, "`@[command_elab]` installs a command elaborator"),
    "term_elab": (Rule.ELAB, "`@[term_elab]` installs a term elaborator"),
    "builtin_tactic": (Rule.ELAB, "`@[builtin_tactic]` installs a tactic implementation"),
    "builtin_command_elab": (Rule.ELAB, "`@[builtin_command_elab]` installs an elaborator"),
    "builtin_term_elab": (Rule.ELAB, "`@[builtin_term_elab]` installs an elaborator"),
    "init": (Rule.INITIALIZE, "`@[init]` runs code when the module is loaded"),
    "builtin_init": (Rule.INITIALIZE, "`@[builtin_init]` runs code when the module is loaded"),
    "env_extension": (Rule.INITIALIZE, "`@[env_extension]` runs code when the module is loaded"),
    "delab": (Rule.SYNTAX, "a delaborator changes how goals and types print"),
    "app_unexpander": (Rule.SYNTAX, "an unexpander changes how goals and types print"),
    "macro": (Rule.MACRO, "`@[macro]` installs a macro, e.g. for a tactic"),
    "builtin_macro": (Rule.MACRO, "`@[builtin_macro]` installs a macro"),
    "command_parser": (Rule.SYNTAX, "`@[command_parser]` installs a parser"),
    "term_parser": (Rule.SYNTAX, "`@[term_parser]` installs a parser"),
    "tactic_parser": (Rule.SYNTAX, "`@[tactic_parser]` installs a parser"),
    "builtin_command_parser": (Rule.SYNTAX, "`@[builtin_command_parser]` installs a parser"),
    "builtin_term_parser": (Rule.SYNTAX, "`@[builtin_term_parser]` installs a parser"),
    "builtin_tactic_parser": (Rule.SYNTAX, "`@[builtin_tactic_parser]` installs a parser"),
    "norm_num": (Rule.ELAB, "`@[norm_num]` installs metaprogram code run by `norm_num`"),
    "positivity": (Rule.ELAB, "`@[positivity]` installs metaprogram code run by `positivity`"),
    "command_code_action": (Rule.ELAB, "`@[command_code_action]` installs metaprogram code"),
    "hole_code_action": (Rule.ELAB, "`@[hole_code_action]` installs metaprogram code"),
    "env_linter": (Rule.ELAB, "`@[env_linter]` installs metaprogram code"),
}
# Name components: `Lean.ofReduceBool`, `sorryAx`, `IO.FS.writeFile`, `System.FilePath`.
COMPONENTS: dict[str, tuple[Rule, str]] = {
    "sorryAx": (Rule.SORRY, "`sorryAx` is `sorry`"),
    "ofReduceBool": (Rule.NATIVE_DECIDE, "`ofReduceBool` trusts the compiler"),
    "ofReduceNat": (Rule.NATIVE_DECIDE, "`ofReduceNat` trusts the compiler"),
    "reduceBool": (Rule.NATIVE_DECIDE, "`reduceBool` trusts the compiler"),
    "reduceNat": (Rule.NATIVE_DECIDE, "`reduceNat` trusts the compiler"),
    "trustCompiler": (Rule.NATIVE_DECIDE, "`trustCompiler` trusts the compiler"),
    "lcProof": (Rule.UNSOUND_CONSTANT, "`lcProof` is a compiler axiom that proves anything"),
    "lcUnreachable": (Rule.UNSOUND_CONSTANT, "`lcUnreachable` is a compiler-only constant"),
    "lcCast": (Rule.UNSOUND_CONSTANT, "`lcCast` is a compiler-only cast"),
    "unsafeCast": (Rule.UNSAFE, "`unsafeCast` is unchecked"),
    "addDeclWithoutChecking": (Rule.UNSAFE, "adds a declaration the kernel never checked"),
    "IO": (Rule.IO, "IO actions have effects outside Lean"),
    "EIO": (Rule.IO, "IO actions have effects outside Lean"),
    "BaseIO": (Rule.IO, "IO actions have effects outside Lean"),
    "unsafeIO": (Rule.IO, "IO actions have effects outside Lean"),
    "unsafeBaseIO": (Rule.IO, "IO actions have effects outside Lean"),
    "unsafeEIO": (Rule.IO, "IO actions have effects outside Lean"),
    "FilePath": (Rule.IO, "file-system access has effects outside Lean"),
    "withOptions": (Rule.META_CODE, "`withOptions` changes Lean's options from inside code"),
    "modifyOptions": (Rule.META_CODE, "`modifyOptions` changes Lean's options from code"),
    "setEnv": (Rule.META_CODE, "`setEnv` replaces the environment from inside code"),
    "modifyEnv": (Rule.META_CODE, "`modifyEnv` edits the environment from inside code"),
}
# Words whose string argument is `interpolatedStr(term)` (the lexer reads their `{…}` as code).
# In model-written text they are refused outright: a proof has no use for them.
INTERPOLATING = frozenset(
    {
        "s!",
        "m!",
        "f!",
        "dbg_trace",
        "dbgTrace",
        "throwError",
        "throwErrorAt",
        "logInfo",
        "logWarning",
        "logError",
        "trace!",
    }
)
SEARCH_TACTICS = frozenset({"exact?", "apply?", "rw?", "aesop?"})
HASH_EFFECTS: dict[str, tuple[Rule, str]] = {
    "#eval": (Rule.EVAL, "`#eval` runs code while elaborating"),
    "#eval!": (Rule.EVAL, "`#eval!` runs code while elaborating"),
    "#exit": (Rule.EXIT, "`#exit` stops Lean here; nothing after it is checked"),
    "#guard_msgs": (Rule.MESSAGE_GUARD, "`#guard_msgs` can swallow `sorry` warnings and errors"),
}
READ_ONLY_HASH = frozenset(
    {
        "#check",
        "#print",
        "#reduce",
        "#synth",
        "#help",
        "#find",
        "#guard",
        "#lint",
        "#where",
        "#simp",
        "#norm_num",
        "#conv",
        "#whnf",
        "#instances",
        "#check_failure",
        "#adaptation_note",
        "#align",
        "#align_import",
        "#noalign",
        "#version",
    }
)
MODEL_HASH = frozenset({"#check"})  # plus `#print axioms`
# `debug.skipKernelTC` switches the kernel off; `bootstrap.*` and `internal.*` are for
# building Lean itself. `compiler.*` only touches compiled code (`#eval`, `native_decide`,
# both refused anyway), so it falls under the advisory `unknown-option`.
SOUNDNESS_OPTIONS = ("debug.", "bootstrap.", "internal.")
LIMIT_OPTIONS = {
    "maxHeartbeats": "max_heartbeats",
    "maxRecDepth": "max_rec_depth",
    "synthInstance.maxHeartbeats": "max_synth_heartbeats",
    "synthInstance.maxSize": "max_synth_size",
}
KNOWN_OPTIONS = (
    "pp.",
    "trace.",
    "linter.",
    "autoImplicit",
    "relaxedAutoImplicit",
    "profiler",
    "diagnostics",
    "maxSynthPendingDepth",
    "backward.",
    "tactic.",
    "simprocs",
    "warningAsError",
    "hygiene",
    "push_neg.",
    "says.",
    "quotPrecheck",
    "Elab.",
    "format.",
    "allowUnsafeReducibility",
    "exponentiation.",
    "synthInstance.",
    "checkBinderAnnotations",
    "structure.",
    "match.",
    "genSizeOfSpec",
    "grind.",
    "aesop.",
    "simp.",
    "showInferredTerm",
    "maxErrors",
    "warn.",
    "experimental.",
    "structureDiamondWarning",
    "eval.",
    "genInjectivity",
    "maxUniverseOffset",
    "printMessageEndPos",
    "deprecated.",
    "unifier.",
)
NOTATION_KEYWORDS = frozenset(
    {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"}
)
RESERVED_ATOMS = frozenset({":=", "=>", "·", ".", "|", "⊢", "←", "<;>", "$", "fun", "λ", "by"})
# Operators statements are written with: a new notation for one of them (with a raised
# priority, the parser prefers it silently) can make `a ≤ b` mean `True`.
# fmt: off
OPERATOR_ATOMS = frozenset({
    "=", "≠", "≤", "<", "≥", ">", "+", "-", "*", "/", "^", "∣", "%", "∈", "∉", "⊆", "⊂", "⊇",
    "⊃", "∩", "∪", "\\", "∧", "∨", "¬", "→", "↔", "∀", "∃", "∑", "∏", "∫", "‖", "•", "∘", "⁻¹",
    "≃", "≅", "≪", "⊤", "⊥", "∞", "√", "∂", "×", "⊗", "⊕", "≡", "∅", "!", "⌊", "⌈", "∑'", "∏'",
    "𝔼", "ℙ",
})
# fmt: on
# Text that imitates the messages the final check parses (docs/lean-notes.md §4.2, §4.3).
SPOOF_PHRASES = (
    "depends on axioms",
    "does not depend on any axioms",
    "declaration uses",
    "PAPERLINT_",  # the markers of our own queries (axioms, elaborated statements)
)
META_LIBRARIES = frozenset({"Lean", "Lake"})
# In model-written text these block: a model has no business declaring them.
STRICT_FOR_MODELS = frozenset(
    {Rule.NOTATION, Rule.LOCAL_INSTANCE, Rule.UNKNOWN_OPTION, Rule.HASH_COMMAND, Rule.LEX_ERROR}
)
