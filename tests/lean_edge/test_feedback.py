from paperlint.lean.feedback import GOAL_CHARS, MESSAGE_CHARS, render, render_feedback
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanMessage, Outcome


def _m(line, text, severity="error"):
    return LeanMessage(severity=severity, line=line, column=0, text=text)


def test_comments_go_above_the_line_with_its_indent():
    text = "theorem t : True := by\n  exact foo\n  done"
    out = render(text, [_m(2, "unknown   identifier\n 'foo'")])
    assert out.splitlines() == [
        "theorem t : True := by",
        "  -- ✗ error: unknown identifier 'foo'",
        "  exact foo",
        "  done",
    ]


def test_truncation_and_entry_cap():
    long = "x" * 1000
    out = render("a\nb", [_m(1, long)] + [_m(1, f"e{i}") for i in range(6)])
    first = out.splitlines()[0]
    assert len(first) <= len("-- ✗ error: ") + MESSAGE_CHARS
    assert out.count("-- ✗ error:") == 4 and "more messages" in out
    goal = render("a", [], [(1, "⊢ " + "y" * 1000)])
    assert len(goal.splitlines()[0]) <= len("-- goal: ") + GOAL_CHARS


def test_out_of_range_lines_go_on_top_and_quoted_goals_drop():
    out = render("a\nb", [_m(0, "header problem"), _m(2, "unsolved goals\n⊢ P")], [(2, "⊢ P")])
    lines = out.splitlines()
    assert lines[0] == "-- ✗ error: header problem"
    assert out.count("-- goal: ⊢ P") == 1


def test_render_feedback_for_a_hint_only_check():
    check = LeanCheck(outcome=Outcome.TIMEOUT, code=FailureCode.TIMEOUT, hint="wall clock")
    assert render_feedback("t", check).splitlines()[0] == "-- ✗ timeout: wall clock"
