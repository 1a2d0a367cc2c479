"""The fault matrix over loopback HTTP (issue #29): every provider fault, on an agent call and
on a tool-loop turn, serial and at `--jobs 4`.

A transient fault (injected once) is waited out and the check completes to the answer key; a
persistent one (every request from then on) stops the check with exit 4, never 3, never a final
verdict, and `resume` after the fault is gone completes to the answer key. In every case each
request the server saw was charged (`events.jsonl`), so budgets count what was really asked.

CI runs a representative subset (`REPRESENTATIVE`); the rest carry `fault_matrix_full` and run
only when -m names it (`./dev test tests/live -m "fault_matrix_full or not fault_matrix_full"`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperlint.agents.transcript import TranscriptKey
from paperlint.cli.root import run
from paperlint.records.journal import spend_of
from tests.engine.conftest import example
from tests.live.conftest import ANSWER_KEY, EXAMPLE, REPLAY, events, verdicts, write_config
from tests.live.loopback import Fault, LoopbackProvider, error_body

TOOL_LOOP = example("tool-loop")
TOOL_KEY = {
    rid: {"verdict": v["verdict"], "class": v["class"]}
    for rid, v in json.loads((TOOL_LOOP / "answer-key.json").read_text()).items()
}


@dataclass(frozen=True)
class Target:
    """Where the fault lands: the paper, its replay, its answer key, its clean exit code,
    which requests are hit, and extra config."""

    paper: Path
    replay: Path
    key: dict
    clean_exit: int
    hits: Callable[[TranscriptKey | None], bool]
    extra: str = ""


AGENT = Target(
    EXAMPLE,
    REPLAY,
    ANSWER_KEY,
    1,
    lambda key: key is not None and key.task == "drafter",
)
TURN = Target(
    TOOL_LOOP,
    TOOL_LOOP / "replay",
    TOOL_KEY,
    4,  # as the replay: one loop spends its turns
    lambda key: key is not None and key.task == "prover_turn" and key.turn == 2,
    '[prover]\ntool_loop = "on"\nmax_turns = 3\n',
)
TARGETS = {"agent": AGENT, "turn": TURN}

TRANSIENT: dict[str, Fault] = {
    "429": Fault(429, {"retry-after": "0"}, error_body("slow down")),
    "500": Fault(500, body=error_body("internal")),
    "502": Fault(502, body=error_body("bad gateway")),
    "503": Fault(503, body=error_body("unavailable")),
    "520": Fault(520, body=error_body("origin error")),
    "529": Fault(529, body=error_body("overloaded")),
    "timeout": Fault(delay_s=1.5),
    "reset": Fault(drop=True),
    "malformed": Fault(raw=b'{"id": "x", "choices": [{"mess'),
    "empty-choices": Fault(doctor=lambda body: {**body, "choices": []}),
}
PERSISTENT: dict[str, Fault] = {
    "401": Fault(401, body=error_body("invalid api key")),
    "403": Fault(403, body=error_body("forbidden")),
    "404": Fault(404, body=error_body("no such model")),
    "context": Fault(
        400, body=error_body("maximum context length exceeded", "context_length_exceeded")
    ),
    "429-forever": Fault(429, {"retry-after": "0"}, error_body("slow down")),
    "529-forever": Fault(529, body=error_body("overloaded")),
}
REPRESENTATIVE = {
    ("transient", "agent", "529", 1),
    ("transient", "turn", "529", 1),
    ("transient", "turn", "empty-choices", 4),
    ("transient", "agent", "reset", 4),
    ("transient", "turn", "malformed", 1),
    ("persistent", "turn", "context", 1),
    ("persistent", "turn", "529-forever", 4),
    ("persistent", "agent", "401", 4),
}


def cases(kind: str, faults: dict[str, Fault]) -> list:
    out = []
    for target in TARGETS:
        for name in faults:
            for jobs in (1, 4):
                full = (kind, target, name, jobs) not in REPRESENTATIVE
                marks = [pytest.mark.fault_matrix_full] if full else []
                out.append(
                    pytest.param(target, name, jobs, marks=marks, id=f"{target}-{name}-j{jobs}")
                )
    return out


def argv(tmp_path: Path, target: Target, config: Path, jobs: int) -> list[str]:
    return [
        "check",
        str(target.paper / "paper.tex"),
        "--config",
        str(config),
        "--workdir",
        str(tmp_path / "ws"),
        "--lean-replay",
        str(target.replay),
        "--jobs",
        str(jobs),
    ]


def charged(workdir: Path) -> int:
    """Requests the check charged: the spend its event log records, less the prove actions
    the tactic ladder closed with no model call (charged at their start, before the ladder
    is known to close them)."""
    logged = events(workdir)
    closed = [e for e in logged if e["type"] == "prover_finished" and e["model_turns"] == 0]
    return spend_of(logged).calls - len(closed)


@pytest.mark.parametrize(("target", "name", "jobs"), cases("transient", TRANSIENT))
def test_a_transient_fault_is_waited_out_and_the_check_completes(
    tmp_path, key_env, target, name, jobs
):
    where = TARGETS[target]
    fault = TRANSIENT[name]
    hit: list[int] = []

    def faults(number: int, key: TranscriptKey | None) -> Fault | None:
        if where.hits(key) and not hit:
            hit.append(number)
            return fault
        return None

    with LoopbackProvider(where.replay / "transcript.jsonl", faults=faults) as server:
        config = write_config(tmp_path, server.url, timeout_s=1.0, extra=where.extra)
        assert run(argv(tmp_path, where, config, jobs)) == where.clean_exit
        seen = len(server.seen)
        assert hit and server.unknown == []
    workdir = tmp_path / "ws"
    assert verdicts(workdir) == where.key
    retries = [e for e in events(workdir) if e["type"] == "retry"]
    assert len(retries) == 1
    assert charged(workdir) == seen


@pytest.mark.parametrize(("target", "name", "jobs"), cases("persistent", PERSISTENT))
def test_a_persistent_fault_stops_resumably_and_resume_completes(
    tmp_path, key_env, target, name, jobs, capsys
):
    where = TARGETS[target]
    fault = PERSISTENT[name]
    broken = [True]

    def faults(number: int, key: TranscriptKey | None) -> Fault | None:
        return fault if broken[0] and where.hits(key) else None

    workdir = tmp_path / "ws"
    with LoopbackProvider(where.replay / "transcript.jsonl", faults=faults) as server:
        config = write_config(
            tmp_path, server.url, timeout_s=1.0, max_attempts=3, extra=where.extra
        )
        assert run(argv(tmp_path, where, config, jobs)) == 4
        assert any(where.hits(s.key) for s in server.seen)
        assert charged(workdir) == len(server.seen)
        stopped = json.loads((workdir / "results.json").read_text())["results"]
        final = [
            r["id"]
            for r in stopped
            if r.get("verdict") == "unfinished"
            and r["unfinished"]["reason"] not in ("model_unavailable", "budget_exhausted")
        ]
        assert final == [], "a provider fault made a verdict final"
        out = capsys.readouterr()
        assert "paperlint resume" in out.out + out.err
        broken[0] = False
        assert run(["resume", str(workdir)]) == where.clean_exit
        assert charged(workdir) == len(server.seen)
    assert verdicts(workdir) == where.key
    assert run(["validate", str(workdir)]) == 0


def test_role_headers_limits_and_prices_apply_to_tool_loop_turns(tmp_path, key_env):
    """`[roles.prover]` headers, `max_tokens` and `temperature` reach every turn's request, and
    `[prices]` price every turn (before: the loop's own client dropped all four)."""
    with LoopbackProvider(TURN.replay / "transcript.jsonl") as server:
        extra = TURN.extra + (
            f'\n[roles.prover]\napi_base = "{server.url}"\napi_key_env = "LOOPBACK_KEY"\n'
            "max_tokens = 777\ntemperature = 0.25\n"
            '[roles.prover.headers]\nX-Team = "provers"\n'
        )
        config = write_config(tmp_path, server.url, extra=extra)
        assert run(argv(tmp_path, TURN, config, 1)) == TURN.clean_exit
        turns = [s for s in server.seen if s.key is not None and s.key.task == "prover_turn"]
    assert turns
    assert {s.headers.get("x-team") for s in turns} == {"provers"}
    assert {s.body.get("max_tokens") for s in turns} == {777}
    assert {s.body.get("temperature") for s in turns} == {0.25}
    paid = [e for e in events(tmp_path / "ws") if e["type"] == "model_call"]
    paid = [e for e in paid if e["task"] == "prover_turn"]
    assert len(paid) == len(turns) and all(e["cost_usd"] > 0 for e in paid)


CONVERGENCE = example("convergence")
CONVERGENCE_KEY = {
    rid: {"verdict": v["verdict"], "class": v["class"]}
    for rid, v in json.loads((CONVERGENCE / "answer-key.json").read_text()).items()
}


def converge_argv(tmp_path: Path, config: Path, *more: str) -> list[str]:
    where = Target(CONVERGENCE, CONVERGENCE / "replay", CONVERGENCE_KEY, 0, lambda key: False)
    return [*argv(tmp_path, where, config, 1), *more]


def reviewer(key: TranscriptKey | None) -> bool:
    return key is not None and key.task == "convergence"


@pytest.mark.parametrize("fault", ["529-forever", "401"])
def test_a_failed_convergence_review_stays_pending_and_resume_runs_it(
    tmp_path, key_env, capsys, fault
):
    """The review is a real step: a provider failure leaves it pending (exit 4, said on the
    terminal and in the report; before: exit 0, nothing said, never asked again and the
    narrower `lem_sq (hx : 0 < x)` left verified), `resume` asks it and ends where an
    uninterrupted run does; every reviewer request is charged."""
    broken = [True]

    def faults(number: int, key: TranscriptKey | None) -> Fault | None:
        return PERSISTENT[fault] if broken[0] and reviewer(key) else None

    workdir = tmp_path / "ws"
    with LoopbackProvider(CONVERGENCE / "replay/transcript.jsonl", faults=faults) as server:
        config = write_config(
            tmp_path, server.url, max_attempts=2, models={"auditor": "openai/loopback-b"}
        )
        assert run(converge_argv(tmp_path, config)) == 4
        out = capsys.readouterr()
        assert "convergence review is pending" in out.err
        assert "paperlint resume" in out.err
        state = json.loads((workdir / "convergence.json").read_text())
        assert state["status"] == "pending"
        assert "pending" in (workdir / "report/report.md").read_text()
        assert charged(workdir) == len(server.seen)
        broken[0] = False
        assert run(["resume", str(workdir)]) == 0
        assert charged(workdir) == len(server.seen)
        assert [s.key.attempt for s in server.seen if reviewer(s.key) and s.status == 200] == [1, 2]
    assert verdicts(workdir) == CONVERGENCE_KEY
    lean = (workdir / "lean/Paper/Lem_sq.lean").read_text()
    assert "theorem lem_sq (x : ℝ) : 0 ≤ x ^ 2" in lean and "0 < x" not in lean
    assert json.loads((workdir / "convergence.json").read_text())["status"] == "done"
    assert run(["validate", str(workdir)]) == 0


def test_a_budget_spent_before_the_review_leaves_it_pending_and_charges_it(
    tmp_path, key_env, capsys
):
    """`--max-calls` stops just before the review: it is pending (before: recorded as not run
    for good), the reviewers' calls count against the cap (before: 16 allowed 17 requests),
    and a resume with a larger cap finishes it."""
    with LoopbackProvider(CONVERGENCE / "replay/transcript.jsonl") as server:
        config = write_config(tmp_path, server.url, models={"auditor": "openai/loopback-b"})
        clean = tmp_path / "clean"
        argv_clean = converge_argv(tmp_path, config)
        argv_clean[argv_clean.index("--workdir") + 1] = str(clean)
        assert run(argv_clean) == 0
        before_review = next(
            i for i, s in enumerate(server.seen) if reviewer(s.key)
        )  # requests before the first reviewer call
        total = len(server.seen)
        server.seen.clear()
        workdir = tmp_path / "ws"
        assert run(converge_argv(tmp_path, config, "--max-calls", str(before_review + 1))) == 4
        assert len(server.seen) == before_review + 1  # the cap holds, reviewers included
        assert json.loads((workdir / "convergence.json").read_text())["status"] == "pending"
        capsys.readouterr()
        assert run(["resume", str(workdir), "--max-calls", str(total)]) == 0
        assert len(server.seen) == total
    assert verdicts(workdir) == verdicts(clean) == CONVERGENCE_KEY
