"""The document walk: one pass in document order that emulates LaTeX's counters
(docs/latex-notes.md §1-§10) and records results, proofs, labels and macro definitions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from paperlint.preflight import (
    classcode,
    conditionals,
    envfamilies,
    equations,
    macros,
    plaintext,
    references,
    texscan,
)
from paperlint.preflight import declarations as decl
from paperlint.preflight.declarations import Registry
from paperlint.preflight.model import Macro, Severity
from paperlint.preflight.sourcetree import Segment
from paperlint.preflight.walkstate import Frame, Owner, Problem, RawProof, RawResult, WalkOutput

_CS = re.compile(r"\\(?:([A-Za-z@]+)(\*?)|(\[)|.)", re.S)
_SECTIONS = (
    "part",
    "chapter",
    "section",
    "subsection",
    "subsubsection",
    "paragraph",
    "subparagraph",
)
_EXPANDS = re.compile(
    r"\\(?:begin|end|refstepcounter|stepcounter|setcounter|appendix|section|chapter)\b"
)
_STEPS = re.compile(r"\\refstepcounter\s*\{")
_PROOF_ENV = re.compile(
    r"^(?!prooftree|proofrule|proofbox|prooflist)"
    r"(?:[A-Za-z]*proof[A-Za-z]*|pf|prf|demo|demostracion|preuve|beweis)\*?$",
    re.I,
)
# proof environments whose mandatory argument names the result: `\begin{proofof}{thm:x}`
_NAMING_PROOF = re.compile(r"^(?:proofof|proofof[A-Za-z]+|[A-Za-z]*proofof)\*?$", re.I)
_BRANCH_WORDS = ("else", "fi", "repeat", "newif")
Handler = Callable[["Walker", str, re.Match[str]], int]


class Walker:
    """Walk the flat text once; `run` returns everything the inventory needs."""

    def __init__(self, text: str, segments: Sequence[Segment] = ()) -> None:
        self.text = text
        self.segments = tuple(segments)
        # `\\AtEndOfClass`/`\\AtEndOfPackage` code, run where its file's inlined text ends
        self.deferred: list[tuple[int, str]] = []
        self.out = WalkOutput(registry=Registry())
        self.reg = self.out.registry
        self.in_document = False
        self.current = Owner("")
        self.frames: list[Frame] = []
        self.wrappers: dict[str, macros.EnvDefinition] = {}
        self.expanders: dict[str, str] = {}
        self.row_macros: dict[str, str] = {}
        self.pending_labels: list[str] = []
        self.resume_at = 0
        self.proof_envs: set[str] = {"proof", "IEEEproof"}
        self.tcb_prefixes: dict[str, str] = {}
        self.main_matter = True
        self.toggles = conditionals.Toggles()
        self.restaters: dict[str, int] = {}
        self.anchor: tuple[int, int] | None = None
        self.depth = 0
        self.enum_depth = 0
        self.appendix_active = False
        self.options = classcode.OptionState()
        self.saved_the: dict[str, str] = {}
        self.theorem_style = ""
        self.class_loaded = False
        self.declarers: dict[str, Macro] = {}
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
            if (name.startswith("if") and handler is None) or name in _BRANCH_WORDS:
                pos = self._conditional(text, match, name)
            elif name.endswith(("true", "false")) and self.toggles.assign(name):
                pos = match.end()
            elif handler is not None:
                notes = len(self.reg.notes)
                pos = max(handler(self, text, match), match.end())
                for code, message in self.reg.notes[notes:]:
                    self.problem(self.at(match.start()), "warning", code, message)
            elif name in self.restaters and self.in_document:
                pos = self._restatement(text, match)
            elif name in self.declarers and self.depth < 8:
                self.depth += 1
                pos = max(expand_declarer(self, text, match, self.declarers[name]), match.end())
                self.depth -= 1
            elif name in self.expanders and self.in_document and self.depth < 8:
                self.resume_at = match.end()
                self.expand_snippet(self.expanders[name], match.start(), match.end())
                pos = max(match.end(), self.resume_at)
            else:
                pos = match.end()

    def _conditional(self, text: str, m: re.Match[str], name: str) -> int:
        toggles = self.toggles
        if name in ("fi", "repeat"):
            if toggles.stack:
                toggles.stack.pop()
            return m.end()
        if name == "else":
            if toggles.stack and toggles.stack[-1] == "true":
                toggles.stack.pop()
                return conditionals.skip_branch(text, m.end(), stop_at_else=False)[0]
            return m.end()
        if name[2:] in toggles.flags or name == "iftrue":
            return self._branch(text, m.end(), name == "iftrue" or toggles.flags[name[2:]])
        if name == "newif":
            return self._newif(text, m)
        if name == "ifx":
            value, end = classcode.ifx(self, text, m.end())
            if value is not None:
                return self._branch(text, end, value)
        if conditionals.is_conditional(name):
            toggles.stack.append("unknown")
        return m.end()

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

    def _branch(self, text: str, pos: int, value: bool) -> int:
        """A conditional whose value is known: read on in the true branch, else skip to its
        `\\else` or `\\fi`."""
        if value:
            self.toggles.stack.append("true")
            return pos
        end, at_else = conditionals.skip_branch(text, pos, stop_at_else=True)
        if at_else:
            self.toggles.stack.append("else")
        return end

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

    def _newif(self, text: str, m: re.Match[str]) -> int:
        match = re.compile(r"\s*\\if([A-Za-z@]+)").match(text, m.end())
        if match is None:
            return m.end()
        self.toggles.declare(match.group(1))
        return match.end()

    def expand_snippet(self, snippet: str, begin: int, after: int) -> None:
        saved = self.anchor
        self.anchor = (begin, after) if saved is None else saved
        self.depth += 1
        self.scan(snippet, 0, len(snippet))
        self.depth -= 1
        self.anchor = saved

    @staticmethod
    def is_proof_name(name: str) -> bool:
        return _PROOF_ENV.match(name) is not None

    def at(self, pos: int, *, body: bool = False) -> int:
        if self.anchor is None:
            return pos
        return self.anchor[1] if body else self.anchor[0]

    def problem(self, pos: int | None, severity: Severity, code: str, message: str) -> None:
        self.out.problems.append(Problem(pos, severity, code, message))

    # -- labels -------------------------------------------------------------------------

    def label(self, text: str, m: re.Match[str]) -> int:
        optional = texscan.read_optional(text, m.end(), newline=False)
        pos = optional[1] if optional else m.end()
        group = texscan.read_group(text, pos)
        if group is None or not self.in_document:
            return pos
        key = group[0].strip()
        self.record_label(key, self.current, self.at(m.start()))
        return group[1]

    def record_label(self, key: str, owner: Owner, pos: int) -> None:
        if key in self.out.labels:
            self.problem(pos, "warning", "duplicate-label", f"label {key!r} defined again")
        self.out.labels[key] = owner
        self.out.label_positions[key] = pos
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

    def begin(self, text: str, m: re.Match[str]) -> int:
        group = texscan.read_group(text, m.end())
        if group is None:
            return m.end()
        name, pos = group[0].strip(), group[1]
        if name == "document":
            self.in_document = True
            decl.apply_begin_document(self.reg)
            return pos
        if not self.in_document:
            return pos
        for family in envfamilies.FAMILIES:
            went_on = family.begin(self, text, m.start(), pos, name)
            if went_on is not None:
                return went_on
        return pos

    def end(self, text: str, m: re.Match[str]) -> int:
        group = texscan.read_group(text, m.end())
        if group is None:
            return m.end()
        name, pos = group[0].strip(), group[1]
        if not self.in_document or name == "document":
            return pos
        index = next(
            (i for i in range(len(self.frames) - 1, -1, -1) if self.frames[i].name == name), None
        )
        if index is None:
            return pos
        for frame in reversed(self.frames[index:]):
            self._close(frame, self.at(m.start(), body=False), self.at(pos))
        del self.frames[index:]
        return pos

    def _close(self, frame: Frame, body_end: int, end: int) -> None:
        self.current = frame.saved
        if frame.end_code is not None:
            self.expand_snippet(frame.end_code, body_end, end)
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
        if spec.numbered and spec.counter:
            self.reg.counters.step(spec.counter)
            number = self.reg.counters.render(spec.the_key)
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
        if number is not None:
            self.current = Owner(number, "result", index)
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
        for label in re.finditer(r"\\label\s*\{([^}]*)\}", note or ""):
            self.record_label(label.group(1).strip(), self.current, result.begin)
        return pos

    def begin_proof(self, text: str, start: int, pos: int, name: str) -> int:
        note = None
        wrapper = self.wrappers.get(name)
        optional = texscan.read_optional(text, pos)
        if optional is not None:
            note, pos = optional
        elif (wrapper is not None and wrapper.arity >= 1 and wrapper.default is None) or (
            wrapper is None and _NAMING_PROOF.match(name) and text.startswith("{", pos)
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
        args: list[str] = []
        count = wrapper.arity
        if wrapper.default is not None:
            optional = texscan.read_optional(text, pos)
            args.append(optional[0] if optional else wrapper.default)
            pos = optional[1] if optional else pos
            count -= 1
        for _ in range(max(count, 0)):
            group = texscan.read_group(text, pos)
            if group is None:
                break
            args.append(group[0])
            pos = group[1]
        before, saved = len(self.frames), self.current
        self.expand_snippet(
            macros.substitute(wrapper.begin, args), self.at(start), self.at(pos, body=True)
        )
        inner = self.frames[before:]
        frame = Frame(
            wrapper.name, self.at(start), saved, end_code=macros.substitute(wrapper.end, args)
        )
        if not inner and self.current is not saved:
            frame.result = self._hand_made_head(wrapper, start, pos, args)
        if inner:
            del self.frames[before:]
            frame.result = next((f.result for f in inner if f.result is not None), None)
            frame.proof = next((f.proof for f in inner if f.proof is not None), None)
            frame.saved = inner[0].saved
            frame.end_code = None
        self.frames.append(frame)
        return pos

    def _hand_made_head(
        self, wrapper: macros.EnvDefinition, start: int, pos: int, args: list[str]
    ) -> int | None:
        """`\\newenvironment{theorem}{\\refstepcounter{thm}\\textbf{Theorem \\thethm}}{}`:
        a theorem-like name that steps a counter prints a numbered head of its own."""
        title = wrapper.name[:1].upper() + wrapper.name[1:]
        if decl.kind_of(wrapper.name, title) == "other" or not _STEPS.search(wrapper.begin):
            return None
        note = args[0] if wrapper.default is not None and args and args[0] else None
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
        if close < 0 and self.anchor is not None and self.depth == 1:
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
        assert self.anchor is not None
        enders = [m for m, body in self.expanders.items() if f"\\end{{{name}}}" in body]
        pattern = re.escape(f"\\end{{{name}}}") + "".join(f"|\\\\{m}(?![A-Za-z@])" for m in enders)
        body_start = self.anchor[1]
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
        return body

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


def _holds(segment: Segment, pos: int) -> bool:
    return segment.flat_start <= pos < segment.flat_start + segment.length


def _thmtools_keys(note: str) -> dict[str, str]:
    if not re.match(r"^\s*(name|label|continues|restate|note)\s*=", note):
        return {}
    return texscan.parse_keyvals(note)


from paperlint.preflight.handlers import HANDLERS, expand_declarer  # noqa: E402  (handlers import Walker's names)
