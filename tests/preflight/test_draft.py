"""Preflight's own records (draft) and the contract's (model) are one definition twice: the
same fields in the same order with the same defaults, and `contract` carries every value."""

import dataclasses
from pathlib import Path

import pytest
from pydantic_core import PydanticUndefined

from paperlint.preflight import draft, model
from paperlint.preflight.inventory import build_draft, build_inventory

ROOT = Path(__file__).resolve().parents[2]
PAIRS = [
    (getattr(draft, f"Draft{name}"), getattr(model, name))
    for name in (
        "Span",
        "Proof",
        "Citation",
        "FileEntry",
        "EquationInfo",
        "BibEntry",
        "MacroParam",
        "Macro",
        "Diagnostic",
        "Result",
        "Inventory",
    )
]


def _default(field: dataclasses.Field) -> object:
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return PydanticUndefined if field.default is dataclasses.MISSING else field.default


@pytest.mark.parametrize(("ours", "theirs"), PAIRS, ids=[p[0].__name__ for p in PAIRS])
def test_the_draft_records_have_the_contracts_fields(ours, theirs):
    contract_fields = {k: v for k, v in theirs.model_fields.items() if k != "schema_"}
    assert [f.name for f in dataclasses.fields(ours)] == list(contract_fields)
    for field in dataclasses.fields(ours):
        want = contract_fields[field.name].get_default(call_default_factory=True)
        assert _default(field) == want, (ours.__name__, field.name)


@pytest.mark.parametrize("paper", ["sample-variance", "faithfulness"])
def test_the_contract_holds_what_the_draft_holds(paper):
    folder = ROOT / "fixtures" / paper
    theirs = build_inventory(folder)
    assert dataclasses.asdict(build_draft(folder)) == theirs.model_dump(exclude={"schema_"})
    ours = build_draft(folder)
    assert draft.contract(ours) == theirs
    assert ours.results == []  # moved over, one at a time
