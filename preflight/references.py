"""Cross-references: `\\ref` and its family (key lists split), `\\hyperref[...]`, and
plain-text mentions such as "Lemma 2.3" resolved against the computed numbers."""

from __future__ import annotations

import re

from paperlint.preflight import lazyre
from paperlint.preflight.draft import DraftDiagnostic, DraftResult
from paperlint.preflight.sourcetree import FlatSource
from paperlint.preflight.walkstate import WalkOutput

_REF = lazyre.pattern(
    r"\\(?:ref|eqref|pageref|cref|Cref|cpageref|Cpageref|crefrange|Crefrange|cpagerefrange"
    r"|labelcref|labelcpageref|namecref|nameCref|lcnamecref|namecrefs|autoref|Autoref|nameref"
    r"|vref|Vref|thref|uses|proves|subref|refeq)\*?\s*\{([^}]*)\}(?:\s*\{([^}]*)\})?"
    r"|\\hyperref\s*\[([^\]]*)\]"
)
_RANGE_CMDS = ("crefrange", "Crefrange", "cpagerefrange")
# `\b` before the word is checked apart (`_mentions`): a pattern that starts with a plain
# word lets the regex engine jump from one candidate first letter to the next.
_PLAIN = lazyre.pattern(
    r"(Theorem|Lemma|Proposition|Corollary|Claim|Definition|Assumption|Conjecture|Remark"
    r"|Example|Fact|Observation|Condition|Hypothesis|Thm|Prop|Lem|Cor|Def)s?\.?(?:~|\s)+"
    r"([A-Z]?\d+(?:\.\d+)*[a-z]?|[A-Z](?:\.\d+)+)"
)


def reference_keys(text: str, commands: frozenset[str] | None = None) -> list[str]:
    """Every label key referenced in `text`, in order, comma lists split; with `commands`,
    only those referenced by one of these commands (names without the backslash)."""
    keys: list[str] = []
    for match in _REF.finditer(text):
        if match.group(3) is not None:
            if commands is None or "hyperref" in commands:
                keys.append(match.group(3).strip())
            continue
        cmd = match.group(0)[1:].split("{")[0].rstrip("* \n")
        if commands is not None and cmd not in commands:
            continue
        groups = [match.group(1)] + (
            [match.group(2)] if cmd in _RANGE_CMDS and match.group(2) else []
        )
        for group in groups:
            keys.extend(k.strip() for k in group.split(",") if k.strip())
    return keys


def plain_mentions(text: str) -> list[tuple[str, str]]:
    """("lemma", "2.3") pairs for plain-text mentions such as `Lemma~2.3`."""
    return [(m.group(1).lower(), m.group(2)) for m in _mentions(text)]


_WORD = lazyre.pattern(r"\w")


def _mentions(text: str) -> list[re.Match[str]]:
    """`_PLAIN`'s matches that start a word (what `\\b` in front of it would keep)."""
    out: list[re.Match[str]] = []
    search = _PLAIN.search
    pos = 0
    while (match := search(text, pos)) is not None:
        start = match.start()
        if start and _WORD.match(text, start - 1):
            pos = start + 1  # inside a word: look again from the next character
            continue
        out.append(match)
        pos = match.end()
    return out


def _title_index(results: list[DraftResult]) -> dict[tuple[str, str], str]:
    index: dict[tuple[str, str], str] = {}
    for result in results:
        if result.number:
            for word in {result.title.lower(), result.kind, result.env.lower()}:
                index.setdefault((word, result.number), result.id)
    return index


_SHORT = {
    "thm": "theorem",
    "prop": "proposition",
    "lem": "lemma",
    "cor": "corollary",
    "def": "definition",
    "fact": "claim",
    "observation": "claim",
    "condition": "assumption",
    "hypothesis": "assumption",
}


def resolve(text: str, key_owner: dict[str, str], titles: dict[tuple[str, str], str]) -> list[str]:
    """Result ids referenced in `text`: by label, then by plain-text title and number."""
    out: list[str] = []
    for key in reference_keys(text):
        rid = key_owner.get(key)
        if rid is not None and rid not in out:
            out.append(rid)
    for word, number in plain_mentions(text):
        rid = titles.get((word, number)) or titles.get((_SHORT.get(word, word), number))
        if rid is not None and rid not in out:
            out.append(rid)
    return out


def key_owners(walk: WalkOutput, ids: list[str]) -> dict[str, str]:
    """Label key → result id (equation and item labels map to their containing result)."""
    out: dict[str, str] = {}
    for key, owner in walk.labels.items():
        if owner.result is not None and owner.kind in ("result", "equation", "item"):
            out[key] = ids[owner.result]
    return out


_REF_IN_BODY = lazyre.pattern(
    r"\\(?:c?ref|Cref|eqref|autoref|Autoref|nameref)\*?\s*\{(?P<prefix>[^{}#\\]*)#(?P<arg>\d)\}"
)


def ref_macros(walk: WalkOutput) -> dict[str, tuple[int, str]]:
    """User macros that wrap a reference, e.g. `\\newcommand{\\thmref}[1]{Theorem~\\ref{#1}}`
    or refstyle's `\\thmref` (`\\ref{thm:#2}`): name → which `{...}` group of a call holds
    the key (a star and an optional argument are not counted), and the prefix the macro puts
    before it."""
    out: dict[str, tuple[int, str]] = {}
    for name, definition in walk.definitions.items():
        params = definition.params or ()
        found = _REF_IN_BODY.search(definition.body) if params else None
        if found is None:
            continue
        index = int(found.group("arg"))
        if index > len(params) or params[index - 1].kind != "m":
            continue
        group = sum(1 for param in params[:index] if param.kind == "m")
        out[name] = (group, found.group("prefix"))
    return out


_GROUP = lazyre.pattern(r"\{([^{}]*)\}")


def normalise(text: str, wrappers: dict[str, tuple[int, str]]) -> str:
    """Rewrite calls of reference-wrapping macros as plain `\\ref{key}` (each key of a list
    prefixed as the macro does)."""
    if not wrappers:
        return text
    names = "|".join(re.escape(name) for name in sorted(wrappers, key=len, reverse=True))
    pattern = re.compile(
        r"\\(" + names + r")(?![A-Za-z@])\*?(?:\s*\[[^\]]*\])?((?:\s*\{[^{}]*\})+)"
    )

    def rewrite(match: re.Match[str]) -> str:
        args = _GROUP.findall(match.group(2))
        index, prefix = wrappers[match.group(1)]
        if index > len(args):
            return match.group(0)
        keys = ",".join(prefix + key.strip() for key in args[index - 1].split(","))
        return f"\\ref{{{keys}}}"

    return pattern.sub(rewrite, text)


def resolve_uses(
    flat: FlatSource, walk: WalkOutput, results: list[DraftResult], ids: list[str]
) -> None:
    owners = key_owners(walk, ids)
    titles = _title_index(results)
    wrappers = ref_macros(walk)
    for result in results:
        statement = normalise(result.statement, wrappers)
        result.uses = [r for r in resolve(statement, owners, titles) if r != result.id]
        if result.proof is not None:
            used = resolve(normalise(result.proof.text, wrappers), owners, titles)
            result.proof_uses = [r for r in used if r != result.id]


_ANY_LABEL = lazyre.pattern(r"\\[A-Za-z]*label\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")


def undefined(flat: FlatSource, known: set[str]) -> list[DraftDiagnostic]:
    """One warning per referenced label that no `\\label` defines, at its first use (what
    LaTeX prints as `??`). Silent when the paper defines no label at all (nothing to check).
    `known` is extended in place (no second set of every label on a large paper)."""
    if not known:
        return []
    # labels other packages define (`\\nllabel` of algorithm2e, `\\zlabel`, …) count too
    known.update(m.group(1).strip() for m in _ANY_LABEL.finditer(flat.text))
    out: dict[str, DraftDiagnostic] = {}
    for match in _REF.finditer(flat.text):
        whole = (match.group(1) or match.group(3) or "").strip()
        if whole in known:  # `\\ref{a,b}` names the one label "a,b"
            continue
        for key in reference_keys(match.group(0)):
            if key in known or key in out or "#" in key:  # `#1`: inside a macro definition
                continue
            file, line, column = flat.position(match.start())
            out[key] = DraftDiagnostic(
                severity="warning",
                file=file,
                line=line,
                column=column,
                code="undefined-reference",
                message=f"reference to undefined label {key!r} (LaTeX prints ??)",
            )
    return list(out.values())
