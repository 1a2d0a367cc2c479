from pathlib import Path

from paperlint.revise.match import match_results, similarity
from tests.revise.helpers import env, paper

A = env("lemma", None, "For all $x$, $x + 0 = x$.", "Trivial.")
B = env("lemma", None, "For all $x$ and $y$, $x y = y x$ in every commutative ring.", "Ring.")
C = env("lemma", None, "Every bounded monotone sequence of reals converges.", "Sup.")


def test_match_by_label_survives_renumbering(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", env("lemma", "lem:a", "One.") + env("lemma", "lem:b", "Two."))
    new = paper(
        tmp_path,
        "v2",
        env("lemma", "lem:new", "Zero and more.")
        + env("lemma", "lem:a", "One.")
        + env("lemma", "lem:b", "Two."),
    )
    m = match_results(old, new)
    assert [(p.old, p.new, p.by) for p in m.pairs] == [
        ("lem:a", "lem:a", "label"),
        ("lem:b", "lem:b", "label"),
    ]
    assert [(p.new, p.old_number, p.new_number) for p in m.renumbered] == [
        ("lem:a", "1", "2"),
        ("lem:b", "2", "3"),
    ]
    assert m.added == ["lem:new"]
    assert m.removed == []
    assert m.moved == []


def test_unlabelled_inserted_early_is_matched_by_text_not_number(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", A + B)
    new = paper(tmp_path, "v2", C + A + B)
    m = match_results(old, new)
    # ids of unlabelled results carry their number, so every id moved one along
    assert {(p.old, p.new) for p in m.pairs} == {("lemma:1", "lemma:2"), ("lemma:2", "lemma:3")}
    assert m.added == ["lemma:1"]


def test_unlabelled_edited_in_place_is_matched_by_number(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", A + B)
    edited = env("lemma", None, "For all $x$, $0 + x = x$.", "Trivial.")
    new = paper(tmp_path, "v2", edited + B)
    m = match_results(old, new)
    assert [(p.old, p.new, p.by) for p in m.pairs] == [
        ("lemma:1", "lemma:1", "number"),
        ("lemma:2", "lemma:2", "number"),
    ]


def test_removed_and_moved(tmp_path: Path) -> None:
    one = env("lemma", "lem:1", "First claim about sets.")
    two = env("lemma", "lem:2", "Second claim about groups.")
    three = env("lemma", "lem:3", "Third claim about rings.")
    old = paper(tmp_path, "v1", one + two + three)
    new = paper(tmp_path, "v2", three + two)
    m = match_results(old, new)
    assert m.removed == ["lem:1"]
    assert m.moved == ["lem:3"]  # lem:2 kept its place relative to the others


def test_similarity_ignores_whitespace_and_comments() -> None:
    assert similarity("a  +\n b % note\n", "a + b") == 1.0
    assert similarity("a + b", "a - b") < 1.0
