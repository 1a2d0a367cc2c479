import pytest

from paperlint.faithful.statement import BinderRole, parse_statement, pin_universes

TEXT = (
    "/-- doc -/\ntheorem Paper.mid {α : Type*} [Fintype α] (x y : ℝ) (h : x ≤ y)\n"
    "    (hf : Continuous f) (n : ℕ) : (x + y) / 2 ≤ y := by\n  sorry -- : not a colon"
)


def test_groups_roles_and_conclusion():
    s = parse_statement(TEXT)
    assert s is not None and s.name == "Paper.mid" and s.short_name == "mid"
    assert [(g.bracket, g.name_texts(), g.type, g.role) for g in s.groups] == [
        ("{", ("α",), "Type*", BinderRole.VARIABLE),
        ("[", (), "Fintype α", BinderRole.INSTANCE),
        ("(", ("x", "y"), "ℝ", BinderRole.VARIABLE),
        ("(", ("h",), "x ≤ y", BinderRole.HYPOTHESIS),
        ("(", ("hf",), "Continuous f", BinderRole.HYPOTHESIS),
        ("(", ("n",), "ℕ", BinderRole.VARIABLE),
    ]
    assert s.conclusion == "(x + y) / 2 ≤ y"
    assert s.explicit_names() == ["x", "y", "h", "hf", "n"]


def test_proposition_and_without():
    s = parse_statement("theorem t (x y : ℕ) (h : x < y) : x ≤ y := by omega")
    assert s.proposition() == "∀ (x y : ℕ) (h : x < y), x ≤ y"
    assert s.without("y").signature() == "(x : ℕ) (h : x < y)"
    assert s.without("h").theorem("t2", s.body) == "theorem t2 (x y : ℕ) : x ≤ y := by omega"
    assert parse_statement("theorem c : 1 = 1 := rfl").proposition() == "1 = 1"


@pytest.mark.parametrize(
    "text",
    [
        "theorem u.{v} (α : Sort v) : True := trivial",  # universe parameters: not read
        "def d := 3",  # no type
        "open Foo",  # no declaration
    ],
)
def test_unreadable_signatures_give_none(text):
    assert parse_statement(text) is None


def test_hypothesis_named_h_of_a_type_is_a_variable():
    s = parse_statement("theorem t (h : ℕ) (hk : Fin 3) (hx : P x) : True := trivial")
    assert [g.role for g in s.groups] == [
        BinderRole.VARIABLE,
        BinderRole.VARIABLE,
        BinderRole.HYPOTHESIS,
    ]


def test_pin_universes_only_rewrites_code():
    text = "∀ {α : Type*} {β : Sort*}, α -- Type* in a comment"
    pinned, changed = pin_universes(text)
    assert changed
    assert pinned == "∀ {α : Type u_faithful} {β : Sort u_faithful}, α -- Type* in a comment"
    assert pin_universes("∀ (n : ℕ), n * 2 = n + n") == ("∀ (n : ℕ), n * 2 = n + n", False)
