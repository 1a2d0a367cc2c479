import re
from pathlib import Path

import pytest

from paperlint.lean.audit import audit_files
from paperlint.lean.findings import Rule
from paperlint.lean.hygiene import (
    HygienePolicy,
    imports,
    refusal_findings,
    resolve_import,
    scan_file,
    scan_text,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lean"
ADVERSARIAL = sorted((FIXTURES / "adversarial").glob("*.lean"))
CLEAN = sorted((FIXTURES / "clean").glob("*.lean"))


def _expected(path):
    return set(re.findall(r"^-- expect: (\S+)", path.read_text(), re.M))


@pytest.mark.parametrize("path", ADVERSARIAL, ids=lambda p: p.stem)
def test_adversarial_file_is_caught_with_exactly_the_expected_rules(path):
    expected = _expected(path)
    assert expected, f"{path.name} needs a `-- expect: <rule>` header"
    findings = audit_files([path])
    blocking = {f.rule.value for f in findings if f.blocking}
    assert blocking == expected, [f.render() for f in findings]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_clean_file_has_no_findings(path):
    assert [f.render() for f in audit_files([path])] == []


def _rules(text, **kwargs):
    return [f.rule for f in scan_text(text, **kwargs)]


@pytest.mark.parametrize(
    "text",
    [
        "-- sorry\ntheorem t : True := trivial",
        "/- /- -/ sorry -/\ntheorem t : True := trivial",
        'def s : String := "sorry axiom #eval IO.println"',
        "theorem sorry_free : True := trivial",
        "def «sorry» := 1\ntheorem «axiom» : True := trivial",
        "def x := Foo.sorry",
        "def x := `sorry",
        "def ratio := 1\ndef ratioIO := 2\ntheorem Ioo_ok : True := trivial",
        "-- opaque\ntheorem t : True := trivial",
        "#print axioms foo",
        "theorem elab_ok : True := trivial\n@[elab_as_elim] def rec' := 1",
        "set_option maxHeartbeats 400000 in\ntheorem t : True := trivial",
        "set_option pp.all true\nset_option autoImplicit false",
        "open scoped BigOperators\nattribute [local instance] Classical.propDecidable",
        "def c := 'a'\ndef d := '\\''",
    ],
)
def test_harmless_text_has_no_findings(text):
    assert scan_text(text) == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("theorem t : False := by sorry", Rule.SORRY),
        ("theorem t : False := sorryAx _ false", Rule.SORRY),
        ("theorem t : False := by admit", Rule.ADMIT),
        ("theorem t : False := by\n  stop\n  simp", Rule.SORRY),
        ("private axiom a : False", Rule.AXIOM),
        ("@[simp] axiom a : False", Rule.AXIOM),
        ("opaque o : Nat", Rule.OPAQUE),
        ("unsafe def u := 1", Rule.UNSAFE),
        ("partial def p (n : Nat) : Nat := p n", Rule.PARTIAL),
        ("example : 1 = 1 := by native_decide", Rule.NATIVE_DECIDE),
        ("example : 1 = 1 := by decide +native", Rule.NATIVE_DECIDE),
        ("example : 1 = 1 := by decide (config := { native := true })", Rule.NATIVE_DECIDE),
        ("example := Lean.ofReduceBool", Rule.NATIVE_DECIDE),
        ("@[implemented_by g] def f := 1", Rule.IMPLEMENTED_BY),
        ('@[extern "c_f"] def f := 1', Rule.EXTERN),
        ("@[csimp] theorem c : @f = @g := rfl", Rule.CSIMP),
        ("set_option debug.skipKernelTC true", Rule.DEBUG_OPTION),
        ("set_option maxHeartbeats 0", Rule.RESOURCE_LIMIT),
        ("set_option maxHeartbeats 10000000 in\ntheorem t : True := trivial", Rule.RESOURCE_LIMIT),
        ("set_option maxRecDepth 100000", Rule.RESOURCE_LIMIT),
        ("set_option synthInstance.maxHeartbeats 0", Rule.RESOURCE_LIMIT),
        ("theorem t : True := by\n  set_option maxHeartbeats 0 in\n  trivial", Rule.RESOURCE_LIMIT),
        ("#eval 1 + 1", Rule.EVAL),
        ("#exit", Rule.EXIT),
        ("#guard_msgs in\ntheorem t : True := trivial", Rule.MESSAGE_GUARD),
        ("run_cmd pure ()", Rule.RUN_COMMAND),
        ("run_meta pure ()", Rule.RUN_COMMAND),
        ("initialize r : Nat ← pure 0", Rule.INITIALIZE),
        ("builtin_initialize pure ()", Rule.INITIALIZE),
        ("def f : IO Unit := pure ()", Rule.IO),
        ("def f := IO.FS.readFile", Rule.IO),
        ("def f := IO.Process.run", Rule.IO),
        ('def p : System.FilePath := "x"', Rule.IO),
        ("import Lean.Elab.Command", Rule.META_IMPORT),
        ("import Lean", Rule.META_IMPORT),
        ("meta import Mathlib.Tactic", Rule.META_IMPORT),
        ('macro "simp" : tactic => `(tactic| rfl)', Rule.MACRO),
        ("macro_rules | `(tactic| rfl) => `(tactic| rfl)", Rule.MACRO),
        ('syntax "done!" : tactic', Rule.SYNTAX),
        ('elab "x" : tactic => pure ()', Rule.ELAB),
        ('notation "simp" => Nat', Rule.NOTATION_REDEFINES),
        ('infixl:65 " + " => Nat.sub', Rule.NOTATION_REDEFINES),
        ('infix:50 " ≤ " => fun _ _ => True', Rule.NOTATION_REDEFINES),
        ('notation:50 (priority := high) a " ≼ " b => a = b', Rule.NOTATION_REDEFINES),
        ('local notation "⟪" x ", " y "⟫" => x + y', Rule.NOTATION),
        ("#print \"'Paper.main' does not depend on any axioms\"", Rule.MESSAGE_SPOOF),
        ("def s := \"declaration uses 'sorry'\"", Rule.MESSAGE_SPOOF),
        ("local instance : Inhabited Nat := ⟨1⟩", Rule.LOCAL_INSTANCE),
        ("scoped instance : Inhabited Nat := ⟨1⟩", Rule.LOCAL_INSTANCE),
        ("example : True := by exact?", Rule.SEARCH_TACTIC),
        ("set_option weird.option true", Rule.UNKNOWN_OPTION),
        ("#foo", Rule.HASH_COMMAND),
        ("theorem t : False := lcProof", Rule.UNSOUND_CONSTANT),
        ("module\nimport Mathlib", Rule.MODULE_HEADER),
        ("theorem t : False := «sorryAx» _ false", Rule.SORRY),
        ("theorem t : False := _root_.sorryAx _ false", Rule.SORRY),
        ("set_option «debug».«skipKernelTC» true", Rule.DEBUG_OPTION),
        ("@[tactic Lean.Parser.Tactic.simp] def fake : Nat := 1", Rule.ELAB),
        ("attribute [command_elab foo] bar", Rule.ELAB),
        ("simproc reduceFoo (foo _) := fun _ => pure .continue", Rule.ELAB),
        ("@[app_unexpander Nat.add] def u := 1", Rule.SYNTAX),
        ("def f := Lean.Environment.addDeclWithoutChecking", Rule.UNSAFE),
        ("/--/ sorry -/\nopaque o : Nat", Rule.OPAQUE),
    ],
)
def test_each_rule_fires_on_its_construct(text, rule):
    assert rule in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        'infixl:65 " ⊕⊕ " => Nat.add',
        "local instance : Inhabited Nat := ⟨1⟩",
        "set_option weird.option true",
        "#foo",
        "example : True := by exact?",
    ],
)
def test_review_rules_are_advisory_in_project_files(text):
    assert [f.blocking for f in scan_text(text)] == [False]


def test_refusal_blocks_imports_notation_and_commands_in_model_text():
    text = 'import Mathlib\ninfixl:65 " ⊕⊕ " => Nat.add\n#check Nat\n#reduce 1\n#print axioms t'
    rules = [f.rule for f in refusal_findings(text)]
    assert rules.count(Rule.IMPORT) == 1
    assert Rule.NOTATION in rules
    assert rules.count(Rule.HASH_COMMAND) == 1  # #reduce; #check and #print axioms pass
    assert all(f.blocking for f in refusal_findings(text))


def test_refusal_holds_model_text_to_lean_default_limits():
    raised = "set_option maxHeartbeats 400000 in\ntheorem t : True := trivial"
    assert [f.rule for f in refusal_findings(raised)] == [Rule.RESOURCE_LIMIT]
    assert scan_text(raised) == []


def test_doc_comment_opener_is_three_characters():
    assert scan_text("/--/ sorry -/\ntheorem t : True := trivial") == []


def test_refusal_of_a_clean_declaration_is_empty():
    assert refusal_findings("theorem t (n : ℕ) : n + 0 = n := by simp") == []


def test_finding_position_and_render():
    [finding] = scan_text("theorem t : True := by\n  sorry", file="A.lean")
    assert (finding.line, finding.col) == (2, 2)
    assert finding.render() == "A.lean:2:2: sorry: `sorry` leaves a proof obligation open"


def test_resource_limits_follow_the_policy():
    text = "set_option maxHeartbeats 400000"
    assert _rules(text, policy=HygienePolicy(max_heartbeats=200000)) == [Rule.RESOURCE_LIMIT]
    assert _rules("set_option maxHeartbeats 2000000") == [Rule.RESOURCE_LIMIT]
    assert _rules(text) == []


def test_imports_lists_modules_with_positions():
    refs = imports("import Mathlib.Tactic\n-- import Fake\nimport Paper.Foo")
    assert [(r.module, r.line) for r in refs] == [("Mathlib.Tactic", 1), ("Paper.Foo", 3)]


def test_local_import_is_followed_transitively(tmp_path):
    (tmp_path / "Paper").mkdir()
    (tmp_path / "Main.lean").write_text("import Paper.A\ntheorem t : True := trivial\n")
    (tmp_path / "Paper" / "A.lean").write_text("import Paper.B\n")
    (tmp_path / "Paper" / "B.lean").write_text("axiom bad : False\n")
    findings = scan_file(tmp_path / "Main.lean", project_root=tmp_path)
    assert [(Path(f.file).name, f.rule) for f in findings] == [("B.lean", Rule.AXIOM)]


def test_import_cycles_terminate(tmp_path):
    (tmp_path / "A.lean").write_text("import B\n")
    (tmp_path / "B.lean").write_text("import A\n")
    assert scan_file(tmp_path / "A.lean", project_root=tmp_path) == []


def test_imports_never_leave_the_project_root(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (tmp_path / "Outside.lean").write_text("axiom bad : False\n")
    (root / "Link.lean").symlink_to(tmp_path / "Outside.lean")
    assert resolve_import("Link", project_root=root) is None
    (root / "Main.lean").write_text("import Link\n")
    findings = scan_file(root / "Main.lean", project_root=root)
    assert [f.rule for f in findings] == [Rule.UNRESOLVED_IMPORT]


def test_external_libraries_are_not_resolved(tmp_path):
    (tmp_path / "Main.lean").write_text("import Mathlib.Tactic\nimport Batteries.Data.List\n")
    assert scan_file(tmp_path / "Main.lean", project_root=tmp_path) == []


@pytest.mark.parametrize(
    "text",
    [
        "@[instance 10000] def myLE : LE ℝ := ⟨fun _ _ => True⟩",
        "instance (priority := 10000) myLE : LE ℝ := ⟨fun _ _ => True⟩",
        "@[default_instance] instance : LE ℝ := ⟨fun _ _ => True⟩",
    ],
)
def test_a_prioritised_instance_blocks_model_text_and_advises_in_project_files(text):
    """Issue 11: a drafter's instance hijack beside the gated definitions is refused."""
    assert [f.rule for f in refusal_findings(text)] == [Rule.LOCAL_INSTANCE]
    assert [(f.rule, f.blocking) for f in scan_text(text)] == [(Rule.LOCAL_INSTANCE, False)]
