"""Environment families of the document walk: who handles a `\\begin{name}` and what its
`\\end` undoes. One entry per family; the walker asks them in order and the first that
claims the name opens it. A new family is one function pair and one registry entry.

A family's `begin(walker, text, start, pos, name)` returns where the walk goes on, or None
when the name is not its own; `close(walker, frame)` runs at the matching `\\end` (after
the common work: owner restored, end code expanded, result and proof spans closed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from paperlint.preflight import algorithms, enumlabels, equations, sectioning, texscan
from paperlint.preflight import declarations as decl
from paperlint.preflight.walkstate import Frame, Owner

if TYPE_CHECKING:
    from paperlint.preflight.numbering import Walker

Begin = Callable[["Walker", str, int, int, str], "int | None"]
Close = Callable[["Walker", Frame], None]


class Family(NamedTuple):
    """An environment family: what its `\\begin` and its `\\end` do."""

    name: str
    begin: Begin
    close: Close | None = None


def _declared_proof(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """elsarticle `\\newproof`, ntheorem's unnumbered `proof`, IEEEproof."""
    if name in walker.proof_envs and name not in walker.reg.envs:
        return walker.begin_proof(text, start, pos, name)
    return None


def _theorem(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    reg = walker.reg
    if name not in reg.envs and name not in walker.wrappers and decl.guess_undeclared(reg, name):
        walker.problem(
            walker.at(start),
            "warning",
            "undeclared-environment",
            f"environment {name!r} is not declared in the project (a class or style "
            "we do not have?); its numbering is guessed: use --latex",
        )
    if name in reg.envs:
        return walker.begin_theorem(text, start, pos, name)
    return None


def _restatable(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """thm-restate `\\begin{restatable}[note]{theorem}{cmd}`: a theorem whose `\\cmd*`
    prints it again later."""
    if name not in ("restatable", "restatable*"):
        return None
    args, after = texscan.read_args(text, pos, "[{{")
    env, cmd = (args[1] or "").strip(), (args[2] or "").strip().lstrip("\\")
    if env not in walker.reg.envs:
        return None
    end = walker.begin_theorem(text, start, after, env, note=args[0], frame_name=name)
    walker.restaters[cmd] = len(walker.out.results) - 1
    return end


def _equation(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    return walker.equation(text, start, pos, name) if name in equations.EQUATION_ENVS else None


def _wrapper(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    wrapper = walker.wrappers.get(name)
    return walker.begin_wrapper(text, start, pos, wrapper) if wrapper is not None else None


def _proof_name(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    return walker.begin_proof(text, start, pos, name) if walker.is_proof_name(name) else None


def _open(walker: Walker, start: int, name: str, family: str) -> Frame:
    frame = Frame(name, walker.at(start), walker.current, family=family)
    walker.frames.append(frame)
    return frame


def _subequations(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """`subequations`/`dgroup`: one equation number, the rows lettered 1a, 1b, ..."""
    if name not in ("subequations", "dgroup"):
        return None
    frame = _open(walker, start, name, "subequations")
    counters = walker.reg.counters
    counters.step("equation")
    parent = counters.render("equation")
    frame.restore = {"the": counters.the["equation"], "value": str(counters.values["equation"])}
    walker.current = Owner(parent, "equation", walker.enclosing_result())
    counters.the["equation"] = parent.replace("\\", "") + "\\alph{equation}"
    counters.set("equation", 0)
    return pos


def _close_subequations(walker: Walker, frame: Frame) -> None:
    counters = walker.reg.counters
    counters.the["equation"] = frame.restore["the"]
    counters.set("equation", int(frame.restore["value"]))


def _appendix(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    if name not in ("appendices", "subappendices", "appendix"):
        return None
    frame = _open(walker, start, name, "appendix")
    frame.restore = dict(walker.reg.counters.the)
    sectioning.apply_appendix(walker, sub=name == "subappendices")
    return pos


def _close_appendix(walker: Walker, frame: Frame) -> None:
    walker.reg.counters.the.update(frame.restore)


def _enumerate(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    if name not in ("enumerate", "enumerate*"):
        return None
    frame = _open(walker, start, name, "enumerate")
    walker.enum_depth += 1
    if walker.enum_depth > len(sectioning.ENUM_LEVELS):
        return pos
    level = "enum" + sectioning.ENUM_LEVELS[walker.enum_depth - 1]
    counters = walker.reg.counters
    frame.restore = {"prefix": counters.macros.get(f"p@{level}", "")}
    packages = walker.reg.packages
    options = texscan.read_optional(text, pos, newline=False) if packages & _LIST_PACKAGES else None
    if options is not None:
        pos = options[1]
    keys = enumlabels.keys(walker, walker.enum_depth, options[0] if options else None)
    style = enumlabels.reference(keys, level, enumitem="enumitem" in packages)
    if style is not None:
        template, prefix = style
        walker.set_the(level, template, local=True)
        if prefix is not None:
            counters.macros[f"p@{level}"] = prefix
    if "resume" not in keys and "resume*" not in keys:
        start_at = enumlabels.start(keys)
        counters.set(level, start_at - 1)
    return pos


_LIST_PACKAGES = frozenset({"enumitem", "enumerate"})
"""Packages that give `\\begin{enumerate}` an optional argument (the kernel's has none)."""


def _close_enumerate(walker: Walker, frame: Frame) -> None:
    walker.enum_depth = max(walker.enum_depth - 1, 0)
    if "prefix" in frame.restore:
        level = "enum" + sectioning.ENUM_LEVELS[walker.enum_depth]
        walker.reg.counters.macros[f"p@{level}"] = frame.restore["prefix"]


def _longtable(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """longtable steps the table counter as it starts, with or without a caption
    (longtable.sty 4.17, `\\LT@array`); under ltablex a `tabularx` is a longtable. Not
    with xltabular, whose longtable steps only for a caption."""
    packages = walker.reg.packages
    if "xltabular" in packages or not (
        name == "longtable" or (name == "tabularx" and "ltablex" in packages)
    ):
        return None
    _open(walker, start, name, "longtable")
    sectioning.step_float(walker, "table")
    return pos


def _algorithmic(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """algorithmicx's `algorithmic`: its line labels (preflight/algorithms.py)."""
    if name != "algorithmic" or not walker.reg.packages & algorithms.ALGORITHMICX:
        return None
    _open(walker, start, name, "algorithmic")
    algorithms.begin_algorithmic(walker)
    return pos


def _algorithm2e(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """algorithm2e's algorithm: a float whose paragraphs are numbered lines."""
    if name not in algorithms.algorithm2e_envs(walker):
        return None
    _open(walker, start, name, "algorithm2e")
    return algorithms.begin_algorithm2e(walker, text, pos, name)


def _close_algorithmic(walker: Walker, frame: Frame) -> None:
    algorithms.end_algorithmic(walker)


def _other(walker: Walker, text: str, start: int, pos: int, name: str) -> int | None:
    """Any other environment: a frame, so that its `\\end` restores the label owner (in a
    float under the caption package, a label before the caption writes no number)."""
    _open(walker, start, name, "other")
    if sectioning.no_caption_yet(walker, name):
        walker.current = Owner("", sectioning.XREF)
    return pos


FAMILIES: tuple[Family, ...] = (
    Family("declared-proof", _declared_proof),
    Family("theorem", _theorem),
    Family("restatable", _restatable),
    Family("equation", _equation),
    Family("wrapper", _wrapper),
    Family("proof", _proof_name),
    Family("subequations", _subequations, _close_subequations),
    Family("appendix", _appendix, _close_appendix),
    Family("enumerate", _enumerate, _close_enumerate),
    Family("longtable", _longtable),
    Family("algorithmic", _algorithmic, _close_algorithmic),
    Family("algorithm2e", _algorithm2e),
    Family("other", _other),
)
CLOSERS: dict[str, Close] = {f.name: f.close for f in FAMILIES if f.close is not None}
