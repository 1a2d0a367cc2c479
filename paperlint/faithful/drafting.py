"""The second, independent draft: the drafter's inputs with nothing of the first draft.

Double formalisation is only evidence if the second drafter cannot copy the first: it gets a
fresh conversation and the paper's context only. What the first round produced (its failed
attempts, the Lean it wrote, the gate's reasons) is dropped here, in one place, by an
allowlist: a field added to `DrafterInputs` later is left out until someone decides it is
safe (a test fails until then).
"""

from __future__ import annotations

from paperlint.agents.inputs import DrafterInputs

# The paper's text of the result and its neighbours, the planned route, the Lean in scope.
INDEPENDENT_FIELDS = frozenset(
    {
        "result",
        "dependencies",
        "macros",
        "bibliography",
        "proof",
        "steps",
        "cited_inputs",
        "asserted_facts",
        "lean_context",
    }
)


def independent_inputs(first: DrafterInputs) -> DrafterInputs:
    """The inputs of the second draft: never anything the first drafter wrote."""
    kept = {
        name: getattr(first, name) for name in INDEPENDENT_FIELDS & set(DrafterInputs.model_fields)
    }
    return DrafterInputs.model_validate(kept)
