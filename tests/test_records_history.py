"""Which result an event names now (`paperlint.records.history`): ids across revisions that
renumber unlabelled results, results removed and added, and revisions undone."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlint.records.history import event_names, names_then, with_names_now


def call(result: str) -> dict[str, Any]:
    return {"type": "model_call", "result": result}


def revision(snapshot: str, renamed=None, added=(), removed=()) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {
        "type": "revision",
        "snapshot": snapshot,
        "renamed": dict(renamed or {}),
        "added": list(added),
        "removed": list(removed),
    }


def undone(snapshot: str) -> dict[str, Any]:
    return {"type": "revision_undone", "snapshot": snapshot}


# A lemma inserted above two unlabelled results: lemma:2.2 -> lemma:2.3, proposition:2.3 ->
# proposition:2.4, and the new lemma takes lemma:2.2.
INSERTED = revision(
    "s1",
    {"lemma:2.2": "lemma:2.3", "proposition:2.3": "proposition:2.4"},
    added=["lemma:2.2"],
)


def test_an_event_names_the_result_by_the_id_it_has_now() -> None:
    events = [
        call("lemma:2.2"),
        call("proposition:2.3"),
        call("thm:main"),
        INSERTED,
        call("lemma:2.2"),  # the inserted lemma
        call("lemma:2.3"),
    ]
    names = event_names(events)
    assert names.now == (
        "lemma:2.3",
        "proposition:2.4",
        "thm:main",
        None,
        "lemma:2.2",
        "lemma:2.3",
    )
    assert names.latest == (False, False, False, True, True, True)


def test_renames_apply_at_once_so_a_chain_of_renumberings_swaps_nothing() -> None:
    shift = revision("s1", {"lemma:1": "lemma:2", "lemma:2": "lemma:3", "lemma:3": "lemma:4"})
    names = event_names([call("lemma:1"), call("lemma:2"), call("lemma:3"), shift])
    assert names.now[:3] == ("lemma:2", "lemma:3", "lemma:4")


def test_two_revisions_compose_and_a_removed_result_is_named_by_none() -> None:
    events = [
        call("lemma:2.2"),
        call("lemma:9"),
        INSERTED,
        call("lemma:2.3"),
        revision("s2", {"lemma:2.3": "lemma:3.1"}, removed=["lemma:9"]),
    ]
    names = event_names(events)
    assert names.now == ("lemma:3.1", None, None, "lemma:3.1", None)
    assert names.former("lemma:3.1") == {"lemma:3.1", "lemma:2.3", "lemma:2.2"}


def test_an_added_result_had_no_name_before_its_revision() -> None:
    """The inserted lemma:2.2 is not the lemma:2.2 of before: that one is lemma:2.3 now."""
    names = event_names([call("lemma:2.2"), INSERTED])
    assert names.former("lemma:2.2") == {"lemma:2.2"}
    assert names.former("lemma:2.3") == {"lemma:2.3", "lemma:2.2"}
    assert names.former("thm:main") == {"thm:main"}


def test_what_was_written_between_a_revision_and_its_undo_names_nothing_now() -> None:
    """The undo restores the records of before the revision: the verdicts written in between
    are about records that are gone (`validate` found a mismatch there before)."""
    events = [
        call("lemma:2.2"),
        INSERTED,
        call("lemma:2.2"),
        call("lemma:2.3"),
        undone("s1"),
        call("lemma:2.2"),
    ]
    names = event_names(events)
    assert names.now == ("lemma:2.2", None, None, None, None, "lemma:2.2")
    assert names.latest == (True, False, False, False, True, True)
    assert names.former("lemma:2.2") == {"lemma:2.2"}


def test_an_undo_of_another_snapshot_than_the_newest_revision_changes_nothing() -> None:
    events = [call("lemma:2.2"), INSERTED, undone("s0"), call("lemma:2.3")]
    assert event_names(events).now == ("lemma:2.3", None, None, "lemma:2.3")


def test_a_revision_from_before_renamed_existed_renames_nothing() -> None:
    old = {"type": "revision", "snapshot": "s1", "added": [], "removed": ["lemma:3"]}
    names = event_names([call("lemma:2"), call("lemma:3"), old, call("lemma:2")])
    assert names.now == ("lemma:2", None, None, "lemma:2")


@pytest.mark.parametrize(
    "damaged",
    [
        {"type": "revision"},
        {"type": "revision", "snapshot": "s1", "renamed": ["lemma:1"], "removed": "lemma:2"},
        {"type": "revision", "snapshot": "s1", "renamed": {"lemma:1": 2}, "added": [None]},
    ],
)
def test_a_damaged_revision_line_is_read_as_far_as_it_goes(damaged: dict[str, Any]) -> None:
    names = event_names([call("lemma:1"), damaged, call("lemma:1")])
    assert names.now == ("lemma:1", None, "lemma:1")


def test_with_names_now_rewrites_only_the_result_field() -> None:
    events = [call("lemma:2.2") | {"cost_usd": 0.5}, INSERTED, {"type": "run_finished"}]
    assert with_names_now(events) == [
        {"type": "model_call", "result": "lemma:2.3", "cost_usd": 0.5},
        {**INSERTED, "result": None} if "result" in INSERTED else INSERTED,
        {"type": "run_finished"},
    ]
    assert events[0]["result"] == "lemma:2.2"  # the events given are not changed


_IDS = st.sampled_from(["lemma:1", "lemma:2", "lemma:3", "lemma:4"])


@given(st.permutations(["lemma:1", "lemma:2", "lemma:3", "lemma:4"]), st.lists(_IDS, max_size=6))
def test_a_renaming_then_its_undo_leaves_every_later_event_as_written(
    order: list[str], later: list[str]
) -> None:
    renamed = dict(zip(["lemma:1", "lemma:2", "lemma:3", "lemma:4"], order, strict=True))
    events = [call(i) for i in later] + [revision("s", renamed), undone("s")]
    events += [call(i) for i in later]
    now = event_names(events).now
    assert list(now[: len(later)]) == later
    assert list(now[-len(later) :] if later else []) == later


@given(st.permutations(["lemma:1", "lemma:2", "lemma:3", "lemma:4"]))
def test_former_inverts_a_permutation(order: list[str]) -> None:
    before = ["lemma:1", "lemma:2", "lemma:3", "lemma:4"]
    renamed = {old: new for old, new in zip(before, order, strict=True) if old != new}
    names = event_names([*(call(i) for i in before), revision("s", renamed)])
    for old, new in zip(before, order, strict=True):
        assert names.now[before.index(old)] == new
        assert names.former(new) == {old, new}


def test_names_written_with_an_event_are_followed_to_now() -> None:
    """A record that names results without a `result` field (the convergence review's flags)
    is read as of the event written with it."""
    review = {"type": "convergence_reviewed"}
    events = [review, INSERTED, undone("s1"), review, INSERTED]
    ids = ["lemma:2.2", "proposition:2.3", "thm:main"]
    assert names_then(events, 0, ids) == ["lemma:2.3", "proposition:2.4", "thm:main"]
    assert names_then(events, 3, ids) == names_then(events, 0, ids)
    assert names_then(events, 1, ids) == [None, None, None]  # its revision was undone
    assert names_then(events, 4, ["lemma:2.2"]) == ["lemma:2.2"]
