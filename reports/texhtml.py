"""A paper's statement as safe HTML: its prose as text, its formulas as MathML (`texmath`).

One left-to-right scan reads formulas (`texmath.next_math`: `$…$`, `\\[…\\]`, amsmath's display
environments), commands and paragraph breaks, so a display environment with a blank line inside
stays one formula and a footnote or an item's label keeps the math inside it. The prose keeps
what a reader of the paper sees and drops what only steers TeX:

- styles become markup (`\\emph`, `\\textbf`, and the old declarations `{\\bf …}`, `{\\it …}`);
- font, size, spacing and counter commands print nothing (`\\bf` alone, `\\small`,
  `\\vspace{…}`, `\\refstepcounter{…}`, `\\todo[…]{…}`, the blueprint's `\\label`, `\\uses`);
- lists keep their labels: `\\item[A.]` shows `A.` (its math rendered), and `enumerate`
  numbers its items as LaTeX does (`1.`, `(a)`, `i.`; enumitem's `label=(\\alph*)`);
- references link to the result they name and citations show as `[key]`;
- a command none of the above knows is shown as its TeX source with its arguments
  (`\\Cr{co}`), never guessed, and the text around it is rendered.

Everything the paper writes is escaped; only markup built here reaches the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Final

from paperlint.preflight import texscan
from paperlint.preflight.model import Macro
from paperlint.reports.mathml import UNRENDERED
from paperlint.reports.texmath import (
    PUNCTUATION,
    TexRun,
    argument_end,
    convert_math,
    expand_macros,
    next_math,
)

# `\\ref{label}` -> (href, printed number); None when the label is unknown.
RefResolver = Callable[[str], tuple[str, str] | None]

TEXT_STYLE: Final[Mapping[str, str]] = {
    "emph": "em",
    "textit": "em",
    "textsl": "em",
    "textbf": "strong",
    "textsc": "span",
    "textrm": "span",
    "textsf": "span",
    "texttt": "code",
    "textup": "span",
    "textmd": "span",
    "textnormal": "span",
    "text": "span",
    "mbox": "span",
    "hbox": "span",
    "underline": "span",
}
# Old-style declarations opening a group (`{\\bf x}`): read as the matching text command.
_DECLARATION: Final[Mapping[str, str]] = {
    "bf": "textbf",
    "bfseries": "textbf",
    "it": "textit",
    "itshape": "textit",
    "em": "emph",
    "sl": "textsl",
    "slshape": "textsl",
    "tt": "texttt",
    "ttfamily": "texttt",
    "sc": "textsc",
    "scshape": "textsc",
    "rm": "textrm",
    "rmfamily": "textrm",
    "sf": "textsf",
    "sffamily": "textsf",
    "upshape": "textup",
    "normalfont": "textnormal",
}
_GROUP_DECLARATION = re.compile(
    r"(?<!\\)\{\s*\\("
    + "|".join(sorted(_DECLARATION, key=len, reverse=True))
    + r")(?![A-Za-z@])\s*"
)
# Commands that print nothing here (fonts, sizes, spacing, layout, the blueprint's marks).
_SILENT_WORDS = """
    mdseries tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge centering
    raggedright raggedleft noindent indent par relax xspace protect smallskip medskip bigskip
    newpage clearpage pagebreak linebreak nolinebreak hfill vfill leavevmode nobreak allowbreak
    sloppy maketitle leanok notready mathlibok qed qedhere phantomsection displaystyle
    textstyle unskip ignorespaces
    """
# spacing commands that print a space
SPACES: Final = frozenset(("quad", "qquad", "enskip", "enspace", "thinspace", "space"))
# an author's notes to themselves (todonotes' `\\todo`, and the `\\todoc`-style variants papers
# define around it): never part of the statement, removed before anything else is read
_NOTE = re.compile(r"\\(?:todo[A-Za-z]*|marginpar|marginnote)(?![A-Za-z@])\*?")
SILENT: Final = frozenset(_DECLARATION) | frozenset(_SILENT_WORDS.split())
# Commands dropped with their arguments (texscan.read_args specs).
DROPPED: Final[Mapping[str, str]] = {
    "label": "{",
    "uses": "{",
    "lean": "{",
    "proves": "{",
    "index": "{",
    "discussion": "{",
    "todo": "[{",
    "refstepcounter": "{",
    "stepcounter": "{",
    "setcounter": "{{",
    "addtocounter": "{{",
    "vspace": "*{",
    "hspace": "*{",
    "addvspace": "{",
    "marginpar": "[{",
    "includegraphics": "*[{",
    "color": "[{",
    "thispagestyle": "{",
    "pagestyle": "{",
    "addcontentsline": "{{{",
    "footnotemark": "[",
    "let": "{{",
}
_ACRONYMS = "ac acs acl acf acp acsp aclp acfp Ac Acs Acl Acf Acp gls Gls glspl Glspl"
# Commands whose last argument is text to show (`\\textcolor{red}{x}` shows x).
CONTENT_LAST: Final[Mapping[str, str]] = {
    # acronym's and glossaries' commands print the entry; its key is the short form
    **dict.fromkeys(_ACRONYMS.split(), "[{"),
    "textcolor": "[{{",
    "colorbox": "[{{",
    "caption": "[{",
    "hyperref": "[{",
    "href": "{{",
    "hypertarget": "{{",
    "makebox": "[[{",
    "framebox": "[[{",
    "fbox": "{",
    "footnotetext": "[{",
}
REFS: Final = ("ref", "eqref", "cref", "Cref", "autoref", "pageref", "labelcref", "nameref")
CITES: Final = (
    "cite",
    "citep",
    "citet",
    "citealp",
    "citeauthor",
    "citeyear",
    "parencite",
    "textcite",
)
LISTS: Final = ("itemize", "enumerate", "description")
# enumerate's labels by depth, as LaTeX's article class prints them
_ENUM_DEFAULT: Final = ("\\arabic*.", "(\\alph*)", "\\roman*.", "\\Alph*.")
_COUNTER_STYLE = re.compile(r"\\(arabic|alph|Alph|roman|Roman)\*")
# the enumerate package's short form: `[(a)]`, `[i.]`, `[A)]`: the first of a A i I 1 counts
_SHORT_LABEL = re.compile(r"(?<![A-Za-z\\])([aAiI1])(?![A-Za-z])")
_SHORT_STYLE: Final = {"a": "alph", "A": "Alph", "i": "roman", "I": "Roman", "1": "arabic"}


@dataclass
class _List:
    env: str
    label: str | None = None  # enumerate's label pattern (`(\\alph*)`), None for bullets
    count: int = 0


@dataclass
class _Renderer:
    """One statement's rendering: the open lists carry over from run to run."""

    resolve: RefResolver
    equations: Mapping[str, str]
    lists: list[_List] = field(default_factory=list)

    def math(self, run: TexRun) -> str:
        converted = convert_math(run.text, display=run.display)
        if converted is None:
            fallback = escape(run.text.strip())
            return f'<code class="tex" title="shown as TeX">{fallback}</code>'
        if not run.display:
            return converted.mathml
        number = _equation_number(run.text, self.equations)
        tag = f'<span class="eqno">({escape(number)})</span>' if number else ""
        return f'<span class="display">{converted.mathml}{tag}</span>'

    def text(self, tex: str, *, top: bool = False) -> str:
        """Escaped HTML for TeX text with its formulas; at the `top` level a blank line becomes
        PARAGRAPH, elsewhere (inside a footnote, a label) a space."""
        tex = _GROUP_DECLARATION.sub(lambda m: f"\\{_DECLARATION[m.group(1)]}{{", tex)
        out: list[str] = []
        pos = 0
        math = next_math(tex, 0)
        while pos < len(tex):
            if math is not None and math[0] < pos:
                math = next_math(tex, pos)
            word = texscan.CONTROL_WORD.search(tex, pos)
            brk = _PARAGRAPH.search(tex, pos) if top else None
            starts = [m.start() if m else len(tex) for m in (word, brk)]
            start = min([math[0] if math else len(tex), *starts])
            out.append(_text(tex[pos:start]))
            if start == len(tex):
                break
            if math is not None and math[0] == start:
                out.append(self.math(math[2]))
                pos = math[1]
            elif brk is not None and brk.start() == start:
                out.append(PARAGRAPH)
                pos = brk.end()
            else:
                assert word is not None
                html, pos = self.command(tex, word)
                out.append(html)
        return "".join(out)

    def command(self, tex: str, match: re.Match[str]) -> tuple[str, int]:
        """The HTML for the command at `match`, and where the text resumes."""
        name, pos = match.group(1), match.end()
        bare = name.rstrip("*")
        if bare in SILENT:
            return "", pos
        if bare in SPACES:
            return " ", pos
        if bare in DROPPED:
            return "", texscan.read_args(tex, pos, DROPPED[bare])[1]
        if bare in TEXT_STYLE:
            group = texscan.read_group(tex, pos)
            if group is None:
                return "", pos
            tag = TEXT_STYLE[bare]
            return f"<{tag}>{self.text(group[0])}</{tag}>", group[1]
        if bare in CONTENT_LAST:
            args, end = texscan.read_args(tex, pos, CONTENT_LAST[bare])
            return self.text(args[-1] or ""), end
        if bare in ("footnote", "ensuremath", "url"):
            return self._special(bare, tex, pos)
        if bare in REFS:
            group = texscan.read_group(tex, pos)
            return (_refs(group[0], bare, self.resolve), group[1]) if group else ("", pos)
        if bare in CITES:
            return _cite(tex, pos)
        if bare == "item":
            return self.item(tex, pos)
        if bare in ("begin", "end"):
            return self.environment(bare, tex, pos)
        if bare == "\\":
            return "<br>", pos
        if len(name) == 1 and not name.isalpha():
            return escape(name if name not in ",;:!" else " "), pos
        end = argument_end(tex, pos)  # an unknown command: shown with its arguments
        source = escape(" ".join(tex[match.start() : end].split()))
        return f'<code class="tex-macro" title="{UNRENDERED}">{source}</code>', end

    def _special(self, name: str, tex: str, pos: int) -> tuple[str, int]:
        args, end = texscan.read_args(tex, pos, "[{" if name == "footnote" else "{")
        body = args[-1] or ""
        if name == "footnote":
            note = self.text(body).strip()
            return (f'<span class="footnote">({note})</span>' if note else ""), end
        if name == "ensuremath":
            return self.math(TexRun(body, math=True)), end
        return f"<code>{escape(body)}</code>", end

    def item(self, tex: str, pos: int) -> tuple[str, int]:
        opt = texscan.read_optional(tex, pos, newline=False)
        if opt is not None:
            label, pos = self.text(opt[0]), opt[1]
        else:
            label = self.next_label()
        return f'<br><span class="item">{label}</span> ', pos

    def next_label(self) -> str:
        current = self.lists[-1] if self.lists else None
        if current is None or current.label is None:
            return "•"
        current.count += 1
        return escape(_counter_label(current.label, current.count))

    def environment(self, which: str, tex: str, pos: int) -> tuple[str, int]:
        group = texscan.read_group(tex, pos)
        if group is None:
            return "", pos
        env, pos = group[0].strip(), group[1]
        if which == "end":
            if env in LISTS and self.lists and self.lists[-1].env == env:
                self.lists.pop()
            return "", pos
        opt = texscan.read_optional(tex, pos, newline=False) if env in LISTS else None
        pos = opt[1] if opt is not None else pos
        if env in LISTS:
            self.lists.append(_List(env, self._enum_label(env, opt[0] if opt else None)))
        return "", pos

    def _enum_label(self, env: str, option: str | None) -> str | None:
        if env != "enumerate":
            return None
        depth = sum(1 for entry in self.lists if entry.env == "enumerate")
        if option:
            keys = texscan.parse_keyvals(option)
            if "label" in keys:
                return keys["label"]
            if "=" not in option and _SHORT_LABEL.search(option):
                return _SHORT_LABEL.sub(lambda m: f"\\{_SHORT_STYLE[m.group(1)]}*", option, count=1)
        return _ENUM_DEFAULT[min(depth, len(_ENUM_DEFAULT) - 1)]


def _counter_label(pattern: str, count: int) -> str:
    """`(\\alph*)` for the 3rd item -> `(c)`; other TeX in the pattern is dropped."""
    text = _COUNTER_STYLE.sub(lambda m: _format_counter(m.group(1), count), pattern)
    text = re.sub(r"\\[A-Za-z@]+\*?", "", text)
    return text.replace("{", "").replace("}", "").strip()


def _format_counter(style: str, count: int) -> str:
    if style in ("alph", "Alph"):
        letter = chr(ord("a") + (count - 1) % 26)
        return letter.upper() if style == "Alph" else letter
    if style in ("roman", "Roman"):
        return roman(count).upper() if style == "Roman" else roman(count)
    return str(count)


def roman(n: int) -> str:
    numerals = (
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    )
    out = []
    for value, numeral in numerals:
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


def _text(text: str) -> str:
    text = re.sub(r"(?<!\\)%[^\n]*", "", text)
    for tex, char in PUNCTUATION:
        text = text.replace(tex, char)
    text = text.replace("~", "\u00a0")
    text = re.sub(r"(?<!\\)[{}]", "", text)
    return escape(text, quote=False)


def _cite(tex: str, pos: int) -> tuple[str, int]:
    args, pos = texscan.read_args(tex, pos, "[[{")
    note = args[1] if args[1] is not None else args[0]
    keys = escape(", ".join(k.strip() for k in (args[2] or "").split(",")))
    return f'<span class="cite">[{keys}{", " + _text(note) if note else ""}]</span>', pos


def _refs(labels: str, command: str, resolve: RefResolver) -> str:
    parts = []
    for label in (part.strip() for part in labels.split(",")):
        target = resolve(label)
        if target is None:
            parts.append(
                f'<span class="unresolved" title="undefined reference">??{escape(label)}</span>'
            )
            continue
        href, number = target
        shown = f"({number})" if command == "eqref" else number
        parts.append(f'<a href="{escape(href)}">{escape(shown)}</a>')
    return ", ".join(parts)


def _equation_number(tex: str, equations: Mapping[str, str]) -> str | None:
    for label in re.findall(r"\\label\s*\{([^{}]*)\}", tex):
        if label.strip() in equations:
            return equations[label.strip()]
    return None


_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
# Between paragraphs in `_Renderer.text`'s output; escaped paper text cannot contain a `<`.
PARAGRAPH: Final = "<paragraph>"


def drop_notes(tex: str) -> str:
    """`tex` without the author's notes (`\\todo[inline]{…}`), whatever math they hold."""
    return _drop(tex, _NOTE, lambda _name: "[{")


# Commands that steer TeX's counters and print nothing (for TeX text: the blueprint export).
COUNTERS: Final = ("refstepcounter", "stepcounter", "setcounter", "addtocounter")
_COUNTER = re.compile(r"\\(" + "|".join(COUNTERS) + r")(?![A-Za-z@])")


def drop_counters_and_notes(tex: str) -> str:
    """`tex` without notes and counter commands, for a TeX interpreter (plasTeX): they would
    otherwise lose their backslash there and print as words."""
    return _drop(drop_notes(tex), _COUNTER, lambda name: DROPPED[name])


def _drop(tex: str, pattern: re.Pattern[str], spec: Callable[[str], str]) -> str:
    out: list[str] = []
    pos = 0
    for match in pattern.finditer(tex):
        if match.start() < pos:
            continue
        out.append(tex[pos : match.start()])
        name = match.group(1) if match.groups() else ""
        pos = texscan.read_args(tex, match.end(), spec(name))[1]
    out.append(tex[pos:])
    return "".join(out)


_LIST_TOKEN = re.compile(r"\\(begin|end)\s*\{(itemize|enumerate|description)\}|\\item\s*\[")


def labelled_lists(tex: str) -> str:
    """Each `itemize`/`enumerate` whose items carry their own labels (`\\item[A.]`) made a
    `description`, the list plasTeX prints labels for (it drops them from the other two)."""
    opened: list[tuple[re.Match[str], bool]] = []  # each open list's \begin, and if labelled
    edits: list[tuple[int, int, str]] = []
    for match in _LIST_TOKEN.finditer(tex):
        if match.group(1) == "begin":
            opened.append((match, False))
        elif match.group(1) == "end" and opened and opened[-1][0].group(2) == match.group(2):
            begin, labelled = opened.pop()
            if labelled and match.group(2) != "description":
                edits.append((begin.start(), begin.end(), "\\begin{description}"))
                edits.append((match.start(), match.end(), "\\end{description}"))
        elif match.group(1) is None and opened:
            opened[-1] = (opened[-1][0], True)
    for start, end, text in sorted(edits, reverse=True):
        tex = tex[:start] + text + tex[end:]
    return tex


def statement_html(
    tex: str,
    *,
    macros: Sequence[Macro] = (),
    resolve: RefResolver = lambda _label: None,
    equations: Mapping[str, str] | None = None,
) -> str:
    """A statement as safe HTML: paragraphs of prose with inline and display MathML."""
    renderer = _Renderer(resolve, equations or {})
    # a paper's own `\\uses`, `\\label` or `\\leanok` (the blueprint's, in expl3) is what
    # the report drops or keeps silent, whatever the paper defines it as
    own = [
        m
        for m in macros
        if m.name.lstrip("\\") not in DROPPED and m.name.lstrip("\\") not in SILENT
    ]
    body = renderer.text(drop_notes(expand_macros(tex, own)), top=True)
    paragraphs = (part.strip() for part in body.split(PARAGRAPH))
    return "\n".join(f"<p>{part}</p>" for part in paragraphs if part)
