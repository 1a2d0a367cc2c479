from paperlint.lean.messages import (
    SORRY_WARNING,
    AxiomClass,
    classify_axiom,
    disallowed_axioms,
    insert_before_trailing_end,
    is_heartbeat_error,
    map_line,
    marked_axiom_queries,
    marker_id,
    parse_axiom_answers,
    parse_lean_output,
    parse_marked_axioms,
    parse_repl_axioms,
    unsolved_goals,
)

# What `lake env lean` prints (docs/lean-notes.md §7; illustrative, hand-written)
FINAL_OUTPUT = """Paper/Lemma_A2.lean:14:8: warning: declaration uses `sorry`
Paper/Lemma_A2.lean:21:2: error: unsolved goals
x : ℝ
⊢ 0 < x
'Paper.lemma_A2' depends on axioms: [propext, sorryAx, Classical.choice, Quot.sound]
"""


def test_sorry_warning_both_quote_styles():
    assert SORRY_WARNING.search("declaration uses `sorry`")
    assert SORRY_WARNING.search("declaration uses 'sorry'")
    assert not SORRY_WARNING.search("declaration uses sorryAx")


def test_axiom_answers_primed_wrapped_and_none():
    text = (
        "'Scope.fromBytes'_append' depends on axioms: [propext]\n"
        "'Paper.two_le_three' does not depend on any axioms\n"
        "'Paper.big_check' depends on axioms: [propext,\n Classical.choice,\n"
        " Lean.ofReduceBool,\n Quot.sound]"
    )
    answers = parse_axiom_answers(text)
    assert [a.name for a in answers] == [
        "Scope.fromBytes'_append",
        "Paper.two_le_three",
        "Paper.big_check",
    ]
    assert answers[0].axioms == ("propext",)
    assert answers[1].axioms == ()
    assert answers[2].axioms == ("propext", "Classical.choice", "Lean.ofReduceBool", "Quot.sound")


def test_axiom_name_does_not_swallow_a_preceding_sorry_line():
    answers = parse_axiom_answers(FINAL_OUTPUT)
    assert [a.name for a in answers] == ["Paper.lemma_A2"]
    assert "sorryAx" in answers[0].axioms


def test_lean_output_messages_and_bare_info():
    msgs = parse_lean_output(FINAL_OUTPUT)
    assert [(m.severity, m.line, m.column) for m in msgs] == [
        ("warning", 14, 8),
        ("error", 21, 2),
        ("info", 0, 0),
    ]
    assert unsolved_goals(msgs[1].text) == "x : ℝ\n⊢ 0 < x"
    assert msgs[2].text.startswith("'Paper.lemma_A2' depends")


def test_lean_output_accepts_error_names():
    msgs = parse_lean_output("F.lean:3:4: error(lean.unknownIdentifier): Unknown identifier `g`")
    assert msgs[0].severity == "error" and msgs[0].text == "Unknown identifier `g`"


def test_heartbeat_and_goals():
    assert is_heartbeat_error(
        "(deterministic) timeout at `whnf`, maximum number of heartbeats (400000) has been reached"
    )
    assert is_heartbeat_error("(kernel) deterministic timeout")
    assert not is_heartbeat_error("type mismatch")
    assert unsolved_goals("type mismatch\n⊢ x") is None


def test_classification():
    assert classify_axiom("propext") is AxiomClass.STANDARD
    assert classify_axiom("Quot.sound") is AxiomClass.STANDARD
    assert classify_axiom("sorryAx") is AxiomClass.SORRY
    assert classify_axiom("Lean.ofReduceBool") is AxiomClass.NATIVE
    assert classify_axiom("Lean.trustCompiler") is AxiomClass.NATIVE
    assert classify_axiom("Paper.foo._native.native_decide.ax_1") is AxiomClass.NATIVE
    assert classify_axiom("Paper.my_axiom") is AxiomClass.CUSTOM
    assert disallowed_axioms(["propext", "Quot.sound"]) == ()
    assert disallowed_axioms(["sorryAx", "propext", "Foo"]) == ("Foo", "sorryAx")
    # sorryAx can never be allow-listed
    assert disallowed_axioms(["sorryAx"], frozenset({"sorryAx"})) == ("sorryAx",)


def _info(line, data, severity="info"):
    return {"severity": severity, "pos": {"line": line, "column": 0}, "data": data}


def test_repl_axioms_fail_closed():
    names = ["a", "b", "c", "d"]
    messages = [
        _info(1, "'N.a' depends on axioms: [propext]"),
        _info(2, "unknown constant 'b'", severity="error"),
        # c: no answer at all
        _info(4, "'d' does not depend on any axioms"),
        _info(4, "'X.d' does not depend on any axioms"),
    ]
    axioms, problems = parse_repl_axioms(messages, names)
    assert axioms == {"a": ("propext",), "b": None, "c": None, "d": None}
    assert len(problems) == 3


def test_repl_axioms_answer_must_name_the_query():
    axioms, problems = parse_repl_axioms([_info(1, "'other' depends on axioms: []")], ["mine"])
    assert axioms == {"mine": None} and problems


def _marked(names_answers, salt):
    out = []
    for name, answer in names_answers:
        mid = marker_id(name, salt)
        out += [f'"PAPERLINT_AXIOMS_BEGIN_{mid}" : String', answer]
        out += [f'"PAPERLINT_AXIOMS_END_{mid}" : String']
    return "\n".join(out)


def test_marked_axioms_happy_path():
    query = marked_axiom_queries(["P.a", "P.b"], "sha")
    assert query.count("#print axioms") == 2
    out = _marked(
        [
            ("P.a", "'P.a' does not depend on any axioms"),
            ("P.b", "'P.b' depends on axioms: [propext,\n Quot.sound]"),
        ],
        "sha",
    )
    axioms, problems = parse_marked_axioms(out, ["P.a", "P.b"], "sha")
    assert problems == []
    assert axioms == {"P.a": (), "P.b": ("propext", "Quot.sound")}


def test_marked_axioms_fail_closed():
    good = "'P.a' depends on axioms: [propext]"
    mid = marker_id("P.a", "sha")
    begin, end = f"PAPERLINT_AXIOMS_BEGIN_{mid}", f"PAPERLINT_AXIOMS_END_{mid}"
    cases = {
        "missing end": f"{begin}\n{good}",
        "duplicated": f"{begin}\n{good}\n{end}\n{begin}\n{good}\n{end}",
        "out of order": f"{end}\n{good}\n{begin}",
        "no answer": f"{begin}\nF.lean:9:0: error: unknown constant\n{end}",
        "two answers": f"{begin}\n{good}\n'P.a' does not depend on any axioms\n{end}",
        "wrong salt": _marked([("P.a", good)], "other"),
    }
    for label, out in cases.items():
        axioms, problems = parse_marked_axioms(out, ["P.a"], "sha")
        assert axioms == {"P.a": None}, label
        assert problems, label


def test_marked_axioms_foreign_marker_inside_block():
    mid_a, mid_b = marker_id("a", "s"), marker_id("b", "s")
    out = (
        f"PAPERLINT_AXIOMS_BEGIN_{mid_a}\nPAPERLINT_AXIOMS_BEGIN_{mid_b}\n'a' depends on axioms: []"
        f"\nPAPERLINT_AXIOMS_END_{mid_a}\n'b' depends on axioms: []\nPAPERLINT_AXIOMS_END_{mid_b}"
    )
    axioms, _ = parse_marked_axioms(out, ["a", "b"], "s")
    assert axioms == {"a": None, "b": None}


def test_insert_before_trailing_end_and_map_line():
    text = "namespace P\ntheorem x : True := trivial\nend P\n\n"
    out = insert_before_trailing_end(text, "#print axioms x")
    assert out.rstrip().endswith("#print axioms x\nend P")
    assert map_line(1) == 1
    assert map_line(3, prepended_lines=1) == 2
    assert map_line(2, start_line=10) == 11
