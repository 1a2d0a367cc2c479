"""A revision that gives a result a new id carries its records over (`revise.apply.rehome`):
the record's working state is no part of its JSON, so each slot goes through a JSON round trip
of its own type, with the paths into the audits folder moved."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.conftest import EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_record_moved_to_a_new_id_keeps_every_slot(name: str, finished_runs: Any) -> None:
    """`apply.rehome` carries a record's working state by a JSON round trip of each slot
    through its own type (the record's `work` is no part of its JSON): every slot of every
    example's records comes back equal, and only the paths into the audits folder move."""
    import paperlint.engine.steps  # noqa: F401  (the registry types the slots)
    from paperlint.records.layout import safe_name
    from paperlint.records.workspace import open_workspace
    from paperlint.revise.apply import rehome

    workdir, _ = finished_runs[name]
    for record in open_workspace(workdir).load_results().results:
        assert rehome(record, record.id).work == record.work
        assert rehome(record, record.id).model_dump() == record.model_dump()
        moved = rehome(record, "lemma:9.9")
        folder = f"audits/{safe_name(record.id)}/"
        text = moved.work.model_dump_json() + moved.model_dump_json()
        assert folder not in text
        before = record.work.model_dump_json() + record.model_dump_json()
        assert text == before.replace(folder, "audits/lemma_9.9/")
