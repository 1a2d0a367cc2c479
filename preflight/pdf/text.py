"""Text repair for extracted PDF lines: ligatures, hyphenation, `(cid:N)` glyphs
(docs/latex-notes.md §19.3)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_CID = re.compile(r"\(cid:\d+\)")
# U+FB00..FB04 come out of PDFs whose fonts lack a ToUnicode map; NFKC expands them too, the
# table only makes the repair independent of the normalisation form.
_LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
_HYPHEN_END = re.compile(r"(\w)[-\u00ad\u2010]$")


def normalise(text: str) -> str:
    """NFKC with ligatures expanded; a text matcher can then rely on plain ASCII words."""
    for ligature, letters in _LIGATURES.items():
        text = text.replace(ligature, letters)
    return unicodedata.normalize("NFKC", text)


def count_cids(text: str) -> int:
    return len(_CID.findall(text))


def join_lines(lines: Sequence[str]) -> str:
    """Join line texts into one paragraph, rejoining words hyphenated at a line end.

    "in-" + "dependent" becomes "independent"; "Lipschitz-" + "Continuous" keeps its hyphen,
    because a capital after the break means the hyphen belongs to the word
    (docs/latex-notes.md §19.3).
    """
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if out and _HYPHEN_END.search(out):
            # "in-"/"dependent" loses the hyphen; "Lipschitz-"/"Continuous" keeps it
            out = out[:-1] + line if line[0].islower() else out + line
        else:
            out = f"{out} {line}" if out else line
    return out
