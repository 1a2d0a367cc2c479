"""The four fixture cases against a real Lean (skipped here: no toolchain on this machine).

On a machine with Lean this checks that the Lean text the checks generate is valid Lean 4 and
that the hand-written answers were right: each answer key must hold against the live REPL.
"""

import pytest

from tests.faithful import build_fixtures as fx


@pytest.mark.lean
@pytest.mark.parametrize("name", sorted(fx.CASES))
def test_answer_key_holds_on_real_lean(name):
    from paperlint.lean.pins import locate
    from paperlint.lean.warm import WarmSettings, WarmVerifier

    warm = WarmVerifier(WarmSettings(paths=locate()))
    try:
        case = fx.CASES[name]
        evidence = fx.run_case(case, warm)
        key = case.answer_key
        assert evidence.equivalence.agreement.value == key["agreement"], evidence
        assert evidence.probe.refuted is key["refuted"], evidence.probe
        if "unneeded" in key:
            assert [c.name for c in evidence.minimal.unneeded] == key["unneeded"]
    finally:
        warm.close()
