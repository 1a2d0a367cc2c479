"""The warm verifier's logic with a fake REPL backend: caching, advancing, failure mapping."""

import json
from pathlib import Path

import pytest

from paperlint.lean.pins import LeanPaths
from paperlint.lean.verifier import FailureCode, LeanContext, Outcome, Verifier, accept
from paperlint.lean.warm import (
    LeanInteractBackend,
    WarmSettings,
    WarmVerifier,
    ensure_heartbeats,
)

HEADER = "import Mathlib\nset_option maxHeartbeats 400000"
CTX = LeanContext(header=HEADER)
GOOD = "theorem good : True := trivial"
BAD = "theorem bad : False := trivial"
ERR = {
    "messages": [{"severity": "error", "pos": {"line": 1, "column": 23}, "data": "type mismatch"}]
}


class FakeBackend:
    """Answers by command text; an exception answer is raised; a list is consumed in order."""

    def __init__(self, answers=None):
        self.answers = dict(answers or {})
        self.calls = []
        self.forgotten = []
        self.resets = 0
        self.memory = 0.0
        self.closed = False
        self._session = 0
        self._repl = 0

    def run(self, cmd, env, *, timeout_s, keep, declarations=False):
        self.calls.append((cmd, env, keep, timeout_s))
        answer = self.answers.get(cmd, {})
        if isinstance(answer, list):
            answer = answer.pop(0) if len(answer) > 1 else answer[0]
        if isinstance(answer, BaseException):
            raise answer
        raw = json.loads(json.dumps(answer))
        if set(raw) == {"message"}:
            return raw
        self._repl += 1
        if keep:
            self._session -= 1
            raw["env"] = self._session
        else:
            raw["env"] = self._repl
        return raw

    def forget(self, env):
        self.forgotten.append(env)

    def reset(self):
        self.resets += 1

    def memory_mb(self):
        return self.memory

    def close(self):
        self.closed = True

    def cmds(self):
        return [c[0] for c in self.calls]


def _paths(tmp_path: Path) -> LeanPaths:
    return LeanPaths(project=tmp_path, cache=tmp_path / "c", repl_dir=tmp_path / "r", lake="lake")


def _warm(tmp_path, backend, recorder=None, **settings):
    settings = WarmSettings(paths=_paths(tmp_path), **settings)
    return WarmVerifier(settings, backend=backend, recorder=recorder)


def test_is_a_verifier(tmp_path):
    assert isinstance(_warm(tmp_path, FakeBackend()), Verifier)


def test_header_once_then_candidates_on_it(tmp_path):
    fake = FakeBackend()
    warm = _warm(tmp_path, fake)
    assert warm.check(CTX, GOOD, timeout_s=60).accepted
    assert warm.check(CTX, "theorem g2 : True := trivial", timeout_s=60).accepted
    assert fake.cmds().count(HEADER) == 1
    header_call = fake.calls[0]
    assert header_call[1] is None and header_call[2] is True  # env-less, kept
    assert header_call[3] == warm.settings.prepare_timeout_s
    assert fake.calls[1] == (GOOD, -1, True, 60)  # on the header's session id


def test_heartbeat_limit_is_added_to_a_header_without_one(tmp_path):
    fake = FakeBackend()
    _warm(tmp_path, fake, heartbeats=123).check(
        LeanContext(header="import Mathlib"), GOOD, timeout_s=5
    )
    assert fake.calls[0][0] == "import Mathlib\nset_option maxHeartbeats 123"
    assert ensure_heartbeats(HEADER, 5) == HEADER


def test_accepted_env_is_reused_when_the_context_advances(tmp_path):
    fake = FakeBackend()
    warm = _warm(tmp_path, fake)
    warm.check(CTX, GOOD, timeout_s=60)
    before = len(fake.calls)
    warm.check(CTX.extended(GOOD), "theorem next : True := good", timeout_s=60)
    assert len(fake.calls) == before + 1  # no re-run of GOOD or the header
    assert fake.calls[-1][1] == -2  # GOOD's session id


def test_accepted_declarations_are_chained_in_order(tmp_path):
    fake = FakeBackend()
    ctx = CTX.extended("def a := 1").extended("def b := a")
    assert _warm(tmp_path, fake).check(ctx, GOOD, timeout_s=60).accepted
    assert [c[:3] for c in fake.calls] == [
        (HEADER, None, True),
        ("def a := 1", -1, True),
        ("def b := a", -2, True),
        (GOOD, -3, True),
    ]


def test_never_chains_on_a_rejected_env(tmp_path):
    fake = FakeBackend({BAD: ERR})
    warm = _warm(tmp_path, fake)
    check = warm.check(CTX, BAD, timeout_s=60)
    assert check.outcome is Outcome.REJECTED and check.code is FailureCode.LEAN_ERROR
    assert fake.forgotten == [-2]
    assert "-- ✗ error: type mismatch" in check.feedback
    # building on the rejected text re-runs it as a prior step, which fails: no silent chain
    later = warm.check(CTX.extended(BAD), GOOD, timeout_s=60)
    assert later.outcome is Outcome.UNAVAILABLE and later.code is FailureCode.PRIOR_DECL_FAILED
    assert GOOD not in fake.cmds()


def test_sorry_is_rejected_and_forgotten(tmp_path):
    sorry = {"sorries": [{"pos": {"line": 1, "column": 20}, "goal": "⊢ True"}]}
    fake = FakeBackend({"theorem s : True := sorry": sorry})
    check = _warm(tmp_path, fake).check(CTX, "theorem s : True := sorry", timeout_s=60)
    assert check.code is FailureCode.SORRY and fake.forgotten == [-2]


def test_header_failure(tmp_path):
    fake = FakeBackend({HEADER: ERR})
    check = _warm(tmp_path, fake).check(CTX, GOOD, timeout_s=60)
    assert check.outcome is Outcome.UNAVAILABLE and check.code is FailureCode.HEADER_FAILED
    assert GOOD not in fake.cmds() and fake.forgotten == [-1]


def test_timeout_is_unfinished_and_the_chain_is_rebuilt(tmp_path):
    fake = FakeBackend({GOOD: [TimeoutError("killed"), {}]})
    warm = _warm(tmp_path, fake)
    first = warm.check(CTX, GOOD, timeout_s=1)
    assert first.outcome is Outcome.TIMEOUT and first.code is FailureCode.TIMEOUT
    assert fake.resets == 1 and warm.restarts[-1].reason == "timeout"
    assert warm.check(CTX, GOOD, timeout_s=1).accepted
    assert fake.cmds().count(HEADER) == 2  # rebuilt from text, with our own timeout


@pytest.mark.parametrize(
    "exc",
    [
        ConnectionAbortedError("closed"),
        ChildProcessError("not running"),
        BrokenPipeError("pipe"),
    ],
)
def test_crash_is_retried_once(tmp_path, exc):
    fake = FakeBackend({GOOD: [exc, {}]})
    warm = _warm(tmp_path, fake)
    assert warm.check(CTX, GOOD, timeout_s=5).accepted
    assert fake.resets == 1


def test_a_request_side_value_error_never_restarts_lean(tmp_path):
    fake = FakeBackend({GOOD: ValueError("1 validation error for Command")})
    warm = _warm(tmp_path, fake)
    check = warm.check(CTX, GOOD, timeout_s=5)
    assert check.outcome is not Outcome.ACCEPTED
    assert fake.resets == 0 and warm.restarts == []


def test_a_repl_that_dies_importing_the_header_is_not_started_again(tmp_path):
    fake = FakeBackend({HEADER: ConnectionAbortedError("killed by the OOM killer")})
    warm = _warm(tmp_path, fake)
    first = warm.check(CTX, GOOD, timeout_s=5)
    assert first.outcome is Outcome.UNAVAILABLE
    assert fake.cmds().count(HEADER) == 1
    again = warm.check(CTX, "theorem other : True := trivial", timeout_s=5)
    assert again.outcome is Outcome.UNAVAILABLE and "importing the header" in (again.hint or "")
    assert fake.cmds().count(HEADER) == 1  # remembered: one import paid, not two per call


def test_every_restart_is_reported(tmp_path):
    seen = []
    fake = FakeBackend({GOOD: [BrokenPipeError("pipe"), {}]})
    warm = _warm(tmp_path, fake)
    warm.on_restart = seen.append
    assert warm.check(CTX, GOOD, timeout_s=5).accepted
    assert [r.reason for r in seen] == ["BrokenPipeError (attempt 1)"]


def test_second_crash_in_a_row_is_unavailable(tmp_path):
    fake = FakeBackend({GOOD: ConnectionAbortedError("closed")})
    check = _warm(tmp_path, fake).check(CTX, GOOD, timeout_s=5)
    assert check.outcome is Outcome.UNAVAILABLE and check.code is FailureCode.DEAD_SERVER
    assert fake.resets == 2


def test_memory_error_disables_lean_for_the_run(tmp_path):
    fake = FakeBackend({GOOD: MemoryError("too high")})
    warm = _warm(tmp_path, fake)
    assert warm.check(CTX, GOOD, timeout_s=5).outcome is Outcome.UNAVAILABLE
    calls = len(fake.calls)
    again = warm.check(CTX, "theorem other : True := trivial", timeout_s=5)
    assert again.outcome is Outcome.UNAVAILABLE and len(fake.calls) == calls


@pytest.mark.parametrize(
    "exc, code",
    [
        (json.JSONDecodeError("bad", "x", 0), FailureCode.BACKEND_ERROR),
        (RuntimeError("surprise"), FailureCode.BACKEND_ERROR),
        (FileNotFoundError("lake"), FailureCode.UNAVAILABLE),
    ],
)
def test_every_other_exception_is_typed(tmp_path, exc, code):
    fake = FakeBackend({GOOD: exc})
    check = _warm(tmp_path, fake).check(CTX, GOOD, timeout_s=5)
    assert check.outcome is Outcome.UNAVAILABLE and check.code is code


def test_unknown_environment_rebuilds_once(tmp_path):
    fake = FakeBackend({GOOD: [{"message": "Unknown environment."}, {}]})
    warm = _warm(tmp_path, fake)
    assert warm.check(CTX, GOOD, timeout_s=5).accepted
    assert fake.cmds().count(HEADER) == 2


def test_lean_error_is_a_rejection(tmp_path):
    fake = FakeBackend({GOOD: {"message": "Lean error:\n<input>:1:1: unknown tactic"}})
    check = _warm(tmp_path, fake).check(CTX, GOOD, timeout_s=5)
    assert check.outcome is Outcome.REJECTED and check.code is FailureCode.BACKEND_ERROR


def test_refused_candidate_never_reaches_lean(tmp_path):
    fake = FakeBackend()
    check = _warm(tmp_path, fake).check(CTX, "#eval IO.println 1", timeout_s=5)
    assert check.code is FailureCode.REFUSED and fake.calls == []


def test_restart_policies(tmp_path):
    fake = FakeBackend()
    warm = _warm(tmp_path, fake, restart_every=2, memory_hard_limit_mb=1000)
    warm.check(CTX, GOOD, timeout_s=5)
    warm.check(CTX, GOOD, timeout_s=5)
    assert [r.reason for r in warm.restarts] == ["count"]
    fake.memory = 900.0
    warm.check(CTX, GOOD, timeout_s=5)
    assert warm.restarts[-1].reason == "memory" and warm.restarts[-1].rss_mb == 900.0
    fake.memory = 0.0
    warm.check(LeanContext(header=HEADER + "\nopen Real"), GOOD, timeout_s=5)
    assert warm.restarts[-1].reason == "header changed"


def test_print_axioms_and_accept(tmp_path):
    query = "#print axioms _root_.good"  # rooted: an `open` cannot make it ambiguous
    answer = {
        "messages": [
            {
                "severity": "info",
                "pos": {"line": 1, "column": 0},
                "data": "'good' depends on axioms: [propext]",
            }
        ]
    }
    fake = FakeBackend({query: answer})
    warm = _warm(tmp_path, fake)
    verdict = accept(warm, CTX, GOOD, "good", timeout_s=5)
    assert verdict.accepted and verdict.axioms == ("propext",)
    assert fake.calls[-1] == (query, -2, False, 5)  # on the candidate's env, not kept
    assert fake.cmds().count(GOOD) == 1


def test_target_not_found(tmp_path):
    unknown = {
        "messages": [
            {
                "severity": "error",
                "pos": {"line": 1, "column": 14},
                "data": "unknown constant 'good'",
            }
        ]
    }
    fake = FakeBackend({"#print axioms _root_.good": unknown})
    verdict = accept(_warm(tmp_path, fake), CTX, GOOD, "good", timeout_s=5)
    assert verdict.outcome is Outcome.REJECTED and verdict.code is FailureCode.TARGET_NOT_FOUND


def test_bad_axiom_names_never_reach_lean(tmp_path):
    fake = FakeBackend()
    report = _warm(tmp_path, fake).print_axioms(CTX, ["a\n#eval 1"], timeout_s=5)
    assert report.code is FailureCode.AXIOMS_UNPARSED and fake.calls == []


def test_recording_then_replay_gives_the_same_records(tmp_path):
    from paperlint.lean.replay import LeanRecorder, ReplayVerifier

    fake = FakeBackend({BAD: ERR, "#print axioms _root_.good": {"messages": []}})
    recorder = LeanRecorder(tmp_path / "rec", toolchain=None, mathlib_rev=None)
    live = _warm(tmp_path, fake, recorder=recorder.write)
    fake.answers[GOOD] = [TimeoutError("t"), {}]
    results = [
        live.check(CTX, GOOD, timeout_s=5),
        live.check(CTX, GOOD, timeout_s=5),
        live.check(CTX, BAD, timeout_s=5),
        live.print_axioms(CTX.extended(GOOD), ["good"], timeout_s=5),
    ]
    lines = (tmp_path / "rec" / "lean.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(x)["note"] == "recorded" for x in lines)
    replay = ReplayVerifier(tmp_path / "rec")
    # the last recording of a key wins: the accepted GOOD
    assert replay.check(CTX, GOOD, timeout_s=5).accepted
    bad = replay.check(CTX, BAD, timeout_s=5)
    assert bad.replay and bad.model_copy(update={"replay": False, "duration_s": 0}) == results[
        2
    ].model_copy(update={"duration_s": 0})
    axioms = replay.print_axioms(CTX.extended(GOOD), ["good"], timeout_s=5)
    assert axioms.code == results[3].code == FailureCode.AXIOMS_UNPARSED


def test_real_backend_without_lean_gives_a_typed_result(tmp_path):
    warm = WarmVerifier(WarmSettings(paths=_paths(tmp_path)))
    check = warm.check(CTX, GOOD, timeout_s=5)
    assert check.outcome is Outcome.UNAVAILABLE and check.code is FailureCode.UNAVAILABLE
    assert "paperlint" in (check.hint or "")
    warm.close()


class _FakeServer:
    """Stands in for lean-interact's plain LeanServer inside LeanInteractBackend (which has
    no session cache: the REPL's own env ids are used)."""

    def __init__(self, response):
        self.response = response
        self.seen = []
        self.killed = 0

    def run(self, request, *, timeout):
        self.seen.append((request, timeout))
        return self.response

    def kill(self):
        self.killed += 1

    def get_memory_usage(self):
        return 12.5


def test_lean_interact_backend_dumps_the_repl_shape(tmp_path):
    from lean_interact.interface import CommandResponse, LeanError

    raw = {
        "env": -3,
        "messages": [
            {"severity": "warning", "pos": {"line": 1, "column": 8}, "endPos": None, "data": "x"}
        ],
    }
    backend = LeanInteractBackend(WarmSettings(paths=_paths(tmp_path)))
    server = _FakeServer(CommandResponse.model_validate(raw))
    backend._server = server  # type: ignore[assignment]
    out = backend.run("theorem x : True := trivial", 2, timeout_s=7, keep=True)
    assert out["env"] == -3 and out["messages"][0]["pos"] == {"line": 1, "column": 8}
    request, timeout = server.seen[0]
    assert request.cmd.startswith("theorem") and request.env == 2 and timeout == 7
    server.response = LeanError(message="Unknown environment.")
    assert backend.run("x", 0, timeout_s=1, keep=False) == {"message": "Unknown environment."}
    backend.forget(4)  # the REPL keeps its envs; nothing to send
    assert backend.memory_mb() == 12.5
    backend.reset()
    assert server.killed == 1 and backend.memory_mb() == 0.0  # a fresh process next time


def test_the_backend_uses_the_plain_lean_server():
    import inspect

    import paperlint.lean.warm as warm_module

    source = inspect.getsource(warm_module.LeanInteractBackend._ensure)
    assert "li.LeanServer(" in source and "AutoLeanServer(" not in source


def test_cgroup_memory_limits_are_read_in_both_versions(tmp_path):
    from paperlint.lean.warm import cgroup_memory_limit_mb

    v2, v1 = tmp_path / "memory.max", tmp_path / "limit_in_bytes"
    v2.write_text("8589934592\n")
    assert cgroup_memory_limit_mb([v2, v1]) == 8192
    v2.write_text("max\n")
    assert cgroup_memory_limit_mb([v2, v1]) is None
    v2.unlink()
    v1.write_text(str(2**63 - 4096))
    assert cgroup_memory_limit_mb([v2, v1]) is None
    v1.write_text(str(4 * 1024**3))
    assert cgroup_memory_limit_mb([v2, v1]) == 4096
    assert cgroup_memory_limit_mb([tmp_path / "none"]) is None


@pytest.mark.lean
def test_real_lean_end_to_end(tmp_path):
    from paperlint.lean.pins import locate

    warm = WarmVerifier(WarmSettings(paths=locate()))
    try:
        ctx = LeanContext(header="import Mathlib\nset_option autoImplicit false")
        text = "theorem paperlint_smoke (x : ℕ) : x + 0 = x := by simp"
        verdict = accept(warm, ctx, text, "paperlint_smoke", timeout_s=600)
        assert verdict.accepted, verdict
        bad = warm.check(ctx, "theorem paperlint_bad : (1 : ℕ) = 2 := by\n  sorry", timeout_s=300)
        assert bad.code is FailureCode.SORRY
    finally:
        warm.close()


def test_advancing_with_stripped_text_reuses_the_env(tmp_path):
    fake = FakeBackend()
    warm = _warm(tmp_path, fake)
    warm.check(CTX, f"\n{GOOD}\n\n", timeout_s=5)
    calls = len(fake.calls)
    warm.check(CTX.extended(GOOD), "theorem next : True := good", timeout_s=5)
    assert len(fake.calls) == calls + 1


def test_a_failed_header_is_not_reimported(tmp_path):
    fake = FakeBackend({HEADER: ERR})
    warm = _warm(tmp_path, fake)
    warm.check(CTX, GOOD, timeout_s=5)
    again = warm.check(CTX, "theorem x : True := trivial", timeout_s=5)
    assert again.code is FailureCode.HEADER_FAILED
    assert fake.cmds().count(HEADER) == 1
