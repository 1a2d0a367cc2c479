"""Pretty-printed goals -> Lean text the tools can elaborate. Pure string work.

A goal as Lean prints it (`x y : ℝ\\nh : 0 < x\\n⊢ x ≤ max x y`) becomes
`example (x y : ℝ) (h : 0 < x) : x ≤ max x y`. Inaccessible names (`x✝`, `inst✝`) cannot be
written back, so they are renamed (`x_1`, `inst_1`), and instance hypotheses become `[…]`
binders. A plain proposition (no `⊢`) is used as it is. The result is best effort: a goal whose
printed form does not re-elaborate makes the tool answer with Lean's error, never a guess.
"""

from __future__ import annotations

import re

_HOLE = re.compile(r"\?_")
_INACCESSIBLE = re.compile(r"([A-Za-z_][\w']*)✝(\d*)")


def _rename(text: str) -> str:
    return _INACCESSIBLE.sub(lambda m: f"{m.group(1)}_{(m.group(2) or '0')}", text)


def goal_statement(goal: str) -> str:
    """`example BINDERS : TARGET` for the first goal of `goal` (without `:=`)."""
    text = _rename(goal.strip())
    if "⊢" not in text:
        return f"example : {' '.join(text.split())}"
    first = text.split("\n\n", 1)[0]  # several goals: the first is the one worked on
    hyps_text, target = first.rsplit("⊢", 1)
    binders = []
    for line in hyps_text.splitlines():
        line = line.strip()
        if not line or line.startswith("case "):
            continue
        names, sep, type_text = line.partition(" : ")
        if not sep:
            continue
        if names.startswith("inst"):
            binders.append(f"[{type_text.strip()}]")
        else:
            binders.append(f"({names.strip()} : {type_text.strip()})")
    head = " ".join(["example", *binders])
    return f"{head} : {' '.join(target.split())}"


def with_tactic(statement: str, tactic: str) -> str:
    body = "\n".join("  " + line for line in tactic.strip().splitlines())
    return f"{statement} := by\n{body}"


def holes_to_sorry(lean: str) -> str:
    """Every `?_` becomes `sorry`, so Lean reports its expected type as a sorry goal."""
    return _HOLE.sub("sorry", lean)
