"""The declaration index over the recorded (hand-written, see build_index_fixture) extraction."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import pytest

from paperlint.errors import InputError
from paperlint.lean.extraction import parse_extraction, read_extraction
from paperlint.prover.index import DeclIndex, IndexFile, save_index, saved_file
from paperlint.prover.tokens import name_tokens, query_tokens, type_tokens
from tests.prover import build_index_fixture

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "decl_index" / "extract.jsonl"
QUERIES = tomllib.loads((ROOT / "fixtures" / "decl_index" / "queries.toml").read_text())["query"]


@pytest.fixture(scope="module")
def index() -> DeclIndex:
    return DeclIndex(read_extraction(FIXTURE))


def test_fixture_is_up_to_date() -> None:
    assert FIXTURE.read_text(encoding="utf-8") == "\n".join(build_index_fixture.lines()) + "\n"


@pytest.mark.parametrize("case", QUERIES, ids=[q["query"] for q in QUERIES])
def test_the_queries_written_before_the_code_find_their_lemma(index: DeclIndex, case: dict) -> None:
    names = [hit.name for hit in index.search(case["query"], limit=case["top"])]
    assert case["expect"] in names, names


def test_twenty_queries_were_fixed() -> None:
    assert len(QUERIES) == 20


def test_hidden_names_never_come_back(index: DeclIndex) -> None:
    query = "max of two reals is at least the left one"
    assert index.search(query, limit=3)[0].name == "le_max_left"
    hidden = frozenset({"le_max_left"})
    hits = index.search(query, limit=3, hidden=hidden)
    assert "le_max_left" not in [h.name for h in hits]
    assert len(hits) == 3


def test_an_exact_name_comes_first(index: DeclIndex) -> None:
    assert index.search("Real.log_le_sub_one_of_pos", limit=1)[0].name == (
        "Real.log_le_sub_one_of_pos"
    )


def test_search_is_deterministic_and_bounded(index: DeclIndex) -> None:
    first = index.search("positive", limit=4)
    assert first == index.search("positive", limit=4)
    assert len(first) == 4
    assert index.search("zzzz qqqq", limit=4) == []


@pytest.mark.parametrize(
    ("name", "tokens"),
    [
        ("Real.add_one_le_exp", ["real", "add", "one", "le", "exp"]),
        ("Finset.sum_nonneg", ["finset", "sum", "nonneg"]),
        ("HasDerivAt.comp", ["has", "deriv", "at", "comp"]),
        ("inv_lt_inv₀", ["inv", "lt", "inv"]),  # subscripts are dropped
    ],
)
def test_name_tokens(name: str, tokens: list[str]) -> None:
    assert name_tokens(name) == tokens


def test_binder_colons_and_arrows_are_not_notation() -> None:
    tokens = type_tokens("∀ {α : Type u_1} [inst : LinearOrder α] (a b : α), a ≤ max a b")
    assert tokens.count("le") == 1 and "max" in tokens and "imp" not in tokens


def test_query_words_map_to_mathlib_vocabulary() -> None:
    assert query_tokens("max of two reals is at least the left one") == [
        "le",
        "max",
        "real",
        "left",
        "one",
    ]
    assert "dvd" in query_tokens("a divides b") and "pow" in query_tokens("a ^ 2")


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "extract.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


HEADER = json.dumps({"schema": "paperlint.decl_extract/1", "lean": "4.35.0"})
ROW = json.dumps({"name": "foo", "kind": "theorem", "module": "M", "type": "True", "doc": None})


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty"),
        ([json.dumps({"schema": "other/1"}), ROW, '{"end": 1}'], "not a paperlint.decl_extract/1"),
        ([HEADER, ROW], "no end line"),
        ([HEADER, ROW, '{"end": 2}'], "counts 2"),
        ([HEADER, "{not json", '{"end": 1}'], "not JSON"),
        ([HEADER, json.dumps({"name": "x"}), '{"end": 1}'], "bad declaration"),
    ],
)
def test_an_unusable_extraction_is_refused(tmp_path: Path, lines: list[str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_extraction(_write(tmp_path, lines))


def test_a_complete_extraction_parses() -> None:
    decls = parse_extraction([HEADER, ROW, '{"end": 1, "skipped": 3}'])
    assert [d.name for d in decls] == ["foo"]


# --- the saved index (`paperlint setup` saves it; a run opens it at the first search) --------


@pytest.fixture()
def extraction(tmp_path: Path) -> Path:
    path = tmp_path / "extract.jsonl"
    path.write_bytes(FIXTURE.read_bytes())
    return path


def test_a_saved_index_answers_every_query_as_the_built_one(
    index: DeclIndex, extraction: Path
) -> None:
    target = save_index(extraction)
    assert target == saved_file(extraction) and target.is_file()
    loaded = DeclIndex.load(target, extraction)
    assert loaded is not None and len(loaded) == len(index)
    for case in QUERIES:
        assert loaded.search(case["query"], limit=case["top"]) == index.search(
            case["query"], limit=case["top"]
        )
    hidden = frozenset({"le_max_left"})
    query = "max of two reals is at least the left one"
    assert loaded.search(query, hidden=hidden) == index.search(query, hidden=hidden)
    assert loaded.get("le_max_left") == index.get("le_max_left")


def test_a_saved_index_of_another_extraction_is_not_used(extraction: Path) -> None:
    target = save_index(extraction)
    extraction.write_text(extraction.read_text() + "\n")  # rewritten: another size and time
    assert DeclIndex.load(target, extraction) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: b'{"schema": "other/1"}\n' + data.split(b"\n", 1)[1],
        lambda data: data.replace(b'"sections": [', b'"sections": [1, ', 1),
        lambda data: b"not json\n" + data,
        lambda data: data[:-8] + b"\xff\xff\xff\x7f" * 2,  # weights only: still in range
    ],
    ids=["truncated", "schema", "sections", "header", "tail"],
)
def test_a_damaged_saved_index_is_never_trusted_blindly(extraction: Path, damage) -> None:
    target = save_index(extraction)
    target.write_bytes(damage(target.read_bytes()))
    loaded = DeclIndex.load(target, extraction)
    # refused, or (a weight changed) still a well-formed index whose search answers
    assert loaded is None or len(loaded.search("le max", limit=3)) == 3
    # and the lazy file falls back to building from the extraction when refused
    assert IndexFile(extraction).search("le max", limit=1)


def test_out_of_range_postings_are_refused(extraction: Path) -> None:
    target = save_index(extraction)
    data = bytearray(target.read_bytes())
    header_end = data.index(b"\n")
    sizes = json.loads(data[:header_end])["sections"]
    ids_at = header_end + 1 + sum(sizes[:3])
    data[ids_at : ids_at + 4] = (10**9).to_bytes(4, sys.byteorder)
    target.write_bytes(bytes(data))
    assert DeclIndex.load(target, extraction) is None


def test_an_index_file_reads_nothing_until_the_first_search(
    extraction: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_index(extraction)
    reads: list[str] = []
    real = DeclIndex.load.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        DeclIndex, "load", classmethod(lambda cls, *a: reads.append("load") or real(cls, *a))
    )
    lazy = IndexFile(extraction)
    assert reads == []
    assert lazy.search("Real.log_le_sub_one_of_pos", limit=1)[0].name == (
        "Real.log_le_sub_one_of_pos"
    )
    lazy.search("positive")
    assert reads == ["load"]
