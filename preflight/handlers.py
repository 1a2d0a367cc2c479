"""Control-word handlers of the document walk: counters, definitions, declarations, classes
and packages. Each takes the walker, the text and the match, and returns where to go on."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import (
    algorithms,
    classcode,
    conditionals,
    enumlabels,
    expansion,
    lazyre,
    macros,
    numexpr,
    plaintex,
    prepass,
    sectioning,
    texscan,
)
from paperlint.preflight import declarations as decl
from paperlint.preflight.macros import ArgSpec, Definition
from paperlint.preflight.walkstate import Owner

if TYPE_CHECKING:
    from collections.abc import Callable

    from paperlint.preflight.numbering import Walker

    Handler = Callable[[Walker, str, re.Match[str]], int]


def setcounter(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\setcounter{c}{value}`, `\\addtocounter{c}{value}`: the value as TeX reads it, or
    as calc does once it is loaded (`numexpr`)."""
    args, pos = texscan.read_args(text, m.end(), "{{")
    name, expr = (args[0] or "").strip(), args[1] or ""
    reg = walker.reg
    calc = reg.calc_setcounter if m.group(1) == "setcounter" else reg.calc_addtocounter
    value = numexpr.evaluate(expr, walker, calc=calc)
    counters = reg.counters
    if value is None:
        walker.problem(
            walker.at(m.start()),
            "warning",
            "unsure-counter",
            f"\\{m.group(1)}{{{name}}}{{{expr}}}: value not understood",
        )
    elif m.group(1) == "setcounter":
        counters.set(name, value)
    else:
        counters.add(name, value)
    return pos


def stepcounter(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    name = (args[0] or "").strip()
    if not name:
        return pos
    walker.reg.counters.step(name)
    if m.group(1) == "refstepcounter" and walker.in_document:
        walker.current = Owner(walker.reg.counters.render(name), "other", walker.enclosing_result())
    return pos


def newcounter(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{[")
    name = (args[0] or "").strip()
    if name and not walker.reg.counters.exists(name):
        walker.reg.counters.new(name, (args[1] or "").strip() or None)
    elif name and args[1]:
        walker.reg.counters.add_reset(name, args[1].strip())
    return pos


def numberwithin(walker: Walker, text: str, m: re.Match[str]) -> int:
    star = m.group(2) == "*"
    args, pos = texscan.read_args(text, m.end(), "[{{")
    child, parent = (args[1] or "").strip(), (args[2] or "").strip()
    style = (args[0] or "\\arabic").strip().lstrip("\\").lstrip("@") or "arabic"
    counters = walker.reg.counters
    if not child or not parent:
        return pos
    if m.group(1) == "counterwithout":
        counters.remove_reset(child, parent)
        if not star:
            counters.the[child] = f"\\arabic{{{child}}}"
        return pos
    counters.within(child, parent, style=style, keep_the=star)
    return pos


def newaliascnt(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{{")
    if args[0] and args[1]:
        walker.reg.counters.alias(args[0].strip(), args[1].strip())
    return pos


def addtoreset(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{{")
    if args[0] and args[1]:
        walker.reg.counters.add_reset(args[0].strip(), args[1].strip())
    return pos


def _define(
    walker: Walker, at: int, macro: Definition | None, *, local: bool = True, record: bool = True
) -> None:
    """Record a definition: `\\the<counter>` templates go to the counter table, everything
    else to the macro table the expansion layer reads."""
    if macro is None:
        return
    name = macro.name.lstrip("\\")
    counters = walker.reg.counters
    walker.options.defined.add("\\" + name)
    walker.options.lets.pop("\\" + name, None)
    if name.startswith("the") and (name[3:] in counters.the or name[3:] in walker.reg.envs):
        walker.set_the(name[3:], macro.body, local=local)
    elif name == "@currentlabel" and walker.in_document and macro.params == ():
        # `\\stepcounter{ass}\\def\\@currentlabel{A\\theass}`: what the next `\\label` writes
        walker.current = Owner(
            counters.render_template(macro.body), "other", walker.enclosing_result()
        )
    else:
        walker.expander.define(name, macro, walker.at(at))
        if macro.params == ():
            counters.macros[name] = macro.body
            if "\\\\" in macro.body:
                walker.row_macros[name] = macro.body
            if macros_expand(macro.body):
                walker.expanders[name] = macro.body
        elif macro.params is None and _STEPS.search(macro.body):
            walker.problem(
                walker.at(at),
                "warning",
                "unsure-counter",
                f"{macro.name} steps a counter and takes delimited arguments, which are not "
                "read: numbering after its uses may be off (use --latex)",
            )
    if record:  # a package's own macros are not the paper's
        walker.out.macros.append((walker.at(at), macro.record()))


_STEPS = lazyre.pattern(r"\\(?:refstepcounter|stepcounter)\b")


def at_end_of_file(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\AtEndOfClass{code}`/`\\AtEndOfPackage{code}`: the code runs when the class or
    package has been read (svjour3's `numbook` renews `\\theequation` there, after the
    class's own definition)."""
    args, pos = texscan.read_args(text, m.end(), "{")
    walker.defer_to_file_end(walker.at(m.start()), args[0] or "")
    return pos


def lean_mark(walker: Walker, text: str, m: re.Match[str]) -> int:
    """leanblueprint's `\\lean{Decl, ...}`, `\\leanok` and `\\mathlibok`, recorded on the
    result (or, for `\\leanok` inside a proof, on the proof) they are written in."""
    word = m.group(1)
    pos = m.end()
    names: list[str] = []
    if word == "lean":
        args, pos = texscan.read_args(text, pos, "{")
        names = [n.strip() for n in (args[0] or "").split(",") if n.strip()]
    if not walker.in_document:
        return pos
    for frame in reversed(walker.frames):
        if frame.result is not None or frame.proof is not None:
            break
    else:
        return pos
    if frame.proof is not None:
        if word == "leanok":
            walker.out.proofs[frame.proof].leanok = True
        return pos
    assert frame.result is not None
    result = walker.out.results[frame.result]
    if names:
        result.lean.extend(n for n in names if n not in result.lean)
    result.leanok = result.leanok or word == "leanok"
    result.mathlibok = result.mathlibok or word == "mathlibok"
    return pos


def macros_expand(body: str) -> bool:
    return _EXPANDS_IN_DISPLAY.search(body) is not None


_EXPANDS_IN_DISPLAY = lazyre.pattern(
    r"\\(?:begin|end)\s*\{|\\(?:refstepcounter|stepcounter|addtocounter|appendix|tag)\b"
)


def newcommand(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\newcommand` and its kin, and xparse's `\\NewDocumentCommand` and its kin."""
    word = m.group(1)
    start = m.end() - len(m.group(2))
    if word.endswith("DocumentCommand"):
        macro, pos = macros.parse_document_command(text, start)
    else:
        macro, pos = macros.parse_newcommand(text, start)
    name = macro.name.lstrip("\\") if macro is not None else ""
    known = name in walker.expander.table or name in walker.reg.counters.macros
    if known and word.startswith(("provide", "Provide")):
        return pos
    _define(walker, m.start(), macro)
    return pos


def define(walker: Walker, text: str, m: re.Match[str]) -> int:
    macro, pos = macros.parse_def(text, m.end())
    _define(walker, m.start(), macro, local=m.group(1) in ("def", "edef"))
    return pos


def let(walker: Walker, text: str, m: re.Match[str]) -> int:
    macro, pos = macros.parse_let(text, m.end())
    if macro is not None:
        # `\\let\\oldnorm\\norm` copies the paper's macro as it is now: the record is that
        # copy, so a later `\\def\\norm{…\\oldnorm…}` does not make the two one loop
        meaning = walker.expander.table.get(macro.definition[1:])
        if meaning is expansion.PICKERS.get(macro.definition):
            meaning = None  # the kernel's `\\@gobble`: recorded as written
        classcode.record_let(walker, macro.name, macro.definition)
        copied = meaning.record(macro.name) if meaning is not None else macro
        walker.out.macros.append((walker.at(m.start()), copied))
    return pos


def paired_delimiter(walker: Walker, text: str, m: re.Match[str]) -> int:
    """mathtools' `\\DeclarePairedDelimiter` and `\\DeclarePairedDelimiterX`."""
    extended = m.group(1).endswith("X")
    macro, pos = macros.parse_paired_delimiter(text, m.end(), extended=extended)
    _define(walker, m.start(), macro)
    return pos


def newref(walker: Walker, text: str, m: re.Match[str]) -> int:
    """refstyle's `\\newref{thm}{name=Theorem~, ...}`: `\\thmlabel{x}` writes `\\label{thm:x}`
    and `\\thmref{x}`, `\\Thmref{x}` refer to it. The key prefix is `thm:` unless the options
    give `key=...`, or refstyle was loaded with `nokeyprefix`."""
    args, pos = texscan.read_args(text, m.end(), "{{")
    name = (args[0] or "").strip().lower()
    if re.fullmatch(r"[a-z@]+", name):
        _new_reference_template(walker, m.start(), name, texscan.parse_keyvals(args[1] or ""))
    return pos


def _new_reference_template(
    walker: Walker, at: int, name: str, keys: dict[str, str], *, references: bool = True
) -> None:
    bare = "nokeyprefix" in walker.options.passed.get("refstyle", set())
    prefix = keys.get("key") or ("" if bare and "key" not in keys else f"{name}:")
    label = Definition(f"\\{name}label", f"\\label{{{prefix}#1}}", (ArgSpec("m"),))
    _define(walker, at, label, record=references)
    for ref in (f"{name}ref", f"{name[0].upper()}{name[1:]}ref") if references else ():
        body = f"\\ref{{{prefix}#3}}"
        params = (ArgSpec("s"), ArgSpec("o", ""), ArgSpec("m"))
        _define(walker, at, Definition(f"\\{ref}", body, params))


_REGISTER = lazyre.pattern(r"\s*\\([A-Za-z@]+)\s*")
_ASSIGN = lazyre.pattern(r"\s*=?\s*")
_BY = lazyre.pattern(r"\s*(?:by\b)?\s*")


def _skip(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """The offset after what `pattern` (which may match nothing) matches at `pos`."""
    match = pattern.match(text, pos)
    return match.end() if match else pos


def newcount(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\newcount\\mode` (a count register, 0), `\\chardef\\mode=2` (a constant)."""
    match = _REGISTER.match(text, m.end())
    if match is None:
        return m.end()
    name = match.group(1)
    if m.group(1) == "newcount":
        walker.registers[name] = 0
        return match.end()
    value, end = numexpr.read_number(text, _skip(_ASSIGN, text, match.end()), walker)
    if value is not None:
        walker.registers[name] = value
    return end


def assign_register(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\mode=2`, `\\mode 2`: a value for a count register."""
    value, end = numexpr.read_number(text, _skip(_ASSIGN, text, m.end()), walker)
    if value is None:
        return m.end()
    walker.registers[m.group(1)] = value
    return end


def advance(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\advance\\mode by 1`, `\\advance\\c@theorem -1` (a counter's own register)."""
    match = _REGISTER.match(text, m.end())
    if match is None:
        return m.end()
    value, end = numexpr.read_number(text, _skip(_BY, text, match.end()), walker)
    name = match.group(1)
    if value is None:
        return match.end()
    if name.startswith("c@") and walker.reg.counters.exists(name[2:]):
        walker.reg.counters.add(name[2:], value)
    elif name in walker.registers:
        walker.registers[name] += value
    return end


def math_operator(walker: Walker, text: str, m: re.Match[str]) -> int:
    macro, pos = macros.parse_math_operator(text, m.end() - len(m.group(2)))
    if macro is not None:
        walker.out.macros.append((walker.at(m.start()), macro))
    return pos


def newenvironment(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\newenvironment` and `\\renewenvironment`, and xparse's `\\NewDocumentEnvironment`
    and its kin."""
    word = m.group(1)
    if word.endswith("DocumentEnvironment"):
        env, pos = macros.parse_document_environment(text, m.end())
    else:
        env, pos = macros.parse_newenvironment(text, m.end() - len(m.group(2)))
    if env is not None:
        walker.wrappers[env.name] = env
        renews = word.startswith(("renew", "Renew", "Declare"))
        if renews and _wraps_theorem(walker, env):
            walker.reg.envs.pop(env.name, None)
    return pos


def _wraps_theorem(walker: Walker, env: macros.EnvDefinition) -> bool:
    return any(f"\\begin{{{name}}}" in env.begin for name in walker.reg.envs)


def newtheorem(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\newtheorem` and its look-alikes: elsarticle `\\newdefinition`, mdframed
    `\\newmdtheoremenv[options]{env}[shared]{Title}[within]`."""
    star = m.group(2) == "*"
    spec = "[{[{[" if m.group(1) == "newmdtheoremenv" else "{[{["
    args, pos = texscan.read_args(text, m.end(), spec)
    env, shared, title, within = args[-4:]
    if not env or title is None:
        return pos
    if m.group(1) == "newproof":  # elsarticle: a proof environment, never numbered
        walker.proof_envs.add(env.strip())
        return pos
    star = star or walker.theorem_style.startswith("nonumber")
    if star and _unnumbered_proof(walker, env):
        return pos
    decl.newtheorem(walker.reg, env, title, shared=shared, within=within, numbered=not star)
    return pos


def _unnumbered_proof(walker: Walker, env: str) -> bool:
    """An unnumbered theorem-like environment named as a proof is a proof: ntheorem's
    `\\theoremstyle{nonumberplain}\\newtheorem{proof}{Proof}`, svmult's and svjour's
    `\\spnewtheorem*{proof}{Proof}`. It is recorded as a proof environment, not a result."""
    name = env.strip()
    if not walker.is_proof_name(name):
        return False
    walker.proof_envs.add(name)
    walker.reg.envs.pop(name, None)
    return True


def newtcbtheorem(walker: Walker, text: str, m: re.Match[str]) -> int:
    """tcolorbox `\\newtcbtheorem[init]{env}{Title}{options}{prefix}`: `env` takes
    `{title}{label}` and writes the label as `prefix:label`; `env*` is unnumbered."""
    args, pos = texscan.read_args(text, m.end(), "[{{{{")
    init, env, title, _, prefix = args
    if not env or title is None:
        return pos
    keys = texscan.parse_keyvals(init or "")
    shared = keys.get("use counter from") or keys.get("use counter")
    within = keys.get("number within")
    env = env.strip()
    decl.newtheorem(walker.reg, env, title, shared=shared, within=within)
    decl.newtheorem(walker.reg, env + "*", title, numbered=False)
    walker.tcb_prefixes[env] = walker.tcb_prefixes[env + "*"] = (prefix or "").strip()
    return pos


def spnewtheorem(walker: Walker, text: str, m: re.Match[str]) -> int:
    star = m.group(2) == "*"
    if star:
        args, pos = texscan.read_args(text, m.end(), "{{{{")
        if args[0] and args[1] is not None and not _unnumbered_proof(walker, args[0]):
            decl.spnewtheorem(walker.reg, args[0], args[1], None, None, numbered=False)
        return pos
    args, pos = texscan.read_args(text, m.end(), "{[{[{{")
    if args[0] and args[2] is not None:
        within = args[3]
        if within is not None and "\\" in within:
            # svmult: `\\spnewtheorem{theorem}{Theorem}[\\envankh]`, `\\def\\envankh{chapter}`
            within = walker.reg.counters.expand(within, 0)
        decl.spnewtheorem(walker.reg, args[0], args[2], args[1], within)
    return pos


def sp_internal(walker: Walker, text: str, m: re.Match[str]) -> int:
    """The Springer classes' internal forms behind `\\spnewtheorem`, which svmult calls
    through `\\spn@wtheorem` for its predefined environments: `\\@spynthm{env}{Title}{f}{f}`
    (own counter), `\\@spothm{env}[shared]{Title}{f}{f}`, `\\@spxnthm{env}{Title}[within]{f}{f}`."""
    word = m.group(1)
    spec = {"@spynthm": "{{{{", "@spothm": "{[{{{", "@spxnthm": "{{[{{"}[word]
    args, pos = texscan.read_args(text, m.end(), spec)
    env = args[0]
    title = args[2] if word == "@spothm" else args[1]
    shared = args[1] if word == "@spothm" else None
    within = args[2] if word == "@spxnthm" else None
    if within is not None and "\\" in within:
        within = walker.reg.counters.expand(within, 0)
    if env and title is not None and "#" not in env:
        decl.spnewtheorem(walker.reg, env, title, shared, within)
    return pos


def declaretheorem(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "[{[")
    keys = texscan.parse_keyvals(args[0] or "")
    keys.update(texscan.parse_keyvals(args[2] or ""))
    if args[1]:
        decl.declaretheorem(walker.reg, args[1], keys)
    return pos


def theoremstyle(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    walker.theorem_style = (args[0] or "").strip()
    return pos


def theoremnumbering(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "{")
    style = (args[0] or "arabic").strip()
    walker.reg.ntheorem_numbering = {"greek": "alph", "Greek": "Alph"}.get(style, style)
    return pos


def skip_args(spec: str) -> Handler:
    def handler(walker: Walker, text: str, m: re.Match[str]) -> int:
        return texscan.read_args(text, m.end(), spec)[1]

    return handler


DOCUMENT_HOOKS = {"AtEndPreamble": 0, "AtBeginDocument": 1, "AfterEndPreamble": 2}
"""etoolbox's and the kernel's hooks into `\\begin{document}`, in the order LaTeX runs them
there (pdflatex, 2026-12-04: `\\AtEndPreamble`'s code ran before `\\AtBeginDocument`'s written
earlier)."""


def document_hook(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\AtBeginDocument{code}` and its kin in the preamble: the code runs at
    `\\begin{document}`, after the rest of the preamble (a `\\renewcommand\\thesection` there
    outlasts a later class default); in the document, at once."""
    if walker.in_document or not text.startswith("{", texscan.skip_spaces(text, m.end())):
        return m.end()  # read on: the group's code is read where it stands
    span = texscan.read_group_span(text, m.end())
    if span is None or span[1] >= len(text):
        return m.end()  # never closed (TeX stops there): read on, `\\begin{document}` included
    code = text[span[0] : span[1]]
    walker.document_hooks.append((DOCUMENT_HOOKS[m.group(1)], code, walker.at(m.start())))
    return span[2]


def documentclass(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "[{")
    options = set(texscan.split_keys(args[0] or ""))
    name = (args[1] or "article").strip()
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or walker.in_document:
        return m.end()  # `\\string\\documentclass` in a class's error message, not a class
    if m.group(1) == "documentclass" and walker.class_loaded:
        return pos  # LaTeX allows one \\documentclass; a second one is an error
    walker.class_loaded = walker.class_loaded or m.group(1) == "documentclass"
    walker.classes.add(name)
    if m.group(1) == "documentclass" or name in decl.BOOK_CLASSES:
        decl.apply_class(walker.reg, name, options | walker.reg.class_options)
    walker.options.passed[name] = options | walker.reg.class_options
    walker.options.start(options | walker.reg.class_options)
    return pos


def usepackage(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "[{")
    options = set(texscan.split_keys(args[0] or ""))
    for name in texscan.split_keys(args[1] or ""):
        first = name not in walker.reg.packages
        decl.apply_package(walker.reg, name, options)
        walker.options.passed[name] = options | walker.reg.class_options
        if first and name == "refstyle":
            _refstyle_defaults(walker, m.start())
    return pos


# the templates refstyle.cfg defines when the package loads
_REFSTYLE_DEFAULTS = ("part", "chap", "sec", "eq", "fig", "tab", "fn")


def _refstyle_defaults(walker: Walker, at: int) -> None:
    """Their label commands (`\\eqlabel{x}` writes `eq:x`); not their reference commands,
    which refstyle leaves alone where another package has one (amsmath's `\\eqref`)."""
    for name in _REFSTYLE_DEFAULTS:
        _new_reference_template(walker, at, name, {}, references=False)


def mathtoolsset(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\mathtoolsset{showonlyrefs}` switches mathtools' only-referenced numbering on."""
    args, pos = texscan.read_args(text, m.end(), "{")
    for key in texscan.split_keys(args[0] or ""):
        name, _, value = key.partition("=")
        if name.strip() == "showonlyrefs":
            on = value.strip().lower() in ("", "true")
            walker.reg.only_referenced = "mathtools" if on else None
    return pos


def bibliography(walker: Walker, text: str, m: re.Match[str]) -> int:
    args, pos = texscan.read_args(text, m.end(), "[{" if m.group(1) == "addbibresource" else "{")
    for name in texscan.split_keys(args[-1] or ""):
        walker.out.bib_files.append((walker.at(m.start()), name))
    return pos


def catcode(walker: Walker, text: str, m: re.Match[str]) -> int:
    if walker.in_document:
        walker.problem(
            walker.at(m.start()),
            "info",
            "catcode",
            "\\catcode changes are not modelled; use --latex if numbering looks off",
        )
    return m.end()


def begin(walker: Walker, text: str, m: re.Match[str]) -> int:
    return walker.begin(text, m)


def end(walker: Walker, text: str, m: re.Match[str]) -> int:
    return walker.end(text, m)


def label(walker: Walker, text: str, m: re.Match[str]) -> int:
    return walker.label(text, m)


def display_math(walker: Walker, text: str, m: re.Match[str]) -> int:
    return walker.display_math(text, m)


def _table() -> dict[str, Handler]:
    table: dict[str, Handler] = {
        "setcounter": setcounter,
        "addtocounter": setcounter,
        "stepcounter": stepcounter,
        "refstepcounter": stepcounter,
        "newcounter": newcounter,
        "numberwithin": numberwithin,
        "counterwithin": numberwithin,
        "counterwithout": numberwithin,
        "@addtoreset": addtoreset,
        "newaliascnt": newaliascnt,
        "catcode": catcode,
        "aliascntresetthe": skip_args("{"),
        "newcommand": newcommand,
        "renewcommand": newcommand,
        "providecommand": newcommand,
        "DeclareRobustCommand": newcommand,
        "NewDocumentCommand": newcommand,
        "RenewDocumentCommand": newcommand,
        "ProvideDocumentCommand": newcommand,
        "DeclareDocumentCommand": newcommand,
        "NewExpandableDocumentCommand": newcommand,
        "def": define,
        "gdef": define,
        "edef": define,
        "xdef": define,
        "let": let,
        "DeclareMathOperator": math_operator,
        "DeclarePairedDelimiter": paired_delimiter,
        "DeclarePairedDelimiterX": paired_delimiter,
        "newenvironment": newenvironment,
        "renewenvironment": newenvironment,
        "NewDocumentEnvironment": newenvironment,
        "RenewDocumentEnvironment": newenvironment,
        "DeclareDocumentEnvironment": newenvironment,
        "newtheorem": newtheorem,
        "newdefinition": newtheorem,
        "newproof": newtheorem,
        "newmdtheoremenv": newtheorem,
        "newtcbtheorem": newtcbtheorem,
        "renewtcbtheorem": newtcbtheorem,
        "NewTcbTheorem": newtcbtheorem,
        "RenewTcbTheorem": newtcbtheorem,
        "DeclareTcbTheorem": newtcbtheorem,
        "ProvideTcbTheorem": newtcbtheorem,
        "proclaim": plaintex.proclaim,
        "demo": plaintex.demo,
        "proof": plaintex.demo,
        "pf": plaintex.demo,
        "AtEndOfClass": at_end_of_file,
        "AtEndOfPackage": at_end_of_file,
        "lean": lean_mark,
        "leanok": lean_mark,
        "mathlibok": lean_mark,
        "spnewtheorem": spnewtheorem,
        "@spynthm": sp_internal,
        "@spothm": sp_internal,
        "@spxnthm": sp_internal,
        "declaretheorem": declaretheorem,
        "theoremnumbering": theoremnumbering,
        "newtheoremstyle": skip_args("{{{{{{{{{"),
        "declaretheoremstyle": skip_args("[{"),
        "theoremstyle": theoremstyle,
        "DeclareOption": classcode.declare_option,
        "ProcessOptions": classcode.process_options,
        "ProvidesPackage": classcode.provides,
        "ProvidesClass": classcode.provides,
        "ExecuteOptions": classcode.execute_options,
        "expandafter": classcode.expandafter,
        "newtoggle": conditionals.newtoggle,
        "providetoggle": conditionals.newtoggle,
        "toggletrue": conditionals.settoggle,
        "togglefalse": conditionals.settoggle,
        "settoggle": conditionals.settoggle,
        "newbool": conditionals.newbool,
        "providebool": conditionals.newbool,
        "newboolean": conditionals.newbool,
        "provideboolean": conditionals.newbool,
        "setbool": conditionals.setbool,
        "setboolean": conditionals.setbool,
        "booltrue": conditionals.setbool,
        "boolfalse": conditionals.setbool,
        "ifthenelse": conditionals.ifthenelse,
        "setlist": enumlabels.setlist,
        "setenumerate": enumlabels.setlist,
        **dict.fromkeys(DOCUMENT_HOOKS, document_hook),
        **dict.fromkeys(prepass.ETOOLBOX_TESTS, conditionals.etoolbox_test),
        **dict.fromkeys(conditionals.KERNEL_TESTS, conditionals.kernel_test),
        **dict.fromkeys(conditionals.LOOK_AHEAD, conditionals.look_ahead),
        **dict.fromkeys(conditionals.XPARSE_TESTS, conditionals.xparse_test),
        "newref": newref,
        "newcount": newcount,
        "chardef": newcount,
        "advance": advance,
        "documentclass": documentclass,
        "LoadClass": documentclass,
        "usepackage": usepackage,
        "RequirePackage": usepackage,
        "bibliography": bibliography,
        "mathtoolsset": mathtoolsset,
        "addbibresource": bibliography,
        "crefname": skip_args("{{{"),
        "Crefname": skip_args("{{{"),
    }
    table.update(begin=begin, end=end, label=label)
    table["["] = display_math
    table.update(appendix=sectioning.appendix, appendices=sectioning.appendix)
    table.update(item=sectioning.item, caption=sectioning.caption, footnote=sectioning.footnote)
    table.update(dict.fromkeys(("subcaption", "subcaptionbox", "subfloat"), sectioning.sub_caption))
    table["captionof"] = sectioning.caption_of
    table["floatconts"] = sectioning.float_contents
    table.update(dict.fromkeys(("algdef", *algorithms.SHORT_FORMS), algorithms.algdef))
    table.update(
        dict.fromkeys(
            ("algtext", "algnotext", "algrenewtext", "algdefaulttext"), algorithms.algtext
        )
    )
    table.update(algstore=algorithms.store, algrestore=algorithms.store)
    table.update(nllabel=label, lnl=label)  # algorithm2e's: `\\lnl{x}` is `\\nl\\label{x}`
    table.update(dict.fromkeys(algorithms.A2E_SETTINGS, algorithms.algorithm2e_setting))
    table.update(dict.fromkeys(algorithms.A2E_DEFINERS, algorithms.algorithm2e_definition))
    table["subfigure"] = sectioning.old_subfigure  # the subfigure package's command
    for name in ("part", "chapter", "section", "subsection", "subsubsection", "paragraph"):
        table[name] = sectioning.section
    table["subparagraph"] = sectioning.section
    table.update(addchap=sectioning.koma_unnumbered, addsec=sectioning.koma_unnumbered)
    for name in ("frontmatter", "mainmatter", "backmatter"):
        table[name] = sectioning.matter
    return table


HANDLERS: dict[str, Handler] = _table()
