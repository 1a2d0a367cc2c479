"""Renumbered unlabelled results: records, audit folders and Lean names follow the new ids
without ever writing over another result's evidence."""

from pathlib import Path

from paperlint.records.results import Evidence, ResultRecord
from paperlint.records.workspace import Workspace
from paperlint.revise.apply import carry_names, rehome
from paperlint.revise.match import match_results
from paperlint.revise.revise import _move_audit_folders
from tests.revise.helpers import blueprint, env, paper

A = env("lemma", None, "For all $x$, $x + 0 = x$.", "Trivial.")
B = env("lemma", None, "For all $x$ and $y$, $x y = y x$ in every commutative ring.", "Ring.")
C = env("lemma", None, "Every bounded monotone sequence of reals converges.", "Sup.")


def test_rehome_moves_paths_into_the_new_folder() -> None:
    record = ResultRecord(
        id="lemma:1",
        number="1",
        kind="lemma",
        evidence=Evidence(gate="audits/lemma_1/gate-1.json", hashes={"audits/lemma_1/x": "h"}),
    )
    moved = rehome(record, "lemma:2")
    assert moved.evidence.gate == "audits/lemma_2/gate-1.json"
    assert moved.evidence.hashes == {"audits/lemma_2/x": "h"}


def test_an_inserted_unlabelled_lemma_gets_a_name_of_its_own(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", A + B)
    new = paper(tmp_path, "v2", C + A + B)
    carried = carry_names(blueprint(new), blueprint(old), match_results(old, new))
    names = {e.id: (e.lean_name, e.lean_file) for e in carried.entries}
    old_names = {e.id: (e.lean_name, e.lean_file) for e in blueprint(old).entries}
    assert names["lemma:2"] == old_names["lemma:1"]
    assert names["lemma:3"] == old_names["lemma:2"]
    assert names["lemma:1"][0] not in {n for n, _ in old_names.values()}
    assert len({f for _, f in names.values()}) == 3


def test_audit_folders_follow_a_chain_of_renumberings(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    for rid in ("lemma_1", "lemma_2", "lemma_9"):
        (tmp_path / "audits" / rid).mkdir(parents=True)
        (tmp_path / "audits" / rid / "gate-1.json").write_text(rid)
    plan = {
        "matched": [{"old": "lemma:1", "new": "lemma:2"}, {"old": "lemma:2", "new": "lemma:3"}],
        "removed": ["lemma:9"],
    }
    _move_audit_folders(ws, plan)
    found = {p.parent.name: p.read_text() for p in (tmp_path / "audits").rglob("gate-1.json")}
    assert found == {"lemma_2": "lemma_1", "lemma_3": "lemma_2"}
