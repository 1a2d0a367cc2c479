"""MathML that is safe to put in a page: rebuilt from an allowlist of elements and attributes.

latex2mathml passes some input through (`\\text{<b>}` stays markup, `\\href` becomes an
attribute), and a paper is untrusted, so its output is parsed and rebuilt element by element;
anything outside the allowlist makes the whole formula fail (the caller shows it as TeX). A
formula may hold markers (`MARK<n>q`, in an `mtext`) that stand for a command shown as its
TeX source (`texmath.convert_math`): they become that source, escaped, in monospace.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from html import escape
from typing import Final

MATHML_NS: Final = "http://www.w3.org/1998/Math/MathML"
# The tooltip of a macro shown as its TeX source (a macro only TeX itself could render).
UNRENDERED = "a macro paperlint cannot render, shown as TeX"

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

MARK: Final = "zqplmacro"  # `\text{zqplmacro3q}` stands for the 4th macro shown as TeX
_MARK = re.compile(MARK + r"(\d+)q")


def sanitise_mathml(raw: str, shown: Sequence[str] = ()) -> str | None:
    """Rebuild MathML from the allowlist; None if anything outside it appears. An `mtext`
    holding a marker of `convert_math` becomes the macro's TeX source, escaped."""
    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        return None
    out: list[str] = []
    if not _emit(root, out, shown):
        return None
    return "".join(out)


def _emit(node: ET.Element, out: list[str], shown: Sequence[str] = ()) -> bool:
    tag = node.tag.removeprefix(f"{{{MATHML_NS}}}")
    if tag not in ELEMENTS:
        return False
    marker = _MARK.fullmatch(node.text or "") if tag == "mtext" and not len(node) else None
    if marker is not None and int(marker.group(1)) < len(shown):
        source = escape(shown[int(marker.group(1))])
        out.append(f'<mtext class="tex-macro" title="{UNRENDERED}">{source}</mtext>')
        return True
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
        if not _emit(child, out, shown):
            return False
        out.append(escape(child.tail or "", quote=False))
    out.append(f"</{tag}>")
    return True


# TeX that shows a command as its source: `\\paperlintraw{<escape_source(source)>}`
# (texsafe writes it for plasTeX, which typesets it in \\texttt; convert_math shows it in a
# formula as the source).
