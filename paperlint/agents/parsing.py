"""Turning a model's raw text into a validated output model, or a message saying what is wrong.

The message goes back to the model in a repair request, so it names the field and the problem
in plain words and stays short.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ValidationError

from paperlint.agents.fences import FenceError, Reply, fill_lean, split_reply
from paperlint.agents.outputs import OUTPUT_MODELS


class InvalidOutput(ValueError):
    """The model's answer is not valid JSON for its task's schema."""


def parse_output(task: str, text: str) -> BaseModel:
    """The task's output model parsed from `text`; raises InvalidOutput with a repair hint.

    Lean may come in ```lean blocks referenced from the JSON (`paperlint.agents.fences`).
    Backslashes inside JSON strings are repaired first (`repair_backslashes`), so LaTeX the
    model forgot to escape keeps its commands instead of turning into control characters."""
    reply = split_reply(text)
    candidate = _json_candidate(reply)
    try:
        data = _loads(candidate)
    except json.JSONDecodeError as exc:
        cut = [b for b in reply.blocks if not b.closed]
        if cut:
            raise InvalidOutput(
                f"a ``` block opened on line {cut[0].line} is never closed and no complete "
                "JSON object was found: the answer was probably cut off"
            ) from None
        raise InvalidOutput(f"the answer is not valid JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise InvalidOutput(f"the answer must be a JSON object, not {type(data).__name__}")
    try:
        data = fill_lean(task, data, reply)
    except FenceError as exc:
        raise InvalidOutput(str(exc)) from None
    try:
        return OUTPUT_MODELS[task].model_validate(data)
    except ValidationError as exc:
        raise InvalidOutput(describe_errors(exc)) from None


def extract_json(text: str) -> str:
    """The JSON part of an answer: the first candidate that parses as a JSON object."""
    return _json_candidate(split_reply(text))


def _json_candidate(reply: Reply) -> str:
    """The first candidate that parses as a JSON object.

    Candidates, in order: the text outside fenced blocks when it is an object, each closed
    non-Lean fenced block (```json, bare ```), the first object that `raw_decode` reads from
    each `{` outside the blocks (so a sentence after the JSON, even one holding braces like
    `{x | x > 0}`, is ignored), the outermost braces. Lean blocks are never searched: a
    structure instance `{ x := 1 }` there is not the answer. All are tolerated because the
    content is still checked against the schema. With no parsable candidate, the first one is
    returned so the error message is about what the model sent.
    """
    stripped = reply.outside.strip()
    candidates = [stripped] if stripped.startswith("{") else []
    candidates += [body.strip() for body in reply.other_bodies()]
    candidates += _decoded_objects(stripped)
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        candidates.append(stripped[start : end + 1])
    for candidate in candidates:
        if _is_json_object(candidate):
            return candidate
    return candidates[0] if candidates else stripped


def _decoded_objects(text: str, *, limit: int = 20) -> list[str]:
    """The text of the first JSON object `raw_decode` finds from each of the first `{`s."""
    decoder = json.JSONDecoder()
    for match in list(re.finditer(r"\{", text))[:limit]:
        # Repaired from the brace on: quotes in prose before it must not flip "in a string".
        tail = repair_backslashes(text[match.start() :])
        try:
            value, end = decoder.raw_decode(tail)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return [tail[:end]]
    return []


def _loads(text: str) -> object:
    try:
        return json.loads(repair_backslashes(text))
    except json.JSONDecodeError:
        return json.loads(text)


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(_loads(text), dict)
    except json.JSONDecodeError:
        return False


# LaTeX commands whose first letter is also a JSON escape (\b \f \n \r \t). `\f` and `\b`
# followed by a letter are always LaTeX (nobody means form feed or backspace); for `\n`, `\r`
# and `\t`, which a model does mean as newline or tab, only these whole words count.
_LATEX_NRT = frozenset(
    {
        "ne",
        "neq",
        "nabla",
        "nu",
        "neg",
        "not",
        "notin",
        "ni",
        "nmid",
        "nleq",
        "ngeq",
        "nless",
        "ngtr",
        "nsubseteq",
        "nsupseteq",
        "newline",
        "noindent",
        "nonumber",
        "nolimits",
        "natural",
        "nearrow",
        "nexists",
        "newcommand",
        "norm",
        "nparallel",
        "nrightarrow",
        "nleftarrow",
        "nvdash",
        "nsim",
        "ncong",
        "rho",
        "right",
        "rightarrow",
        "rangle",
        "rfloor",
        "rceil",
        "rbrace",
        "rbrack",
        "rm",
        "rmfamily",
        "ref",
        "restriction",
        "rightharpoonup",
        "rvert",
        "rVert",
        "renewcommand",
        "raisebox",
        "rule",
        "rightleftharpoons",
        "to",
        "times",
        "theta",
        "tau",
        "text",
        "textbf",
        "textit",
        "textrm",
        "texttt",
        "textsf",
        "textup",
        "textnormal",
        "textstyle",
        "tfrac",
        "tilde",
        "top",
        "triangle",
        "triangleq",
        "trianglelefteq",
        "tan",
        "tanh",
        "tag",
        "therefore",
        "tiny",
        "tt",
        "tbinom",
        "thinspace",
        "thickspace",
        "trace",
    }
)
_ESCAPE = re.compile(r'\\(?:(["\\/])|(u[0-9A-Fa-f]{4})|([bfnrt])([A-Za-z]*)|(.?))', re.DOTALL)


def repair_backslashes(text: str) -> str:
    """JSON text in which a backslash that starts a LaTeX command (or is no valid escape at
    all) inside a string is escaped, so `"\\frac{a}{b}"` written unescaped still decodes to
    `\\frac{a}{b}`, not form feed + `rac{a}{b}`. Valid escapes (`\\"`, `\\\\`, `\\uXXXX`, a
    real `\\n`) are kept. Text outside strings is not touched."""
    out: list[str] = []
    i = 0
    in_string = False
    while i < len(text):
        char = text[i]
        if not in_string:
            in_string = char == '"'
            out.append(char)
            i += 1
            continue
        if char == '"':
            in_string = False
            out.append(char)
            i += 1
            continue
        if char != "\\":
            out.append(char)
            i += 1
            continue
        match = _ESCAPE.match(text, i)
        assert match is not None  # the pattern matches any backslash
        quoted, unicode, letter, rest, other = match.groups()
        if quoted or unicode:
            out.append(match.group(0))
        elif letter:
            word = letter + rest
            latex = (letter in "bf" and rest) or word in _LATEX_NRT
            out.append(("\\\\" if latex else "\\") + word)
        else:
            out.append("\\\\" + (other or ""))
        i = match.end()
    return "".join(out)


def describe_errors(exc: ValidationError, *, limit: int = 8) -> str:
    lines = []
    for error in exc.errors()[:limit]:
        where = ".".join(str(part) for part in error["loc"]) or "(top level)"
        lines.append(f"- {where}: {error['msg']}")
    more = len(exc.errors()) - limit
    if more > 0:
        lines.append(f"- ... and {more} more")
    return "the answer does not match the schema:\n" + "\n".join(lines)
