"""Named destinations: the /Names name tree (with /Kids) and the old /Dests dictionary."""

from __future__ import annotations

from types import SimpleNamespace

from paperlint.preflight.pdf.extract import _destinations


def _ref(objid):
    return SimpleNamespace(objid=objid)


def test_name_tree_with_kids_and_dictionary_values():
    leaf_a = {"Names": [b"theorem.3.1", [_ref(10), "XYZ", 72, 583.7, None]]}
    leaf_b = {"Names": [b"lemma.A.1", {"D": [_ref(11), "XYZ", 72, 400, None]}]}
    catalog = {"Names": {"Dests": {"Kids": [leaf_a, leaf_b]}}}
    found = list(_destinations(SimpleNamespace(catalog=catalog), {10: 6, 11: 15}))
    assert [(d.name, d.page, d.y, d.x) for d in found] == [
        ("theorem.3.1", 6, 583.7, 72.0),
        ("lemma.A.1", 15, 400.0, 72.0),
    ]


def test_old_style_dests_dictionary_and_unknown_pages():
    catalog = {"Dests": {"theorem.1": [_ref(10), "Fit"], "lemma.2": [_ref(99), "XYZ", 0, 1, 0]}}
    found = list(_destinations(SimpleNamespace(catalog=catalog), {10: 1}))
    # /Fit carries no position; a page object we do not know is dropped
    assert [(d.name, d.page, d.y) for d in found] == [("theorem.1", 1, None)]


def test_destination_types_give_their_position():
    catalog = {
        "Dests": {
            "theorem.1": [_ref(10), "FitH", 600],
            "theorem.2": [_ref(10), "FitBH", 500.5],
            "theorem.3": [_ref(10), "FitR", 72, 100, 300, 450],
            "theorem.4": [_ref(10), "XYZ", 90, 400, 0],
            "theorem.5": [_ref(10), "FitB"],
        }
    }
    found = list(_destinations(SimpleNamespace(catalog=catalog), {10: 2}))
    assert [(d.name, d.y, d.x) for d in found] == [
        ("theorem.1", 600.0, None),
        ("theorem.2", 500.5, None),
        ("theorem.3", 450.0, 72.0),
        ("theorem.4", 400.0, 90.0),
        ("theorem.5", None, None),
    ]
