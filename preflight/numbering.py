"""The document walk: one pass in document order that emulates LaTeX's counters
(docs/latex-notes.md §1-§10) and records results, proofs, labels and macro definitions.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from paperlint.preflight import (
    algorithms,
    classcode,
    conditionals,
    envfamilies,
    equations,
    expansion,
    lazyre,
    macros,
    plaintext,
    references,
    sectioning,
    texscan,
)
from paperlint.preflight import declarations as decl
from paperlint.preflight.declarations import Registry
from paperlint.preflight.draft import Severity
from paperlint.preflight.sourcetree import Segment
from paperlint.preflight.walkstate import Frame, Owner, Problem, RawProof, RawResult, WalkOutput

_CS = lazyre.pattern(r"\\(?:([A-Za-z@]+)(\*?)|(\[)|.)", re.S)
_SECTIONS = (
    "part",
    "chapter",
    "section",
    "subsection",
    "subsubsection",
    "paragraph",
    "subparagraph",
)
_EXPANDS = lazyre.pattern(
    r"\\(?:begin|end|refstepcounter|stepcounter|setcounter|appendix|section|chapter)\b"
)
# what makes a hand-made environment's head numbered: a `\\refstepcounter`, or the label it
# sets itself (`\\stepcounter{ass}\\def\\@currentlabel{A\\theass}`)
_STEPS = lazyre.pattern(r"\\refstepcounter\s*\{|\\(?:protected@)?[egx]?def\s*\\@currentlabel\b")
_PROOF_ENV = lazyre.pattern(
    r"^(?!prooftree|proofrule|proofbox|prooflist)"
    r"(?:[A-Za-z]*proof[A-Za-z]*|pf|prf|demo|demostracion|preuve|beweis)\*?$",
    re.I,
)
# what an ASCII name `_PROOF_ENV` matches holds, lowercased
_PROOF_WORDS = ("proof", "pf", "prf", "demo", "preuve", "beweis")
# proof environments whose mandatory argument names the result: `\begin{proofof}{thm:x}`
_NAMING_PROOF = lazyre.pattern(r"^(?:proofof|proofof[A-Za-z]+|[A-Za-z]*proofof)\*?$", re.I)
_BRANCH_WORDS = ("else", "fi", "or", "repeat", "newif")
_PARAGRAPH = lazyre.pattern(r"\n[ \t]*\n|\\par(?![A-Za-z@])")  # a blank line or `\\par`
# a group with no brace, backslash or newline inside: closed, and no paragraph ends in it
_SIMPLE_ARGUMENT = lazyre.pattern(r"\{([^{}\\\n]*)\}")
MAX_NESTED_WALKS = 16
_MATH_CALL = lazyre.pattern(r"\\([A-Za-z@]+)(?![A-Za-z@])")
_MATH_EFFECT = lazyre.pattern(r"\\(?:label|tag|notag|nonumber|stepcounter|refstepcounter)\b")
# what makes a macro worth expanding besides the walker's handlers: the conditionals it can
# evaluate (and the branch words that go with them)
_EVALUATED = frozenset({"ifcase", "ifnum", "ifodd", "iftrue", "else", "or", "fi"})
# handlers whose use inside a macro does not make expanding it worthwhile: definitions,
# package and class plumbing, register arithmetic (class and package code is full of them,
# and of macros that name themselves: `\\renewcommand\\normalsize{\\@setfontsize\\normalsize
# …\\let…}`; bussproofs' proof trees `\\advance` registers at every step)
_PLUMBING = frozenset(
    {"catcode", "def", "gdef", "edef", "xdef", "let", "expandafter", "DeclareMathOperator"}
    | {"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand"}
    | {"NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand"}
    | {"DeclareDocumentCommand", "NewExpandableDocumentCommand", "mathtoolsset"}
    | {"DeclareOption", "ProcessOptions", "ProvidesPackage", "ProvidesClass", "ExecuteOptions"}
    | {"documentclass", "LoadClass", "usepackage", "RequirePackage", "AtEndOfClass"}
    | {"AtEndOfPackage", "bibliography", "addbibresource", "crefname", "Crefname"}
    | {"newtheoremstyle", "declaretheoremstyle", "advance", "newcount", "chardef"}
)
Handler = Callable[["Walker", str, re.Match[str]], int]


class Walker:
    """Walk the flat text once; `run` returns everything the inventory needs."""

    def __init__(
        self,
        text: str,
        segments: Sequence[Segment] = (),
        exists: Callable[[str], bool] | None = None,
    ) -> None:
        self.text = text
        self.segments = tuple(segments)
        # whether a file `\\IfFileExists` names is beside the paper (None: not known)
        self.exists = exists
        self.classes: set[str] = set()  # `\\documentclass` and `\\LoadClass`'s, so far
        # `\\AtEndOfClass`/`\\AtEndOfPackage` code, run where its file's inlined text ends
        self.deferred: list[tuple[int, str]] = []
        self.out = WalkOutput(registry=Registry())
        self.reg = self.out.registry
        self.in_document = False
        self.current = Owner("")
        self.frames: list[Frame] = []
        self.wrappers: dict[str, macros.EnvDefinition] = {}
        # views of the macro table for equation bodies, which are read as strings
        self.expanders: dict[str, str] = {}
        self.row_macros: dict[str, str] = {}
        self.expander = expansion.Expander(len(text))
        self._writers: set[str] = set()  # `_math_writers`
        self._segment_starts = [segment.flat_start for segment in self.segments]
        self.registers: dict[str, int] = {}
        self.pending_labels: list[str] = []
        self.resume_at = 0
        self.proof_envs: set[str] = {"proof", "IEEEproof"}
        self.tcb_prefixes: dict[str, str] = {}
        self.main_matter = True
        self.toggles = conditionals.Toggles()
        self.restaters: dict[str, int] = {}
        self._special_words: dict[str, bool] = {}  # `_special_word`, worked out once a name
        self.map: expansion.SourceMap | None = None
        self.depth = 0
        self.nested = 0
        self.labels_recorded = 0
        self._relevant: tuple[object, expansion.Relevance] = (
            None,
            expansion.Relevance(frozenset(), frozenset()),
        )
        self.enum_depth = 0
        # algorithmicx: entities given a text or none (`\\algdef`, `\\algtext*`, …), the
        # line numbers `\\algstore` kept, and inside `algorithmic` the entities that step
        self.algorithmic_texts: dict[str, bool] = {}
        self.algorithmic_stored: dict[str, int] = {}
        self.line_entities: frozenset[str] = frozenset()
        # algorithm2e: settings and block commands made outside an algorithm, and whether
        # the walk is inside one (preflight/algorithms.py)
        self.algorithm2e_settings: dict[str, bool] = {}
        self.algorithm2e_shapes: dict[str, str] = {}
        self.in_algorithm2e = 0
        # code for `\\begin{document}` (`\\AtEndPreamble`, `\\AtBeginDocument`,
        # `\\AfterEndPreamble`): (when, code, where it was written), run in that order there
        self.document_hooks: list[tuple[int, str, int]] = []
        # enumitem's `\\setlist` keys by level (0: every level)
        self.list_settings: dict[int, dict[str, str]] = {}
        self.appendix_active = False
        # IEEEtran's one `\\appendix` is the section "A": a `\\section{…}` in it numbers nothing
        self.sections_destroyed = False
        self.options = classcode.OptionState()
        self.saved_the: dict[str, str] = {}
        self.theorem_style = ""
        self.class_loaded = False
        self.plain = "\\documentclass" not in text and "\\begin{document}" not in text
        self._referenced: equations.Referenced | None = None

    def referenced(self) -> equations.Referenced | None:
        """The referenced labels, when a package numbers only referenced equations."""
        package = self.reg.only_referenced
        if package is None:
            return None
        if self._referenced is None:
            commands, envs = equations.ONLY_REFERENCED[package]
            keys = references.reference_keys(self.text, commands)
            self._referenced = equations.Referenced(
                frozenset(keys), envs, drops_unreferenced=package == "autonum"
            )
        return self._referenced

    # -- driver -------------------------------------------------------------------------

    def run(self) -> WalkOutput:
        if not self.reg.counters.values:
            decl.apply_class(self.reg, "article", set())
        if self.plain:  # plain TeX / AMS-TeX: the whole file is the document
            self.in_document = True
        self.scan(self.text, 0, len(self.text))
        self._run_deferred(len(self.text))
        for key in self.pending_labels:
            self.record_label(key, Owner("", "equation", None), len(self.text))
        for frame in reversed(self.frames):
            if frame.result is not None or frame.proof is not None:
                self.problem(
                    frame.begin,
                    "error",
                    "unterminated-environment",
                    f"\\begin{{{frame.name}}} is never closed",
                )
                self._close(frame, len(self.text), len(self.text))
        self.out.definitions = self.expander.table
        return self.out

    def scan(self, text: str, start: int, end: int) -> None:
        pos = start
        while True:
            match = _CS.search(text, pos, end)
            if self.deferred and text is self.text:
                self._run_deferred(match.start() if match else end)
            if match is None:
                return
            name = match.group(1) or match.group(3)
            if name is None:
                pos = match.end()
                continue
            handler = HANDLERS.get(name)
            special = self._special_words.get(name)
            if special is None:
                special = self._special_words[name] = _special_word(name)
            if special and (
                (handler is None and name.startswith("if") and name not in self.expander.table)
                or name in _BRANCH_WORDS
            ):
                pos = conditionals.primitive(self, text, match, name)
            elif special and name.endswith(_SETTERS) and self.toggles.assign(name):
                pos = match.end()
            elif handler is not None:
                notes = len(self.reg.notes)
                pos = max(handler(self, text, match), match.end())
                if len(self.reg.notes) > notes:
                    for code, message in self.reg.notes[notes:]:
                        self.problem(self.at(match.start()), "warning", code, message)
            elif name in self.line_entities:
                pos = algorithms.line(self, text, match)
            elif name in self.restaters and self.in_document:
                pos = self._restatement(text, match)
            elif name in self.expander.table and self._active(name):
                pos = self._expand(text, match, name)
            elif name in self.registers:
                pos = assign_register(self, text, match)
            elif self.map is not None and self.in_document and self._command_form(name):
                pos = self._environment_command(text, match, name)
            else:
                pos = match.end()

    def defer_to_file_end(self, pos: int, code: str) -> None:
        """Keep `code` for the end of the file holding `pos` (as inlined: a package it loads
        is inside it); run it at once when the walk has no file map."""
        end = self._file_end(pos)
        if end is None:
            self.expand_snippet(code, pos, pos)
        else:
            self.deferred.append((end, code))

    def _file_end(self, pos: int) -> int | None:
        index = next(
            (i for i, s in enumerate(self.segments) if _holds(s, pos)),
            None,
        )
        if index is None:
            return None
        file = self.segments[index].file
        first = next(i for i in range(index, -1, -1) if self.segments[i].file != file or i == 0)
        parent = self.segments[first].file if self.segments[first].file != file else None
        for segment in self.segments[index + 1 :]:
            if parent is not None and segment.file == parent:
                return segment.flat_start
        return len(self.text)

    def _run_deferred(self, pos: int) -> None:
        due = [(at, code) for at, code in self.deferred if at <= pos]
        if not due:
            return
        self.deferred = [(at, code) for at, code in self.deferred if at > pos]
        for at, code in due:
            self.expand_snippet(code, at, at)

    def _restatement(self, text: str, m: re.Match[str]) -> int:
        """`\\mythm*` of thm-restate/thmtools: the original's head printed again, recorded
        as a result that `restates` it (so a proof that follows can be traced back)."""
        original = self.out.results[self.restaters[m.group(1)]]
        begin, end = self.at(m.start()), self.at(m.end())
        restated = RawResult(
            env=original.env,
            title=original.title,
            number=original.number,
            note=original.note,
            begin=begin,
            body_start=begin,
            end=end,
            body_end=end,
            restates=self.restaters[m.group(1)],
        )
        self.out.results.append(restated)
        return m.end()

    def can_nest(self) -> bool:
        """Whether a handler may read a group of the text by a walk of its own (a branch, a
        footnote). Past `MAX_NESTED_WALKS` the group is read by the enclosing walk instead,
        as plain text: ten thousand unclosed `\\ifbool{b}{` must cost neither the stack
        nor the square of the text."""
        return self.nested < MAX_NESTED_WALKS

    def scan_inside(self, text: str, start: int, end: int) -> None:
        """`scan` for a group a handler reads itself (see `can_nest`)."""
        self.nested += 1
        self.scan(text, start, end)
        self.nested -= 1

    def expand_snippet(
        self, snippet: str, begin: int, after: int, pieces: tuple[tuple[int, int, int], ...] = ()
    ) -> None:
        """Read `snippet` (a macro's expansion, an environment's code) as if it stood where
        the source offsets `begin` (up to `after`) are; `pieces` map copied source text."""
        saved = self.map
        self.map = expansion.SourceMap(begin, after, pieces)
        self.depth += 1
        self.scan(snippet, 0, len(snippet))
        self.depth -= 1
        self.map = saved

    # -- the expansion layer ----------------------------------------------------------

    def _active(self, name: str) -> bool:
        """Whether expanding the user macro `name` can change what the walk records."""
        the = self.reg.counters.the
        state = (len(self.reg.envs), len(self.toggles.flags), len(self.restaters), len(the))
        if self._relevant[0] != state:
            flags = self.toggles.flags
            setters = {f"{flag}{value}" for flag in flags for value in _SETTERS}
            envs = self.reg.envs
            always = setters | set(envs) | {f"end{env}" for env in envs} | set(self.restaters)
            always |= {f"the{counter}" for counter in the}  # `\\renewcommand\\thethm{#1}`
            tests = {f"if{flag}" for flag in flags} | _EVALUATED
            relevance = expansion.Relevance(frozenset(always) | _ACTIVATING, frozenset(tests))
            self._relevant = (state, relevance)
        return self.expander.active(name, self._relevant[1], state)

    def _expand(self, text: str, m: re.Match[str], name: str) -> int:
        """Replace a use of a user macro by its expansion and read that (as text when it
        cannot be read, nests too deep, recurses, or the expansion budget is spent)."""
        expander = self.expander
        name = expander.alias(name)
        definition = expander.table[name]
        refused = expander.refuse(name)
        call = expansion.read_call(text, m.end(), definition.params or ()) if not refused else None
        snippet, pieces = (
            expansion.substitute(definition.body, call[0], self.map) if call else ("", ())
        )
        refused = refused or expander.refuse(name, len(snippet))
        if refused is not None:
            self._refused(name, refused, self.at(m.start()))
        if refused is not None or call is None:
            return m.end()
        end = call[1]
        if not pieces and "@if" in snippet:  # `\\@ifstar` at its end reads past the use
            # (the walk's match took a `*` right after the name: TeX's look-ahead sees it)
            ahead = m.start(2) if m.group(2) and definition.params == () else end
            snippet, ahead = conditionals.splice_look_ahead(snippet, text, ahead)
            end = max(end, ahead)
        expander.spend(len(snippet))
        expander.stack.append(name)
        saved, self.resume_at = self.resume_at, end
        self.expand_snippet(snippet, self.at(m.start()), self.at(end, body=True), pieces)
        expander.stack.pop()
        # a display the expansion opened and the source closed (`\\beq … \\eeq`) was read
        # up to its end in the source text: go on from there
        resume = max(end, self.resume_at) if text is self.text else end
        self.resume_at = saved
        return resume

    def _refused(self, name: str, reason: str, at: int) -> None:
        """Say once why a macro was read as text: the budget always; nesting and recursion
        only for the paper's own macros (class code names macros inside themselves without
        expanding them: `\\@setfontsize\\normalsize`)."""
        key = "budget" if reason == "budget" else f"{reason}:{name}"
        if key in self.expander.reported:
            return
        defined_in = self._file_at(self.expander.defined_at.get(name, -1))
        if reason != "budget" and not defined_in.endswith(".tex"):
            return
        self.expander.reported.add(key)
        message = {
            "depth": f"\\{name}: macros nest more than {expansion.MAX_DEPTH} deep here",
            "recursion": f"\\{name} expands to itself",
            "budget": "the macro expansions of this paper exceed their size limit",
        }[reason]
        self.problem(at, "warning", "macro-expansion", message + "; the rest is read as text")

    def expand_text(self, text: str, depth: int = 0) -> str | None:
        """`text` with its argument-free user macros expanded (for string tests such as
        ifthen's `\\equal`); None when it holds a macro that takes arguments."""
        table = self.expander.table

        def replace(match: re.Match[str]) -> str:
            found = table.get(match.group(1))
            if found is None:
                return match.group(0)
            if found.params != () or depth >= expansion.MAX_DEPTH:
                raise ValueError(match.group(1))
            return self.expand_text(found.body, depth + 1) or ""

        try:
            return re.sub(r"\\([A-Za-z@]+)", replace, text)
        except ValueError:
            return None

    def _file_at(self, pos: int) -> str:
        """The file holding flat offset `pos` ("" when unknown)."""
        index = bisect.bisect_right(self._segment_starts, pos) - 1
        return self.segments[index].file if 0 <= index < len(self.segments) and pos >= 0 else ""

    def _command_form(self, name: str) -> bool:
        """`\\innercustom … \\endinnercustom`: an environment's begin and end as commands,
        as a wrapper's code calls them."""
        envs = self.reg.envs
        return name in envs or (name.startswith("end") and name[3:] in envs)

    def _environment_command(self, text: str, m: re.Match[str], name: str) -> int:
        if name in self.reg.envs:
            return self.begin_theorem(text, m.start(), m.end(), name)
        index = self._innermost_frame(name[3:])
        if index is not None:
            for frame in reversed(self.frames[index:]):
                self._close(frame, self.at(m.start()), self.at(m.end(), body=True))
            del self.frames[index:]
        return m.end()

    # -- what numexpr.Lookup asks -----------------------------------------------------

    def counter(self, name: str) -> int | None:
        counters = self.reg.counters
        return counters.value(name) if counters.exists(name.strip()) else None

    def label_number(self, key: str) -> str | None:
        owner = self.out.labels.get(key)
        return None if owner is None else owner.number

    def register(self, name: str) -> int | None:
        return self.registers.get(name)

    def macro_body(self, name: str) -> str | None:
        found = self.expander.table.get(name)
        return found.body if found is not None and found.params == () else None

    @property
    def events(self) -> int:
        """Grows whenever a result or a label is recorded (conditionals report on it)."""
        return len(self.out.results) + self.labels_recorded

    def set_the(self, counter: str, template: str, *, local: bool) -> None:
        """`\\renewcommand\\the<counter>`: local to the environment it is made in, as a TeX
        group is (a wrapper's `\\renewcommand\\theinnercustom{#1}` ends with it)."""
        the = self.reg.counters.the
        if local and self.frames and self.in_document:
            frame = self.frames[-1]
            frame.restore_the = frame.restore_the or {}
            frame.restore_the.setdefault(counter, the.get(counter))
        the[counter] = template

    @staticmethod
    def is_proof_name(name: str) -> bool:
        if name.isascii() and not any(word in name.lower() for word in _PROOF_WORDS):
            return False  # `_PROOF_ENV` cannot match: no need to compile it (`re.I` is slow to)
        return _PROOF_ENV.match(name) is not None

    def at(self, pos: int, *, body: bool = False) -> int:
        """The source offset of `pos` in the text being read (a snippet is mapped)."""
        return pos if self.map is None else self.map.flat(pos, body=body)

    def problem(self, pos: int | None, severity: Severity, code: str, message: str) -> None:
        self.out.problems.append(Problem(pos, severity, code, message))

    # -- labels -------------------------------------------------------------------------

    def label(self, text: str, m: re.Match[str]) -> int:
        optional = texscan.read_optional(text, m.end(), newline=False)
        pos = optional[1] if optional else m.end()
        if not self.in_document:
            return pos
        key, after = self.short_argument(text, m, pos)  # (None, pos) when there is no group
        if key is not None:
            self.record_label(key, self.current, self.at(m.start()))
        return after

    def record_label(self, key: str, owner: Owner, pos: int) -> None:
        """A `\\label`; one written twice keeps its last definition, as `\\ref` reads the
        last `\\newlabel` of the .aux."""
        earlier = self.out.labels.get(key)
        if earlier is not None:
            self.problem(
                pos,
                "warning",
                "duplicate-label",
                f"label {key!r} multiply defined; LaTeX keeps this last definition",
            )
            if earlier.kind == "result" and earlier.result is not None:
                labels = self.out.results[earlier.result].labels
                if key in labels:
                    labels.remove(key)
        if owner.kind == sectioning.XREF:
            self.problem(
                pos,
                "warning",
                "label-before-caption",
                f"label {key!r} stands before its float's caption: with the caption package "
                "LaTeX writes no number for it, and \\ref prints ??",
            )
        self.out.labels[key] = owner
        self.out.label_positions[key] = pos
        self.labels_recorded += 1
        if owner.kind == "result" and owner.result is not None:
            self.out.results[owner.result].labels.append(key)

    def enclosing_result(self) -> int | None:
        return self._enclosing("result")

    def enclosing_proof(self) -> int | None:
        return self._enclosing("proof")

    def _enclosing(self, kind: str) -> int | None:
        walked: list[Frame] = []
        value: int | None = None
        for frame in reversed(self.frames):
            own = frame.result if kind == "result" else frame.proof
            if own is not None or kind in frame.enclosing:
                value = own if own is not None else frame.enclosing[kind]
                break
            walked.append(frame)
        for frame in walked:
            frame.enclosing[kind] = value
        return value

    # -- environments -------------------------------------------------------------------

    def short_argument(
        self, text: str, m: re.Match[str], pos: int | None = None
    ) -> tuple[str | None, int]:
        """The argument at `pos` (else right after `m`) of `\\begin`, `\\end` or `\\label`, and
        where the walk goes on.

        None of them is `\\long` (latex.ltx: `\\DeclareRobustCommand*\\begin[1]`,
        `\\def\\label#1`), so an argument missing its `}` ends at the paragraph's end, where
        LaTeX stops with "Paragraph ended before \\begin was complete" (or at the end of the
        document: "File ended while scanning use of \\begin"). That is an error here too, and
        the walk goes on after it as LaTeX does, instead of reading the rest of the paper as
        one environment name or label."""
        at = m.end() if pos is None else pos
        simple = _SIMPLE_ARGUMENT.match(text, at)
        if simple is not None:  # most arguments: `{name}` on one line, the answer below too
            return simple.group(1).strip(), simple.end()
        span = texscan.read_group_span(text, at)
        if span is None:
            return None, at
        start, stop, after = span
        if text is not self.text or text[start - 1 : start] != "{":
            return text[start:stop].strip(), after
        command = "\\" + m.group(1)
        runaway = _PARAGRAPH.search(text, start, stop)
        if runaway is not None:
            stops, goes_on = f"Paragraph ended before {command} was complete", runaway.start()
        elif stop >= len(text):
            stops, goes_on = f"File ended while scanning use of {command}", len(text)
        else:
            return text[start:stop].strip(), after
        head = text[start:goes_on].strip().split("\n")[0][:40]
        self.problem(
            self.at(m.start()),
            "error",
            "runaway-argument",
            f'{command}{{{head} is missing its closing brace: LaTeX stops ("{stops}")',
        )
        return None, goes_on

    def begin(self, text: str, m: re.Match[str]) -> int:
        name, pos = self.short_argument(text, m)
        if name is None:
            return pos
        if name == "document":
            hooks = sorted(self.document_hooks, key=lambda hook: hook[0])
            self.document_hooks = []
            for when, code, at in hooks:
                if when == 0:  # `\\AtEndPreamble`: before the document starts
                    self.expand_snippet(code, at, at)
            self.in_document = True
            decl.apply_begin_document(self.reg)
            for when, code, at in hooks:
                if when > 0:
                    self.expand_snippet(code, at, at)
            return pos
        if not self.in_document:
            return pos
        for family in envfamilies.FAMILIES:
            went_on = family.begin(self, text, m.start(), pos, name)
            if went_on is not None:
                return went_on
        return pos

    def end(self, text: str, m: re.Match[str]) -> int:
        name, pos = self.short_argument(text, m)
        if name is None:
            return pos
        if not self.in_document or name == "document":
            return pos
        index = self._innermost_frame(name)
        if index is None:
            return pos
        for frame in reversed(self.frames[index:]):
            self._close(frame, self.at(m.start(), body=False), self.at(pos))
        del self.frames[index:]
        return pos

    def _innermost_frame(self, name: str) -> int | None:
        """The index of the innermost open frame named `name` (None: none is open)."""
        frames = self.frames
        for index in range(len(frames) - 1, -1, -1):
            if frames[index].name == name:
                return index
        return None

    def _close(self, frame: Frame, body_end: int, end: int) -> None:
        self.current = frame.saved
        if frame.end_code is not None:
            self.expand_snippet(frame.end_code, body_end, end)
        the = self.reg.counters.the
        for counter, template in (frame.restore_the or {}).items():
            if template is None:
                the.pop(counter, None)
            else:
                the[counter] = template
        if frame.result is not None:
            result = self.out.results[frame.result]
            result.body_end, result.end = body_end, end
        if frame.proof is not None:
            proof = self.out.proofs[frame.proof]
            proof.body_end, proof.end = body_end, end
        closer = envfamilies.CLOSERS.get(frame.family)
        if closer is not None:
            closer(self, frame)

    def begin_theorem(
        self,
        text: str,
        start: int,
        pos: int,
        env: str,
        *,
        note: str | None = None,
        frame_name: str | None = None,
    ) -> int:
        spec = self.reg.envs[env]
        tcb_label = None
        if env in self.tcb_prefixes:
            args, pos = texscan.read_args(text, pos, "{{")
            note, tcb_label = args[0], (args[1] or "").strip()
        elif note is None:
            optional = texscan.read_optional(text, pos)
            if optional is not None:
                note, pos = optional
        keys = _thmtools_keys(note) if note and "thmtools" in self.reg.packages else {}
        if keys:
            note = keys.get("name") or keys.get("note")
        number: str | None = None
        hidden: str | None = None  # ntheorem's unnumbered theorem: stepped, not printed
        if spec.counter:
            self.reg.counters.step(spec.counter)
            number = self.reg.counters.render(spec.the_key)
            if not spec.numbered:
                number, hidden = None, number
        title = self.reg.counters.expand(spec.title, 0).strip() or spec.title
        if "\\" in spec.title and not re.search(r"\\(?:the|ref|arabic|roman|alph)", spec.title):
            title = plaintext.latex_to_text(spec.title) or title  # `Th\\'eor\\`eme` → Théorème
        result = RawResult(
            env=env,
            title=title,
            number=number,
            note=note,
            begin=self.at(start),
            body_start=self.at(pos, body=True),
            parent=self.enclosing_result(),
            in_proof=self.enclosing_proof(),
        )
        self.out.results.append(result)
        index = len(self.out.results) - 1
        frame = Frame(frame_name or env, result.begin, self.current, result=index)
        self.frames.append(frame)
        if number is not None or hidden is not None:
            self.current = Owner(number or hidden or "", "result", index)
        elif "thmtools" in self.reg.packages:
            self.current = Owner("", "result", index)
        else:
            self.current = Owner(self.current.number, "result", index)
        if tcb_label:
            prefix = self.tcb_prefixes[env]
            self.record_label(
                f"{prefix}:{tcb_label}" if prefix else tcb_label, self.current, result.begin
            )
        if keys.get("label"):
            self.record_label(keys["label"].strip(), self.current, result.begin)
        for label in _NOTE_LABEL.finditer(note) if note and "\\label" in note else ():
            self.record_label(label.group(1).strip(), self.current, result.begin)
        return pos

    def begin_proof(self, text: str, start: int, pos: int, name: str) -> int:
        note = None
        wrapper = self.wrappers.get(name)
        optional = texscan.read_optional(text, pos)
        if optional is not None:
            note, pos = optional
        elif (wrapper is not None and wrapper.arity >= 1 and wrapper.default is None) or (
            wrapper is None and text.startswith("{", pos) and _NAMING_PROOF.match(name)
        ):
            group = texscan.read_group(text, pos)
            if group is not None:
                note, pos = group
        proof = RawProof(
            env=name, note=note, begin=self.at(start), body_start=self.at(pos, body=True)
        )
        self.out.proofs.append(proof)
        self.frames.append(Frame(name, proof.begin, self.current, proof=len(self.out.proofs) - 1))
        return pos

    def begin_wrapper(self, text: str, start: int, pos: int, wrapper: macros.EnvDefinition) -> int:
        if self.is_proof_name(wrapper.name) and not _EXPANDS.search(wrapper.begin):
            return self.begin_proof(text, start, pos, wrapper.name)
        call = expansion.read_call(text, pos, wrapper.params)
        args = call[0] if call is not None else []
        pos = call[1] if call is not None else pos
        saved = self.current
        end_code = expansion.substitute(wrapper.end, args, self.map)[0]
        frame = Frame(wrapper.name, self.at(start), saved, end_code=end_code)
        self.frames.append(frame)
        before = len(self.frames)
        begin_code, pieces = expansion.substitute(wrapper.begin, args, self.map)
        self.expand_snippet(begin_code, self.at(start), self.at(pos, body=True), pieces)
        inner = self.frames[before:]
        if not inner and self.current is not saved:
            frame.result = self._hand_made_head(wrapper, start, pos, args)
        if inner:
            del self.frames[before:]
            frame.result = next((f.result for f in inner if f.result is not None), None)
            frame.proof = next((f.proof for f in inner if f.proof is not None), None)
            frame.saved = inner[0].saved
            frame.end_code = None
            for own in inner:
                for counter, template in (own.restore_the or {}).items():
                    frame.restore_the = frame.restore_the or {}
                    frame.restore_the.setdefault(counter, template)
        return pos

    def _hand_made_head(
        self, wrapper: macros.EnvDefinition, start: int, pos: int, args: list[expansion.Arg]
    ) -> int | None:
        """`\\newenvironment{theorem}{\\refstepcounter{thm}\\textbf{Theorem \\thethm}}{}`:
        a theorem-like name that steps a counter prints a numbered head of its own."""
        title = wrapper.name[:1].upper() + wrapper.name[1:]
        if decl.kind_of(wrapper.name, title) == "other" or not _STEPS.search(wrapper.begin):
            return None
        note = args[0].text if wrapper.default is not None and args and args[0].text else None
        result = RawResult(
            env=wrapper.name,
            title=title,
            number=self.current.number,
            note=note,
            begin=self.at(start),
            body_start=self.at(pos, body=True),
            parent=self.enclosing_result(),
            in_proof=self.enclosing_proof(),
        )
        self.out.results.append(result)
        index = len(self.out.results) - 1
        self.current = Owner(self.current.number, "result", index)
        return index

    def equation(self, text: str, start: int, pos: int, name: str) -> int:
        close = text.find("\\end{" + name + "}", pos)
        if close < 0 and self.map is not None and self.depth == 1:
            # `\\def\\beq{\\begin{equation}}`: the body and its end are in the document.
            self._equation_from_macro(start, name)
            return len(text)
        body_end = close if close >= 0 else len(text)
        end = body_end + len(name) + 6 if close >= 0 else body_end
        owner_result = self.enclosing_result()
        rows = equations.number_rows(
            name,
            self._math_body(text[pos:body_end]),
            self.reg.counters,
            self.expanders | self.row_macros,
            self.pending_labels,
            self.referenced(),
        )
        self._record_rows(rows, owner_result, self.at(start), carry=self._carries(name))
        if close < 0:
            self.problem(
                self.at(start),
                "error",
                "unterminated-environment",
                f"\\begin{{{name}}} is never closed",
            )
        return end

    def _equation_from_macro(self, start: int, name: str) -> None:
        assert self.map is not None
        # the display ends at its `\\end`, at a macro that writes it (`\\eeq`), or at the
        # `\\end` of an environment whose end code writes it (`\\end{diagram}`)
        closing = f"\\end{{{name}}}"
        enders = [m for m, body in self.expanders.items() if closing in body]
        pattern = re.escape(closing) + "".join(f"|\\\\{m}(?![A-Za-z@])" for m in enders)
        pattern += "".join(
            "|" + re.escape(f"\\end{{{env}}}")
            for env, wrapper in self.wrappers.items()
            if closing in wrapper.end
        )
        body_start = self.map.after
        close = re.compile(pattern).search(self.text, body_start)
        body_end = close.start() if close else len(self.text)
        rows = equations.number_rows(
            name,
            self._math_body(self.text[body_start:body_end]),
            self.reg.counters,
            self.expanders | self.row_macros,
            self.pending_labels,
            self.referenced(),
        )
        self._record_rows(rows, self.enclosing_result(), start, carry=self._carries(name))
        self.resume_at = close.end() if close else len(self.text)

    def _record_rows(
        self, rows: list[tuple[str | None, list[str]]], result: int | None, at: int, *, carry: bool
    ) -> None:
        # amsmath's align family keeps a label of an unnumbered row (`\\df@label`) for the next
        # numbered row, even in a later display; `equation*` and `\\[` write the current label.
        self.pending_labels = []
        for number, labels in rows:
            if number is None and carry:
                self.pending_labels = labels
                continue
            if number is None:
                for key in labels:
                    self.record_label(key, self.current, at)
                continue
            for key in labels:
                self.record_label(key, Owner(number, "equation", result), at)

    def _carries(self, name: str) -> bool:
        """Whether a label of an unnumbered row waits for the next numbered row (amsmath's
        align family); under only-referenced numbering it writes the current number."""
        referenced = self.referenced()
        if referenced is not None and name in referenced.envs:
            return False
        return name.rstrip("*") in equations.MULTI

    def _math_body(self, body: str) -> str:
        # A user environment used inside a display may end its row (`\\nonumber` in its code).
        for name, wrapper in self.wrappers.items():
            if wrapper.arity == 0 and equations.affects_numbering(wrapper.begin + wrapper.end):
                body = body.replace(f"\\begin{{{name}}}", f"\\begin{{{name}}}{wrapper.begin}")
                body = body.replace(f"\\end{{{name}}}", f"\\end{{{name}}}{wrapper.end}")
        return self._expand_in_math(body)

    def _expand_in_math(self, body: str) -> str:
        """A display's body is read as a string, not walked: the paper's macros that take
        arguments and write a label or a tag there (`\\eqlabel{x}` of refstyle,
        `\\newcommand\\eql[1]{\\label{eq:#1}}`) are expanded in it, within the same bounds
        (argument-free ones are expanded by `equations.expand_macros`)."""
        table = self.expander.table
        if "\\" not in body or not table:
            return body
        writers = self._math_writers()
        if texscan.calls_none(body, writers):
            return body
        out: list[str] = []
        pos = 0
        for match in _MATH_CALL.finditer(body):
            name = match.group(1)
            found = table.get(name)
            if match.start() < pos or found is None or not found.params:
                continue
            if not _MATH_EFFECT.search(found.body) or self.expander.refuse(name) is not None:
                continue
            call = expansion.read_call(body, match.end(), found.params)
            if call is None:
                continue
            expanded = expansion.substitute(found.body, call[0], None)[0]
            if self.expander.refuse(name, len(expanded)) is not None:
                break
            self.expander.spend(len(expanded))
            out += [body[pos : match.start()], expanded]
            pos = call[1]
        out.append(body[pos:])
        return "".join(out)

    def _math_writers(self) -> set[str]:
        """The macros `_expand_in_math` expands: those that take arguments and label, tag or
        step a counter by their body (`_MATH_EFFECT`). Brought up to date with the macros
        defined or forgotten since it was last asked, so each definition is read once."""
        expander = self.expander
        for name in expander.changed:
            found = expander.table.get(name)
            if found is not None and found.params and _MATH_EFFECT.search(found.body):
                self._writers.add(name)
            else:
                self._writers.discard(name)
        expander.changed.clear()
        return self._writers

    def display_math(self, text: str, m: re.Match[str]) -> int:
        if m.group(0) != "\\[" or not self.in_document:
            return m.end()
        close = text.find("\\]", m.end())
        body_end = close if close >= 0 else len(text)
        body = text[m.end() : body_end]
        referenced = self.referenced()
        if referenced is not None and "\\[" in referenced.envs:
            # autonum: `\\[ … \\]` is `\\begin{equation} … \\end{equation}`
            rows = equations.number_rows("\\[", body, self.reg.counters, None, [], referenced)
            self._record_rows(rows, self.enclosing_result(), self.at(m.start()), carry=False)
        elif "\\tag" in body or "\\label" in body:
            rows = equations.number_rows(
                "equation*", body, self.reg.counters, None, self.pending_labels
            )
            self._record_rows(rows, self.enclosing_result(), self.at(m.start()), carry=False)
        return body_end + 2 if close >= 0 else body_end


def _special_word(name: str) -> bool:
    """Whether `scan` asks the conditionals and toggles about `name` before its handler: a
    conditional (`\\if…`), a branch word (`\\else`, `\\fi`, …) or a flag's setter (`\\…true`)."""
    return name.startswith("if") or name in _BRANCH_WORDS or name.endswith(_SETTERS)


def _holds(segment: Segment, pos: int) -> bool:
    return segment.flat_start <= pos < segment.flat_start + segment.length


def _thmtools_keys(note: str) -> dict[str, str]:
    if not _THMTOOLS_KEY.match(note):
        return {}
    return texscan.parse_keyvals(note)


_THMTOOLS_KEY = lazyre.pattern(r"^\s*(name|label|continues|restate|note)\s*=")
_NOTE_LABEL = lazyre.pattern(r"\\label\s*\{([^}]*)\}")


_SETTERS = ("true", "false")

from paperlint.preflight.handlers import HANDLERS, assign_register  # noqa: E402  (handlers import Walker's names)

_ACTIVATING = frozenset(HANDLERS) - _PLUMBING
