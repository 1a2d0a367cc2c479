"""Preflight's own records (draft) and the contract's (model) are one definition twice: the
same fields in the same order with the same defaults, and `contract` carries every value."""

import inspect
from pathlib import Path

import pytest
from pydantic_core import PydanticUndefined

from paperlint.preflight import draft, model
from paperlint.preflight.inventory import build_draft, build_inventory
from paperlint.preflight.record import Record

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


def _made_with_required_only(ours: type) -> tuple[object, set[str]]:
    """An instance given only the fields `__init__` requires (each a fresh object), and their
    names: every other field shows its default."""
    required = {
        name
        for name, param in inspect.signature(ours.__init__).parameters.items()
        if name != "self" and param.default is inspect.Parameter.empty
    }
    return ours(**{name: object() for name in required}), required


@pytest.mark.parametrize(("ours", "theirs"), PAIRS, ids=[p[0].__name__ for p in PAIRS])
def test_the_draft_records_have_the_contracts_fields(ours, theirs):
    contract_fields = {k: v for k, v in theirs.model_fields.items() if k != "schema_"}
    assert list(ours.__slots__) == list(contract_fields)
    made, required = _made_with_required_only(ours)
    again, _ = _made_with_required_only(ours)
    for name, info in contract_fields.items():
        want = info.get_default(call_default_factory=True)
        if name in required:
            assert want is PydanticUndefined, (ours.__name__, name)
            continue
        assert getattr(made, name) == want, (ours.__name__, name)
        if isinstance(want, (list, dict)):  # a fresh one for each record, as default_factory
            assert getattr(made, name) is not getattr(again, name), (ours.__name__, name)


def _plain(value: object) -> object:
    """A draft record as `model_dump` shows its contract: dicts, lists and values."""
    if isinstance(value, Record):
        return {name: _plain(getattr(value, name)) for name in value.__slots__}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


@pytest.mark.parametrize("paper", ["sample-variance", "faithfulness"])
def test_the_contract_holds_what_the_draft_holds(paper):
    folder = ROOT / "fixtures" / paper
    theirs = build_inventory(folder)
    assert _plain(build_draft(folder)) == theirs.model_dump(exclude={"schema_"})
    ours = build_draft(folder)
    assert draft.contract(ours) == theirs
    assert ours.results == []  # moved over, one at a time
