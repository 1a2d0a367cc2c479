"""A paper's statement as HTML: prose kept as text, math as MathML (no script, no network).

Chromium, Firefox and Safari render MathML natively, so the report needs no MathJax and keeps
its Content-Security-Policy with no script at all. The steps are pure string functions:

1. `expand_macros`: the paper's own `\\newcommand`s (from the inventory) are expanded first, so
   `$\\mean(a,b)$` reaches the converter as `m(a,b)`.
2. `split_math`: cut the text into prose and math runs (`$…$`, `\\(…\\)`, `$$…$$`, `\\[…\\]`,
   the display environments of amsmath).
3. math runs go through `latex2mathml`; prose keeps `\\emph`, `\\textbf`, references and
   citations, drops the blueprint's bookkeeping macros (`\\label`, `\\uses`, `\\lean`, …).

The paper is untrusted and the converter passes some input through (`\\text{<b>}` stays markup,
`\\href` becomes an attribute), so its output is parsed and rebuilt from an allowlist of MathML
elements and attributes; anything else, or a formula that fails to convert, is shown as its
escaped TeX source instead. Nothing the paper writes reaches the page as markup.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from paperlint.preflight import texscan
from paperlint.preflight.macros import substitute
from paperlint.preflight.model import Macro

MAX_EXPANDED = 20_000  # characters: a macro bomb stops growing here
MAX_PASSES = 30
MATHML_NS = "http://www.w3.org/1998/Math/MathML"

ELEMENTS = frozenset(
    (
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "msup",
        "msub",
        "msubsup",
        "mfrac",
        "msqrt",
        "mroot",
        "mover",
        "munder",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "mstyle",
        "mpadded",
        "mphantom",
        "menclose",
        "merror",
        "mfenced",
        "semantics",
        "mmultiscripts",
        "mprescripts",
        "none",
        "mlabeledtr",
    )
)
ATTRIBUTES = frozenset(
    (
        "display",
        "mathvariant",
        "stretchy",
        "fence",
        "form",
        "separator",
        "lspace",
        "rspace",
        "accent",
        "accentunder",
        "displaystyle",
        "scriptlevel",
        "rowspacing",
        "columnspacing",
        "columnalign",
        "rowalign",
        "columnlines",
        "rowlines",
        "frame",
        "width",
        "height",
        "depth",
        "linethickness",
        "notation",
        "open",
        "close",
        "separators",
        "largeop",
        "movablelimits",
        "symmetric",
        "minsize",
        "maxsize",
        "linebreak",
    )
)
_SAFE_VALUE = re.compile(r"[A-Za-z0-9 .\-%#]*")

# Blueprint and bookkeeping macros with one argument: they print nothing.
_SILENT_ARG = ("label", "uses", "lean", "proves", "index", "discussion")
_SILENT = ("leanok", "notready", "mathlibok", "noindent", "maketitle", "centering")
_DISPLAY_ENVS = (
    "equation",
    "equation*",
    "align",
    "align*",
    "gather",
    "gather*",
    "multline",
    "multline*",
    "eqnarray",
    "eqnarray*",
    "displaymath",
    "flalign",
    "flalign*",
)


@dataclass(frozen=True)
class TexRun:
    """One piece of a statement: prose, or math with its display mode."""

    text: str
    math: bool = False
    display: bool = False


def expand_macros(tex: str, macros: Sequence[Macro]) -> str:
    """Expand the paper's macros until none is left (bounded: a bomb is cut, not followed)."""
    table = {m.name: m for m in macros if m.name.startswith("\\") and len(m.name) > 1}
    if not table:
        return tex
    pattern = re.compile(r"\\([A-Za-z@]+|[^A-Za-z@\s])")
    for _ in range(MAX_PASSES):
        out: list[str] = []
        pos, changed = 0, False
        for match in pattern.finditer(tex):
            if match.start() < pos:
                continue
            macro = table.get(match.group(0))
            if macro is None:
                continue
            args, end = _read_args(tex, match.end(), macro.arity)
            if args is None:
                continue
            body = substitute(macro.definition, args)
            # `\foo x` must not glue into `\barx`: keep a space after a control word.
            if body and body[-1].isalpha() and end < len(tex) and tex[end].isalpha():
                body += " "
            out += [tex[pos : match.start()], body]
            pos, changed = end, True
        out.append(tex[pos:])
        tex = "".join(out)
        if not changed or len(tex) > MAX_EXPANDED:
            break
    return tex[:MAX_EXPANDED]


def _read_args(tex: str, pos: int, arity: int) -> tuple[list[str] | None, int]:
    args: list[str] = []
    for _ in range(arity):
        group = texscan.read_group(tex, pos)
        if group is None:
            return None, pos
        args.append(group[0])
        pos = group[1]
    return args, pos


_MATH_OPEN = re.compile(
    r"(?<!\\)(\$\$|\$|\\\(|\\\[|\\begin\{("
    + "|".join(re.escape(e) for e in _DISPLAY_ENVS)
    + r")\})"
)


def split_math(tex: str) -> list[TexRun]:
    """Prose and math runs in order; an unclosed delimiter leaves the rest as prose."""
    runs: list[TexRun] = []
    pos = 0
    while True:
        match = _MATH_OPEN.search(tex, pos)
        if match is None:
            break
        opener, env = match.group(1), match.group(2)
        if env:
            closer = f"\\end{{{env}}}"
        else:
            closer = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}[opener]
        end = _find_closer(tex, match.end(), closer)
        if end < 0:
            break
        if match.start() > pos:
            runs.append(TexRun(tex[pos : match.start()]))
        body = tex[match.end() : end]
        if env:
            body = _env_body(env, body)
        runs.append(TexRun(body, math=True, display=opener != "$" and opener != "\\("))
        pos = end + len(closer)
    if pos < len(tex):
        runs.append(TexRun(tex[pos:]))
    return runs


def _find_closer(tex: str, pos: int, closer: str) -> int:
    i = pos
    while True:
        i = tex.find(closer, i)
        if i < 0 or (i == 0 or tex[i - 1] != "\\"):
            return i
        i += 1


def _env_body(env: str, body: str) -> str:
    base = env.rstrip("*")
    if base in ("align", "flalign", "eqnarray"):
        return f"\\begin{{align*}}{body}\\end{{align*}}"
    if base in ("gather", "multline"):
        return body.replace("\\\\", " \\quad ")
    return body


# ----------------------------------------------------------------------------- math


_LABEL = re.compile(r"\\(?:label|tag\*?)\s*\{[^{}]*\}|\\(?:nonumber|notag)\b")
_INNER_ALIGNED = re.compile(r"\\(begin|end)\{(aligned|alignedat|split)\}")


def math_to_mathml(tex: str, *, display: bool) -> str | None:
    """MathML for one formula, or None when it cannot be converted safely."""
    from latex2mathml.converter import convert

    body = _LABEL.sub("", tex)
    body = _INNER_ALIGNED.sub(lambda m: f"\\{m.group(1)}{{align*}}", body).strip()
    if not body:
        return None
    try:
        raw = convert(body, display="block" if display else "inline")
    except Exception:  # the converter raises many kinds on bad TeX; all mean "show the source"
        return None
    if re.search(r"<mi>\\[A-Za-z]", raw):
        return None  # an unknown command was passed through as a name: show the source
    return sanitise_mathml(raw)


def sanitise_mathml(raw: str) -> str | None:
    """Rebuild MathML from the allowlist; None if anything outside it appears."""
    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        return None
    out: list[str] = []
    if not _emit(root, out):
        return None
    return "".join(out)


def _emit(node: ET.Element, out: list[str]) -> bool:
    tag = node.tag.removeprefix(f"{{{MATHML_NS}}}")
    if tag not in ELEMENTS:
        return False
    attrs = []
    for key, value in node.attrib.items():
        if key not in ATTRIBUTES or not _SAFE_VALUE.fullmatch(value):
            return False
        attrs.append(f' {key}="{escape(value)}"')
    if tag == "math":
        attrs.insert(0, f' xmlns="{MATHML_NS}"')
    out.append(f"<{tag}{''.join(attrs)}>")
    out.append(escape(node.text or "", quote=False))
    for child in node:
        if not _emit(child, out):
            return False
        out.append(escape(child.tail or "", quote=False))
    out.append(f"</{tag}>")
    return True


# ----------------------------------------------------------------------------- prose

_TEXT_STYLE = {
    "emph": "em",
    "textit": "em",
    "textsl": "em",
    "textbf": "strong",
    "textsc": "span",
    "textrm": "span",
    "textsf": "span",
    "texttt": "code",
    "textup": "span",
    "textnormal": "span",
    "mbox": "span",
}
_REF = ("ref", "eqref", "cref", "Cref", "autoref", "pageref", "labelcref", "nameref")
_CITE = ("cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "parencite", "textcite")
_COMMAND = re.compile(r"\\([A-Za-z@]+\*?|.)", re.S)
_PUNCT = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"))
# `\\ref{label}` -> (href, printed number); None when the label is unknown.
RefResolver = Callable[[str], tuple[str, str] | None]


def prose_to_html(tex: str, *, resolve: RefResolver) -> str:
    """Escaped HTML for a prose run: styles, references as links, citations as [key]."""
    out: list[str] = []
    pos = 0
    while pos < len(tex):
        match = _COMMAND.search(tex, pos)
        if match is None:
            out.append(_text(tex[pos:]))
            break
        out.append(_text(tex[pos : match.start()]))
        name = match.group(1)
        pos = match.end()
        bare = name.rstrip("*")
        if bare in _SILENT:
            continue
        if bare in _SILENT_ARG:
            group = texscan.read_group(tex, pos)
            pos = group[1] if group else pos
        elif bare in _TEXT_STYLE:
            group = texscan.read_group(tex, pos)
            if group is None:
                continue
            tag = _TEXT_STYLE[bare]
            out.append(f"<{tag}>{prose_to_html(group[0], resolve=resolve)}</{tag}>")
            pos = group[1]
        elif bare in _REF:
            group = texscan.read_group(tex, pos)
            if group is None:
                continue
            out.append(_refs(group[0], bare, resolve))
            pos = group[1]
        elif bare in _CITE:
            args, pos = texscan.read_args(tex, pos, "[[{")
            note = args[1] if args[1] is not None else args[0]
            keys = escape(", ".join(k.strip() for k in (args[2] or "").split(",")))
            out.append(f'<span class="cite">[{keys}{", " + _text(note) if note else ""}]</span>')
        elif bare == "item":
            opt = texscan.read_optional(tex, pos, newline=False)
            label = "•"
            if opt is not None:
                label, pos = _text(opt[0]), opt[1]
            out.append(f'<br><span class="item">{label}</span> ')
        elif bare in ("begin", "end"):
            group = texscan.read_group(tex, pos)
            pos = group[1] if group else pos
        elif bare == "\\":
            out.append("<br>")
        elif len(name) == 1 and not name.isalpha():
            out.append(escape(name if name not in ",;:!" else " "))
        else:
            out.append(_text("\\" + name))  # an unknown command: shown, never guessed
    return "".join(out)


def _text(text: str) -> str:
    text = re.sub(r"(?<!\\)%[^\n]*", "", text)
    for tex, char in _PUNCT:
        text = text.replace(tex, char)
    text = text.replace("~", "\u00a0")
    text = re.sub(r"(?<!\\)[{}]", "", text)
    return escape(text, quote=False)


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


# ----------------------------------------------------------------------------- statements


def statement_html(
    tex: str,
    *,
    macros: Sequence[Macro] = (),
    resolve: RefResolver = lambda _label: None,
    equations: Mapping[str, str] | None = None,
) -> str:
    """A statement as safe HTML: paragraphs of prose with inline and display MathML."""
    tex = expand_macros(tex, macros)
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", tex) if p.strip()]
    html = []
    for paragraph in paragraphs:
        pieces = []
        for run in split_math(paragraph):
            if not run.math:
                pieces.append(prose_to_html(run.text, resolve=resolve))
                continue
            mathml = math_to_mathml(run.text, display=run.display)
            if mathml is None:
                fallback = escape(run.text.strip())
                pieces.append(f'<code class="tex" title="shown as TeX">{fallback}</code>')
            elif run.display:
                number = _equation_number(run.text, equations or {})
                tag = f'<span class="eqno">({escape(number)})</span>' if number else ""
                pieces.append(f'<span class="display">{mathml}{tag}</span>')
            else:
                pieces.append(mathml)
        body = "".join(pieces).strip()
        if body:
            html.append(f"<p>{body}</p>")
    return "\n".join(html)


def _equation_number(tex: str, equations: Mapping[str, str]) -> str | None:
    for label in re.findall(r"\\label\s*\{([^{}]*)\}", tex):
        if label.strip() in equations:
            return equations[label.strip()]
    return None


_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*(?=\{)")
_TITLE_NOISE = re.compile(r"\\(?:thanks|footnote)\s*\{[^{}]*\}|\\\\|\\newline")


def paper_title(source: str, macros: Sequence[Macro] = ()) -> str | None:
    """The paper's title as plain text (`\\title[short]{Long}` -> `Long`), or None."""
    source = re.sub(r"(?<!\\)%[^\n]*", "", source)
    match = _TITLE.search(source)
    if match is None:
        return None
    group = texscan.read_group(source, match.end())
    if group is None:
        return None
    text = _TITLE_NOISE.sub(" ", expand_macros(group[0], macros))
    text = re.sub(r"\\[A-Za-z@]+\*?", " ", text)
    text = re.sub(r"[{}$]", "", text)
    for tex, char in _PUNCT:
        text = text.replace(tex, char)
    text = " ".join(text.replace("~", " ").split())
    return text[:300] or None
