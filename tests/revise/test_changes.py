from pathlib import Path

from paperlint.revise.changes import carried_renames, estimate, plan_resets, revision_plan
from paperlint.revise.match import match_results
from tests.revise.helpers import blueprint, env, paper

DEF = env("definition", "def:m", r"The mean is $\avg(a,b) = (a+b)/2$.")
LEM = env("lemma", "lem:x", r"By Definition~\ref{def:m}, $\avg(a,a) = a$.", "Compute.")
COR = env("lemma", "lem:y", r"Lemma~\ref{lem:x} gives $\avg(0,0) = 0$.", "Take $a = 0$.")
USE = env("lemma", "lem:z", r"$1 + 1 = 2$.", r"Unrelated, but see Lemma~\ref{lem:x}.")
FREE = env("lemma", "lem:w", r"$2 + 2 = 4$.", "Count.")
V1 = DEF + LEM + COR + USE + FREE


def resets(tmp: Path, new_body: str, old_body: str = V1, **bib: str) -> list[tuple[str, str]]:
    old = paper(tmp, "v1", old_body, bib=bib.get("old", ""))
    new = paper(tmp, "v2", new_body, bib=bib.get("new", ""))
    found = plan_resets(
        old, new, blueprint(old), match_results(old, new), formalised=[r.id for r in old.results]
    )
    return [(r.id, r.action) for r in found]


def test_whitespace_and_comments_reset_nothing(tmp_path: Path) -> None:
    body = V1.replace("Compute.", "Compute.   % by hand\n").replace("$1 + 1", "$1   +\n 1")
    assert resets(tmp_path, body) == []


def test_proof_change_reprove_only_that_result(tmp_path: Path) -> None:
    body = V1.replace("Compute.", "Expand the definition.")
    assert resets(tmp_path, body) == [("lem:x", "re-prove")]


def test_statement_change_redrafts_regates_statement_users_reproves_proof_users(
    tmp_path: Path,
) -> None:
    body = V1.replace("(a+b)/2", r"\frac{a+b}{2}")
    # lem:y is re-gated transitively: its statement mentions lem:x, whose statement mentions def:m
    assert resets(tmp_path, body) == [
        ("def:m", "re-draft"),
        ("lem:x", "re-gate"),
        ("lem:y", "re-gate"),
        ("lem:z", "re-prove"),
    ]


def test_changed_statement_of_a_lemma_reproves_its_proof_users(tmp_path: Path) -> None:
    body = V1.replace(r"$\avg(a,a) = a$", r"$\avg(a,a) = a$ for every real $a$")
    assert resets(tmp_path, body) == [
        ("lem:x", "re-draft"),
        ("lem:y", "re-gate"),
        ("lem:z", "re-prove"),
    ]


def test_macro_change_counts_where_the_macro_is_used(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", V1)
    tex = (tmp_path / "v1" / "paper.tex").read_text().replace(r"{\avg}{m}", r"{\avg}{\mu}")
    (tmp_path / "v2").mkdir()
    (tmp_path / "v2" / "paper.tex").write_text(tex)
    from paperlint.preflight.inventory import build_inventory

    new = build_inventory(tmp_path / "v2" / "paper.tex")
    found = plan_resets(
        old, new, blueprint(old), match_results(old, new), formalised=[r.id for r in old.results]
    )
    assert {r.id: r.action for r in found} == {
        "def:m": "re-draft",
        "lem:x": "re-draft",
        "lem:y": "re-draft",
        "lem:z": "re-prove",
    }
    assert "macro \\avg used in the statement changed" in found[0].why


def test_cited_entry_change_follows_where_it_is_cited(tmp_path: Path) -> None:
    cite = env("lemma", "lem:c", "$a \\le b$.", r"By \cite[Thm 1]{k}.")
    old_bib, new_bib = (
        r"\bibitem{k} A. Author, Book, 2001.",
        r"\bibitem{k} A. Author, Book, 2nd ed.",
    )
    got = resets(tmp_path, V1 + cite, V1 + cite, old=old_bib, new=new_bib)
    assert got == [("lem:c", "re-prove")]


def test_removed_dependency_regates_its_users(tmp_path: Path) -> None:
    body = V1.replace(COR, "")
    assert resets(tmp_path, body) == []  # nothing used lem:y
    body = V1.replace(DEF, "")
    got = dict(resets(tmp_path, body))
    assert got["lem:x"] == "re-gate"


def test_unformalised_results_are_not_reset(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", V1)
    new = paper(tmp_path, "v2", V1.replace("Compute.", "Expand."))
    found = plan_resets(old, new, blueprint(old), match_results(old, new), formalised=["def:m"])
    assert found == []


def test_estimate_counts_only_the_calls_a_reset_repeats(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", V1)
    new = paper(tmp_path, "v2", V1.replace("Compute.", "Expand."))
    m = match_results(old, new)
    found = plan_resets(old, new, blueprint(old), m, formalised=[r.id for r in old.results])
    events = [
        {"type": "model_call", "result": "lem:x", "task": "architect", "cost_usd": 1.0},
        {"type": "model_call", "result": "lem:x", "task": "gate", "cost_usd": 1.0},
        {"type": "model_call", "result": "lem:x", "task": "prover", "cost_usd": 0.25},
        {"type": "model_call", "result": "lem:x", "task": "auditor", "cost_usd": None},
        {"type": "model_call", "result": "lem:w", "task": "prover", "cost_usd": 5.0},
    ]
    cost = estimate(found, events)
    assert cost["model_calls"] == 2
    assert cost["cost_usd"] == 0.25
    plan = revision_plan(m, found, cost)
    assert plan["reset"] == [{"id": "lem:x", "action": "re-prove", "why": "proof changed"}]
    assert estimate(found, [])["cost_usd"] is None


def test_kind_change_starts_the_result_over(tmp_path: Path) -> None:
    body = V1.replace("\\begin{lemma}\\label{lem:w}", "\\begin{theorem}\\label{lem:w}")
    body = body.replace("$2 + 2 = 4$.\n\\end{lemma}", "$2 + 2 = 4$.\n\\end{theorem}")
    assert resets(tmp_path, body) == [("lem:w", "re-draft")]


def test_renamed_label_is_no_edit_keeps_the_result_and_redoes_its_users(tmp_path: Path) -> None:
    """The text is the same, references renamed with it: the result keeps its records under
    the new id (`carried_renames`); its users are redone as for a changed statement (a
    statement that `\\ref`s it reads another text, a proof's checker layout names its
    modules by the id); unrelated results keep everything."""
    body = V1.replace("{lem:x}", "{lem:xx}")  # the label and every reference to it
    old = paper(tmp_path, "v1", V1)
    new = paper(tmp_path, "v2", body)
    m = match_results(old, new)
    assert ("lem:x", "lem:xx", "number") in [(p.old, p.new, p.by) for p in m.pairs]
    assert carried_renames(old, new, m) == {"lem:x"}
    found = plan_resets(old, new, blueprint(old), m, formalised=[r.id for r in old.results])
    assert [(r.id, r.action, r.why) for r in found] == [
        ("lem:y", "re-gate", "its statement depends on lem:xx, whose id changed"),
        ("lem:z", "re-prove", "its proof uses lem:xx, whose id changed"),
    ]


def test_a_draft_with_a_condition_on_a_renamed_or_removed_result_is_drafted_again(
    tmp_path: Path,
) -> None:
    """lem:z's gated draft has a condition `h_clause_…` on lem:x, by that id: once lem:x is
    renamed (or removed) the condition names no result, so re-proving lem:z is not enough."""
    old = paper(tmp_path, "v1", V1)
    formalised = [r.id for r in old.results]
    for label, body in [
        ("renamed", V1.replace("{lem:x}", "{lem:xx}")),
        ("removed", V1.replace(LEM, "")),
    ]:
        new = paper(tmp_path, label, body)
        m = match_results(old, new)
        found = plan_resets(
            old, new, blueprint(old), m, formalised=formalised, clauses={"lem:z": ["lem:x"]}
        )
        z = next(r for r in found if r.id == "lem:z")
        assert z.action == "re-draft"
        shown = "lem:xx, whose id changed" if label == "renamed" else "lem:x, which was removed"
        assert f"its draft has a condition on {shown}" in z.why
        unrelated = plan_resets(
            old, new, blueprint(old), m, formalised=formalised, clauses={"lem:z": ["lem:w"]}
        )
        assert ("lem:z", "re-draft") not in [(r.id, r.action) for r in unrelated]


def test_an_issue_whose_quote_is_gone_is_found_again(tmp_path: Path) -> None:
    old = paper(tmp_path, "v1", V1)
    new = paper(tmp_path, "v2", V1)
    text = (tmp_path / "v2" / "paper.tex").read_text()
    m = match_results(old, new)
    formalised = [r.id for r in old.results]
    quotes = {"lem:w": ("paper.tex", "$2 + 2 = 4$")}
    kept = plan_resets(
        old,
        new,
        blueprint(old),
        m,
        formalised=formalised,
        quotes=quotes,
        sources={"paper.tex": text},
    )
    assert kept == []
    # A reflow moves a line break, not a word: the quote is still there (issue #12).
    reflowed = {"paper.tex": text.replace("$2 + 2 = 4$", "$2 + 2\n= 4$")}
    still = plan_resets(
        old, new, blueprint(old), m, formalised=formalised, quotes=quotes, sources=reflowed
    )
    assert still == []
    edited = {"paper.tex": text.replace("$2 + 2 = 4$", "$2 + 2 = 5$")}
    gone = plan_resets(
        old, new, blueprint(old), m, formalised=formalised, quotes=quotes, sources=edited
    )
    assert [(r.id, r.action) for r in gone] == [("lem:w", "re-prove")]


def test_an_unlabelled_result_renumbered_keeps_its_records_and_its_users_are_redone(
    tmp_path: Path,
) -> None:
    """A lemma inserted at the top renumbers the unlabelled lemma (`lemma:3` -> `lemma:4`):
    its id is its number, its text is unchanged, so it keeps its records under the new id
    (the revision event's `renamed`; `carried_renames`). A result that names it in plain text
    ("Lemma 3", which the author updates to "Lemma 4") is redone as for any renamed result:
    its checker layout names the used lemma's modules by the id. The labelled result that is
    only renumbered keeps everything, as before."""
    plain = env("lemma", None, r"$3 + 3 = 6$.", "Count.")
    user = env("lemma", "lem:u", r"$6 = 6$.", "By Lemma 3, and reflexivity.")
    old_body = DEF + LEM + plain + user
    inserted = env("lemma", None, r"$0 = 0$.", "Trivial.")
    new_body = inserted + DEF + LEM + plain + user.replace("Lemma 3", "Lemma 4")
    old = paper(tmp_path, "v1", old_body)
    new = paper(tmp_path, "v2", new_body)
    assert [r.id for r in old.results] == ["def:m", "lem:x", "lemma:3", "lem:u"]
    assert [r.id for r in new.results] == ["lemma:1", "def:m", "lem:x", "lemma:4", "lem:u"]
    m = match_results(old, new)
    assert carried_renames(old, new, m) == {"lemma:3"}
    found = plan_resets(old, new, blueprint(old), m, formalised=[r.id for r in old.results])
    assert [(r.id, r.action, r.why) for r in found] == [
        ("lem:u", "re-prove", "proof changed; its proof uses lemma:4, whose id changed")
    ]


def test_a_label_added_or_removed_is_an_edit_not_a_carried_rename(tmp_path: Path) -> None:
    """`\\label{lem:w}` removed (the id becomes the number) or added (the number becomes a
    label): the statement's text changed, and the result is started over."""
    unlabelled = V1.replace("\\label{lem:w}", "")
    for name, before, after, was, now in [
        ("lost", V1, unlabelled, "lem:w", "lemma:5"),
        ("gained", unlabelled, V1, "lemma:5", "lem:w"),
    ]:
        old = paper(tmp_path / name, "v1", before)
        new = paper(tmp_path / name, "v2", after)
        m = match_results(old, new)
        assert (was, now) in [(p.old, p.new) for p in m.pairs]
        assert carried_renames(old, new, m) == set()
        found = plan_resets(old, new, blueprint(old), m, formalised=[r.id for r in old.results])
        assert (now, "re-draft") in [(r.id, r.action) for r in found]
