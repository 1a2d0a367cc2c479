"""`--latex`: compile the paper and let LaTeX's own numbers overrule the emulated ones.

`reconcile` is pure (inventory + aux data → inventory); `apply_latex` adds the compile.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperlint.errors import InputError
from paperlint.preflight.auxfile import AuxData, AuxLabel
from paperlint.preflight.latexrun import (
    CompileResult,
    CompileStatus,
    compile_project,
    error_lines,
)
from paperlint.preflight.model import Diagnostic, EquationInfo, Inventory, Result, Severity
from paperlint.preflight.probes import LabelProbe, add_probes_to_tree, is_probe, probe_key

Edit = Callable[[Path], object]
Compile = Callable[[Path, str, Edit], CompileResult]

# Labels of these counters are not results or equations, so preflight does not track them
# (cleveref types and hyperref anchor prefixes).
_UNTRACKED = frozenset(
    {
        "part",
        "chapter",
        "section",
        "subsection",
        "subsubsection",
        "paragraph",
        "subparagraph",
        "appendix",
        "subappendix",
        "subsubappendix",
        "figure",
        "subfigure",
        "table",
        "subtable",
        "footnote",
        "mpfootnote",
        "enumi",
        "enumii",
        "enumiii",
        "enumiv",
        "item",
        "Item",
        "algorithm",
        "algocf",
        "AlgoLine",
        "ALC@line",
        "line",
        "listing",
        "lstlisting",
        "page",
        "caption",
        "Hfootnote",
    }
)


def apply_latex(
    inventory: Inventory, project_dir: Path, *, compile: Compile | None = None
) -> Inventory:
    """Compile a scratch copy of `project_dir` and reconcile `inventory` with its `.aux`.

    Unlabelled numbered results get a probe label in the scratch copy (see `probes`).
    """
    if inventory.source_kind != "tex":
        raise InputError(
            "--latex compiles the TeX source, and this inventory was read from a PDF",
            path=inventory.root,
            hint="run preflight on the .tex file or project folder, or drop --latex",
        )
    run = compile or (lambda folder, root, edit: compile_project(folder, root, edit=edit))
    wanted = plan_probes(inventory)
    result = run(project_dir, inventory.root, lambda scratch: add_probes_to_tree(scratch, wanted))
    return reconcile(inventory, result)


def plan_probes(inventory: Inventory) -> list[LabelProbe]:
    """A probe for every numbered result without a label."""
    return [
        LabelProbe(probe_key(i), r.span.file, r.span.start_line, r.env)
        for i, r in enumerate(inventory.results)
        if not r.labels and r.number is not None and r.restates is None
    ]


def reconcile(inventory: Inventory, compiled: CompileResult) -> Inventory:
    """LaTeX wins: take each labelled result's and equation's number from the `.aux`."""
    aux = compiled.aux
    notes = _compile_notes(inventory.root, compiled)
    if compiled.status in (CompileStatus.NO_AUX, CompileStatus.TIMEOUT) and not aux.labels:
        return _with(inventory, inventory.results, inventory.equations, notes)
    results = [
        _reconcile_result(r, aux, notes, probe=probe_key(i))
        for i, r in enumerate(inventory.results)
    ]
    owners = {r.id: r for r in inventory.results}
    equations = {
        key: _reconcile_equation(key, eq, aux, owners, inventory.root, notes)
        for key, eq in inventory.equations.items()
    }
    notes.extend(_duplicate_notes(inventory, aux))
    notes.extend(_coverage_notes(inventory, aux))
    notes.extend(_unchecked_notes(results))
    return _with(inventory, results, equations, notes)


def same_number(emulated: str | None, latex: str) -> bool:
    """Compare printed numbers, ignoring spacing and grouping braces."""
    if emulated is None:
        return latex == ""
    return _key(emulated) == _key(latex)


# --- per item ----------------------------------------------------------------------------


def _reconcile_result(
    result: Result, aux: AuxData, notes: list[Diagnostic], *, probe: str
) -> Result:
    label = _first_known(result.labels, aux) or aux.labels.get(probe)
    if label is None:
        return result
    name = "unlabelled" if is_probe(label.key) else f"`{label.key}`"
    where = (result.span.file, result.span.start_line)
    if result.number is None:
        if label.number and not _is_unnumbered_anchor(label):
            notes.append(
                _note(
                    "info",
                    where,
                    "label-in-unnumbered",
                    f"{result.title} {name} is unnumbered here; its label prints "
                    f"{label.number!r} in LaTeX (usually the enclosing section's number)",
                )
            )
        return result
    if not same_number(result.number, label.number):
        notes.append(
            _note(
                "warning",
                where,
                "number-mismatch",
                f"{result.title} {name}: preflight numbered it {result.number}, "
                f"LaTeX prints {label.number or '(nothing)'}; using LaTeX's",
            )
        )
    number = label.number or None
    return result.model_copy(update={"number": number, "number_source": "latex"})


def _reconcile_equation(
    key: str,
    equation: EquationInfo,
    aux: AuxData,
    owners: dict[str, Result],
    root: str,
    notes: list[Diagnostic],
) -> EquationInfo:
    label = aux.labels.get(key)
    if label is None or same_number(equation.number, label.number):
        return equation
    owner = owners.get(equation.result) if equation.result else None
    where = (owner.span.file, owner.span.start_line) if owner else (root, None)
    inside = f" (in {owner.id})" if owner else ""
    notes.append(
        _note(
            "warning",
            where,
            "number-mismatch",
            f"equation `{key}`{inside}: preflight numbered it {equation.number}, "
            f"LaTeX prints {label.number or '(nothing)'}; using LaTeX's",
        )
    )
    return equation.model_copy(update={"number": label.number})


# --- whole-document notes ----------------------------------------------------------------


def _compile_notes(root: str, compiled: CompileResult) -> list[Diagnostic]:
    if compiled.status is CompileStatus.OK:
        return []
    severity: Severity = "warning" if compiled.aux.labels else "error"
    errors = compiled.errors or error_lines(compiled.log_tail)
    first = errors[0] if errors else None
    detail = f"; first error: {first}" if first else ""
    return [_note(severity, (root, None), "latex-compile", compiled.summary() + detail)]


def _duplicate_notes(inventory: Inventory, aux: AuxData) -> list[Diagnostic]:
    return [
        _note(
            "warning",
            (inventory.root, None),
            "duplicate-label",
            f"label `{dup.key}` is defined {len(dup.numbers)} times "
            f"({', '.join(n or '(nothing)' for n in dup.numbers)}); LaTeX uses the last",
        )
        for dup in aux.duplicates
    ]


def _coverage_notes(inventory: Inventory, aux: AuxData) -> list[Diagnostic]:
    """Labels only one side knows: the emulation missed content, or kept dead content."""
    known: dict[str, tuple[str, int | None]] = {}
    for r in inventory.results:
        for key in r.labels:
            known[key] = (r.span.file, r.span.start_line)
    for key, eq in inventory.equations.items():
        owner = inventory.result(eq.result) if eq.result else None
        where = (owner.span.file, owner.span.start_line) if owner else (inventory.root, None)
        known.setdefault(key, where)
    unknown = [
        label
        for label in aux.labels.values()
        if label.key not in known and not is_probe(label.key) and _is_tracked(label)
    ]
    notes = [
        _note(
            "warning",
            (inventory.root, None),
            "latex-only-label",
            f"LaTeX defines label `{label.key}` ({_describe(label)} {label.number}) "
            "but preflight found no result or equation carrying it",
        )
        for label in unknown
        if _kind_of(label) is not None
    ]
    untyped = [label.key for label in unknown if _kind_of(label) is None]
    if untyped:
        # Without hyperref or cleveref the .aux does not say what a label counts (sections,
        # figures, tables …), so one summary instead of a warning per label.
        shown = ", ".join(untyped[:12]) + (", …" if len(untyped) > 12 else "")
        notes.append(
            _note(
                "info",
                (inventory.root, None),
                "latex-only-label",
                f"LaTeX defines {len(untyped)} labels preflight attaches to no result or "
                f"equation (the .aux does not say what they number): {shown}",
            )
        )
    notes.extend(
        _note(
            "warning",
            where,
            "label-not-in-latex",
            f"label `{key}` is not in LaTeX's .aux: the text holding it is probably not "
            "typeset (commented out, switched off, or never input)",
        )
        for key, where in known.items()
        if key not in aux.labels
    )
    return notes


def _unchecked_notes(results: list[Result]) -> list[Diagnostic]:
    """Numbered results LaTeX's .aux says nothing about keep the emulated number: say so."""
    return [
        _note(
            "info",
            (r.span.file, r.span.start_line),
            "latex-unchecked",
            f"{r.title} {r.number}: no label or probe of it reached LaTeX's .aux (a partial "
            "compile, or a head not written as \\begin{env}); the number is preflight's",
        )
        for r in results
        if r.number is not None and r.number_source != "latex" and r.restates is None
    ]


# --- helpers -----------------------------------------------------------------------------


def _first_known(labels: list[str], aux: AuxData) -> AuxLabel | None:
    return next((aux.labels[k] for k in labels if k in aux.labels), None)


def _is_unnumbered_anchor(label: AuxLabel) -> bool:
    return label.anchor is not None and "dummy" in label.anchor


def _kind_of(label: AuxLabel) -> str | None:
    if label.cref_type:
        return label.cref_type
    if label.anchor:
        return label.anchor.split(".", 1)[0]
    return None


def _is_tracked(label: AuxLabel) -> bool:
    if label.key.startswith("sub@"):
        return False
    kind = _kind_of(label)
    # without hyperref or cleveref the counter is unknown: report it, preflight may know
    return kind is None or kind not in _UNTRACKED


def _describe(label: AuxLabel) -> str:
    return _kind_of(label) or "number"


def _key(number: str) -> str:
    return "".join(ch for ch in number if ch not in "{} \t\n")


def _note(severity: Severity, where: tuple[str, int | None], code: str, message: str) -> Diagnostic:
    return Diagnostic(severity=severity, file=where[0], line=where[1], code=code, message=message)


def _with(
    inventory: Inventory,
    results: list[Result],
    equations: dict[str, EquationInfo],
    notes: list[Diagnostic],
) -> Inventory:
    return inventory.model_copy(
        update={
            "results": results,
            "equations": equations,
            "diagnostics": [*inventory.diagnostics, *notes],
        }
    )
