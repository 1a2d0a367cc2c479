"""What a label in an `enumerate` item writes, as enumitem and the enumerate package make it.

The kernel writes `\\p@enumi…\\theenumi…`: `1`, `1a`, `1(a)i`, `1(a)iA` down four levels
(`declarations.ENUM_PREFIXES`). enumitem's `label=(\\roman*)` (or `ref=…`, or a short label
`[(a)]`, or the same keys through `\\setlist[enumerate,1]{…}`) makes the reference that text,
`(i)`, and empties the prefix; `start=5` starts at 5 and `resume` goes on counting. The
enumerate package's `[(a)]` changes only the counter's style (`a`), keeping the prefix. Each
checked with pdflatex (fixture `enumerate_labels`; enumitem 3.9, enumerate 3.00).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paperlint.preflight import lazyre, texscan

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

_STARRED = lazyre.pattern(r"\\(arabic|alph|Alph|roman|Roman)\*")
_SHORT_STYLES = {"A": "Alph", "a": "alph", "I": "Roman", "i": "roman", "1": "arabic"}
_KEY = lazyre.pattern(r"[A-Za-z*]+")


def keys(walker: Walker, depth: int, options: str | None) -> dict[str, str]:
    """The keys a list at `depth` (1-4) is made with: `\\setlist` for every level, for its
    level, then its own optional argument."""
    merged: dict[str, str] = {}
    for level in (0, depth):
        merged.update(walker.list_settings.get(level, {}))
    if options is not None:
        merged.update(_parse(options))
    return merged


def _parse(options: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in texscan.parse_keyvals(options).items():
        short = not value and (key in _SHORT_STYLES or not _KEY.fullmatch(key))
        if short:
            out["short"] = key
        else:
            out[key] = value
    return out


def reference(keys: dict[str, str], level: str, *, enumitem: bool) -> tuple[str, str | None] | None:
    """The `\\the<level>` template and the new prefix (None: kept) the keys make; None when
    they change neither."""
    if enumitem:
        label = keys.get("ref") or keys.get("label")
        if label:
            return _STARRED.sub(lambda m: f"\\{m.group(1)}{{{level}}}", label), ""
        if "short" in keys:
            return _short(keys["short"], level, whole=True), ""
        return None
    if "short" in keys:
        return _short(keys["short"], level, whole=False), None
    return None


def _short(spec: str, level: str, *, whole: bool) -> str:
    """A short label (`(a)`, `i.`, `{Step} 1`): its first `A a I i 1` outside braces is the
    counter; with `whole`, the rest is kept as written (enumitem), else dropped (enumerate)."""
    out: list[str] = []
    depth = 0
    found = False
    for ch in spec:
        depth += ch == "{"
        depth -= ch == "}"
        if not found and depth == 0 and ch in _SHORT_STYLES:
            found = True
            counter = f"\\{_SHORT_STYLES[ch]}{{{level}}}"
            if not whole:
                return counter
            out.append(counter)
        else:
            out.append(ch)
    return "".join(out) if found else f"\\arabic{{{level}}}"


def start(keys: dict[str, str]) -> int:
    value = keys.get("start", "").strip()
    return int(value) if value.lstrip("-").isdigit() and len(value) < 9 else 1


def setlist(walker: Walker, text: str, m: re.Match[str]) -> int:
    """`\\setlist[enumerate,1]{…}`, `\\setlist{…}` (every list), `\\setenumerate[1]{…}`: the
    keys later enumerates at those levels start from (a starred form adds to them)."""
    star, pos = texscan.read_star(text, m.end())
    args, pos = texscan.read_args(text, pos, "[{")
    targets = texscan.split_keys(args[0] or "")
    names = [t for t in targets if not t.isdigit()]
    if m.group(1) == "setenumerate":
        names = ["enumerate"]
    if names and "enumerate" not in names:
        return pos
    levels = [int(t) for t in targets if t.isdigit() and 1 <= int(t) <= 4] or [0]
    for level in levels:
        settings = walker.list_settings.setdefault(level, {})
        if not star:
            settings.clear()
        settings.update(_parse(args[1] or ""))
    return pos
