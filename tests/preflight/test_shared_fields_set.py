"""Inventory records share one fields-set per class (preflight/model.py `_Record`): the
memory it saves must never change what a record holds, says or writes."""

from __future__ import annotations

import copy
import pickle

from paperlint.preflight.model import Inventory, Result, Span

SPAN = Span(file="main.tex", start_line=3, end_line=5)


def _result(rid: str) -> Result:
    return Result(
        id=rid, env="lemma", kind="lemma", title="Lemma", number="1", statement="x", span=SPAN
    )


def test_every_instance_shares_its_class_set_and_no_change_reaches_it():
    a, b = _result("a"), _result("b")
    shared = a.__pydantic_fields_set__
    assert shared is b.__pydantic_fields_set__ == set(Result.model_fields)
    a.parent = "b"  # an assignment adds a name the set already holds
    a.statement = "y"
    copied = a.model_copy(update={"number": "2"})
    deep = copy.deepcopy(a)
    assert shared == set(Result.model_fields)
    assert (b.parent, b.statement, copied.number, a.number) == (None, "x", "2", "1")
    assert deep == a and deep.__pydantic_fields_set__ == shared


def test_json_and_pickle_round_trips_are_unchanged():
    inventory = Inventory(root="main.tex", results=[_result("a"), _result("b")])
    text = inventory.model_dump_json()
    again = Inventory.model_validate_json(text)
    assert again == inventory and again.model_dump_json() == text
    assert pickle.loads(pickle.dumps(inventory)) == inventory
    # defaults are written as before: the shared set does not change what a dump holds
    assert '"parent":null' in text and '"number_source":"emulated"' in text
