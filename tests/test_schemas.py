"""The committed JSON Schemas of the contract records and of the engine state file match the
models (no silent drift)."""

import pytest

from paperlint.records.schemas import committed_models, render_schema
from tests.conftest import ROOT


@pytest.mark.parametrize("name", sorted(committed_models()))
def test_committed_schema_matches_the_model(name):
    committed = (ROOT / "schemas" / f"{name}.schema.json").read_text()
    assert committed == render_schema(committed_models()[name]), (
        f"schemas/{name}.schema.json is stale: run `python -m paperlint.records.schemas`, "
        "review the diff, and bump the schema version if a contract changed"
    )
