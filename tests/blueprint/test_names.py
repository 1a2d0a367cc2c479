import re

import pytest

from paperlint.blueprint.names import (
    LEAN_KEYWORDS,
    assign_modules,
    assign_names,
    base_name,
    module_file,
    sanitise,
)

from .helpers import result

LEAN_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_']*$")


@pytest.mark.parametrize(
    ("kind", "number", "expected"),
    [
        ("lemma", "A.2", "lemma_A_2"),
        ("theorem", "3", "theorem_3"),
        ("proposition", "2.1.4", "proposition_2_1_4"),
        ("corollary", "IV", "corollary_IV"),
        ("assumption", "A1", "assumption_A1"),
        ("definition", "3.2'", "definition_3_2'"),
    ],
)
def test_unlabelled_numbered_results_are_named_by_kind_and_number(kind, number, expected):
    assert base_name(result(f"{kind}:{number}", kind, number=number, labels=[])) == expected


def test_labels_win_over_numbers_so_names_survive_renumbering():
    r = result("lem:median-bound", number="A.2")
    assert base_name(r) == "lem_median_bound"
    renumbered = r.model_copy(update={"number": "A.3"})
    assert base_name(renumbered) == base_name(r)


def test_label_without_prefix_gets_the_kind():
    assert base_name(result("key-bound", "lemma", labels=["key-bound"])) == "lemma_key_bound"


def test_other_kind_uses_the_environment_name():
    r = result("hyp:1", "other", number="1", labels=[], env="hypothesis")
    assert base_name(r) == "hypothesis_1"


def test_unnumbered_unlabelled_falls_back_to_the_id():
    assert base_name(result("lemma@1a2b3c4d", labels=[])) == "lemma_1a2b3c4d"


def test_leading_digit_is_prefixed():
    assert base_name(result("3-cycles", "lemma", labels=["3:cycles"])) == "lemma_3_cycles"


@pytest.mark.parametrize("word", ["theorem", "example", "fun", "show"])
def test_keywords_are_avoided(word):
    name = base_name(result(word, "other", labels=[], env=""))
    assert name not in LEAN_KEYWORDS
    assert LEAN_IDENT.match(name)


def test_unicode_is_transliterated_or_encoded():
    assert sanitise("lem:Müller–Schön") == "lem_Muller_Schon"
    greek = sanitise("λ")
    assert greek and LEAN_IDENT.match(greek)


def test_duplicates_get_suffixes_in_document_order():
    rs = [
        result("a", labels=["lem:x"]),
        result("b", labels=["lem-x"]),  # no ':' so prefixed: lemma_lem_x
        result("c", labels=["lem.x"]),
        result("d", labels=["lem:x!"]),
    ]
    names = assign_names(rs)
    assert names == {"a": "lem_x", "b": "lemma_lem_x", "c": "lemma_lem_x_2", "d": "lem_x_2"}
    assert assign_names(rs) == names  # deterministic


def test_modules_are_capitalised_and_unique_ignoring_case():
    modules = assign_modules({"a": "lemma_A_2", "b": "Lemma_A_2", "c": "thm_main"})
    assert modules == {"a": "Paper.Lemma_A_2", "b": "Paper.Lemma_A_2_2", "c": "Paper.Thm_main"}
    assert module_file("Paper.Lemma_A_2") == "lean/Paper/Lemma_A_2.lean"


def test_every_name_is_a_lean_identifier():
    odd = ["", "::", "1", "'x", "α-β", "lem:a b", "_x_"]
    rs = [result(f"r{i}", labels=[lab] if lab else []) for i, lab in enumerate(odd)]
    names = assign_names(rs)
    assert all(LEAN_IDENT.match(n) and n not in LEAN_KEYWORDS for n in names.values())
    assert len(set(names.values())) == len(rs)


def test_a_blueprint_lean_name_is_planned_as_written():
    r = result("lem:one", lean=["Group.one_mul", "other"], labels=["lem:one"])
    assert base_name(r) == "Group.one_mul"
    modules = assign_modules(assign_names([r]))
    assert modules == {"lem:one": "Paper.Group_one_mul"}
    assert module_file(modules["lem:one"]) == "lean/Paper/Group_one_mul.lean"


@pytest.mark.parametrize("bad", ["", "Foo..bar", "3x", "theorem", "a.by"])
def test_an_unusable_lean_name_falls_back_to_the_label(bad):
    r = result("lem:one", lean=[bad], labels=["lem:one"])
    assert base_name(r) == "lem_one"
