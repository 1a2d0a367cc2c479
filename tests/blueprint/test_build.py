import json

import pytest
from pydantic import ValidationError

from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.fingerprint import tex_sha256
from paperlint.blueprint.model import BLUEPRINT_SCHEMA, Blueprint, ExternalInput
from paperlint.preflight.model import BibEntry, Citation, Macro

from .helpers import inventory, result

HOEFFDING = "W. Hoeffding. Probability inequalities for sums of bounded random variables. 1963."


def paper():
    return inventory(
        result("def:trimmed", "definition", number="2.1", statement=r"The trimmed mean $\T_n$."),
        result(
            "lem:median",
            number="A.2",
            statement=r"Let $X_1,\dots,X_n$ be i.i.d. Then $\E|\T_n - \mu| \le \Var(X)$.",
            proof=r"By \cite[Theorem 2]{hoeffding1963} and \cite{missing}. % todo" "\n$\\Exp$",
            uses=["def:trimmed"],
            citations=[
                Citation(key="hoeffding1963", note="Theorem 2", where="proof"),
                Citation(key="hoeffding1963", note="Theorem 2", where="proof"),
                Citation(key="missing", where="proof"),
            ],
        ),
        result("rem:sharp", "remark", number="3"),
        result("conj:open", "conjecture", number="4"),
        result("claim:x", "claim", labels=[], number=None),
        bibliography=[BibEntry(key="hoeffding1963", text=HOEFFDING)],
        macros=[
            Macro(name="\\E", definition="\\mathbb{E}"),
            Macro(name="\\T", definition="T", arity=0),
            Macro(name="\\Var", definition="\\operatorname{Var}"),
            Macro(name="\\P", definition="\\mathbb{P}"),
        ],
    )


def test_entries_carry_names_modules_and_files():
    bp = build_blueprint(paper())
    entry = bp.entry("lem:median")
    assert entry is not None
    assert (entry.lean_name, entry.module, entry.lean_file) == (
        "lem_median",
        "Paper.Lem_median",
        "lean/Paper/Lem_median.lean",
    )
    assert entry.number == "A.2" and entry.kind == "lemma"
    claim = bp.entry("claim:x")
    assert claim is not None and claim.lean_name == "claim_x"


def test_inputs_are_not_verdict_bearing():
    bearing = {e.id: e.verdict_bearing for e in build_blueprint(paper()).entries}
    assert bearing == {
        "def:trimmed": False,
        "lem:median": True,
        "rem:sharp": False,
        "conj:open": False,
        "claim:x": True,
    }


def test_citations_become_external_inputs_with_locators_and_bib_text():
    bp = build_blueprint(paper())
    entry = bp.entry("lem:median")
    assert entry is not None
    assert entry.external_inputs == [
        ExternalInput(key="hoeffding1963", locator="Theorem 2", where="proof", bib_text=HOEFFDING),
        ExternalInput(key="missing", locator=None, where="proof", bib_text=None),
    ]
    missing = [d for d in bp.diagnostics if d.code == "citation-without-entry"]
    assert len(missing) == 1 and "'missing'" in missing[0].message


def test_macros_used_match_whole_control_words():
    entry = build_blueprint(paper()).entry("lem:median")
    assert entry is not None
    # \E occurs; \Exp in the proof does not count as \E; \P does not occur at all
    assert entry.macros_used == ["\\E", "\\T", "\\Var"]


def test_fingerprints_are_of_normalised_tex():
    bp = build_blueprint(paper())
    entry = bp.entry("lem:median")
    assert entry is not None
    assert entry.statement_sha256 == tex_sha256(paper().results[1].statement)
    assert entry.proof_sha256 is not None
    rem = bp.entry("rem:sharp")
    assert rem is not None and rem.proof_sha256 is None


def test_reformatting_the_paper_changes_no_fingerprint_but_an_edit_does():
    before = build_blueprint(paper())
    inv = paper()
    lemma = inv.results[1]
    lemma.statement = lemma.statement.replace(" Then", "\n   % reflowed\n  Then")
    assert build_blueprint(inv).entries[1].statement_sha256 == before.entries[1].statement_sha256
    lemma.statement = lemma.statement.replace(r"\le", "<")
    assert build_blueprint(inv).entries[1].statement_sha256 != before.entries[1].statement_sha256


def test_build_is_pure_and_deterministic():
    inv = paper()
    snapshot = inv.model_dump_json()
    assert build_blueprint(inv) == build_blueprint(inv)
    assert inv.model_dump_json() == snapshot


def test_record_round_trips_through_json_with_its_schema():
    bp = build_blueprint(paper())
    text = bp.model_dump_json(by_alias=True)
    data = json.loads(text)
    assert data["schema"] == BLUEPRINT_SCHEMA == "paperlint.blueprint/1"
    assert set(data) == {
        "schema",
        "entries",
        "order",
        "cycles",
        "edges",
        "dropped_edges",
        "diagnostics",
    }
    assert Blueprint.model_validate_json(text) == bp


def test_record_rejects_unknown_fields_and_other_schemas():
    data = json.loads(build_blueprint(paper()).model_dump_json(by_alias=True))
    with pytest.raises(ValidationError):
        Blueprint.model_validate({**data, "surprise": 1})
    with pytest.raises(ValidationError):
        Blueprint.model_validate({**data, "schema": "paperlint.blueprint/2"})


def test_empty_inventory_gives_an_empty_blueprint():
    bp = build_blueprint(inventory())
    assert (bp.entries, bp.order, bp.edges, bp.cycles) == ([], [], [], [])
