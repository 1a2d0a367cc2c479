"""`paperlint check` through litellm over real HTTP against the loopback provider, with the
example's recorded Lean answers (`--lean-replay`): clean runs, injected provider faults,
budgets, and recording a run as a replay fixture."""

import json

from paperlint.agents.transcript import Transcript, TranscriptKey
from paperlint.cli.root import run
from tests.live.conftest import ANSWER_KEY, check_argv, events, verdicts, write_config
from tests.live.loopback import Fault, error_body


def test_a_clean_live_run_reaches_the_replays_verdicts_with_priced_costs(
    tmp_path, provider, key_env
):
    config = write_config(tmp_path, provider.url)
    code = run(check_argv(tmp_path, config))
    assert code == 1  # the example records two issues
    assert verdicts(tmp_path / "ws") == ANSWER_KEY
    assert provider.unknown == []
    calls = [e for e in events(tmp_path / "ws") if e["type"] == "model_call"]
    assert len(calls) == provider.answered()
    assert all(c["tokens_in"] and c["cost_usd"] and c["cost_usd"] > 0 for c in calls)
    # every request carried the key from the configured environment variable
    assert {s.headers["authorization"] for s in provider.seen} == {"Bearer sk-loopback-test-key"}


def test_429_forever_stops_resumably_and_resume_completes(tmp_path, provider, key_env):
    provider.set_faults(lambda n, key: Fault(429, {"retry-after": "0"}, error_body("slow down")))
    config = write_config(tmp_path, provider.url, max_attempts=3)
    workdir = tmp_path / "ws"
    assert run(check_argv(tmp_path, config)) == 4
    assert len(provider.seen) == 3  # one request, waited out twice, then the run stops
    reasons = {v["verdict"] for v in verdicts(workdir).values()}
    assert reasons == {"unfinished"}
    provider.set_faults(lambda n, key: None)
    assert run(["resume", str(workdir)]) == 1
    assert verdicts(workdir) == ANSWER_KEY
    assert run(["validate", str(workdir)]) == 0


def test_502_529_520_500_and_a_timeout_are_retried(tmp_path, provider, key_env):
    script = {
        1: Fault(502, body=error_body("bad gateway")),
        2: Fault(529, body=error_body("overloaded")),
        3: Fault(520, body=error_body("origin error")),
        4: Fault(500, body=error_body("internal")),
        5: Fault(delay_s=1.5),  # longer than timeout_s: the client gives up and retries
    }
    provider.set_faults(lambda n, key: script.get(n))
    config = write_config(tmp_path, provider.url, timeout_s=1.0, max_attempts=6)
    assert run(check_argv(tmp_path, config)) == 1
    assert verdicts(tmp_path / "ws") == ANSWER_KEY
    retries = [e for e in events(tmp_path / "ws") if e["type"] == "retry"]
    assert [r["status"] for r in retries[:4]] == [502, 529, 520, 500]
    assert "Timeout" in retries[4]["error"]


def test_401_stops_the_run_at_once_and_resume_after_the_fix_completes(
    tmp_path, provider, key_env, capsys
):
    provider.set_faults(lambda n, key: Fault(401, body=error_body("invalid api key")))
    config = write_config(tmp_path, provider.url)
    workdir = tmp_path / "ws"
    assert run(check_argv(tmp_path, config)) == 4
    assert len(provider.seen) == 1  # no retry, no other result tried
    out = capsys.readouterr()
    assert "$LOOPBACK_KEY" in out.out + out.err
    data = verdicts(workdir)
    assert {v["verdict"] for v in data.values()} == {"unfinished"}
    provider.set_faults(lambda n, key: None)
    assert run(["resume", str(workdir)]) == 1
    assert verdicts(workdir) == ANSWER_KEY


def test_max_calls_1_makes_at_most_one_request(tmp_path, provider, key_env):
    provider.set_faults(lambda n, key: Fault(500, body=error_body("down")))
    config = write_config(tmp_path, provider.url)
    assert run(check_argv(tmp_path, config, "--max-calls", "1")) == 4
    assert len(provider.seen) == 1


def test_max_calls_counts_repairs_and_retries_too(tmp_path, provider, key_env):
    provider.set_faults(lambda n, key: Fault(500, body=error_body("down")) if n % 2 else None)
    config = write_config(tmp_path, provider.url)
    assert run(check_argv(tmp_path, config, "--max-calls", "5")) == 4
    assert len(provider.seen) <= 5


def test_an_unpriced_model_with_max_cost_is_refused_before_any_request(
    tmp_path, provider, key_env, capsys
):
    config = write_config(tmp_path, provider.url, price=False)
    assert run(check_argv(tmp_path, config, "--max-cost", "1")) == 2
    assert provider.seen == []
    assert "--allow-unpriced" in capsys.readouterr().err
    assert run(check_argv(tmp_path, config, "--max-cost", "1", "--allow-unpriced")) == 1


def test_empty_choices_is_a_retry_not_a_crash(tmp_path, provider, key_env):
    provider.set_faults(
        lambda n, key: Fault(doctor=lambda body: {**body, "choices": []}) if n == 1 else None
    )
    config = write_config(tmp_path, provider.url)
    assert run(check_argv(tmp_path, config)) == 1
    assert verdicts(tmp_path / "ws") == ANSWER_KEY
    retries = [e for e in events(tmp_path / "ws") if e["type"] == "retry"]
    assert len(retries) == 1 and "EmptyReply" in retries[0]["error"]


def test_retry_after_is_a_floor_in_every_form(tmp_path, provider, key_env):
    script = {
        1: Fault(429, {"retry-after-ms": "400"}, error_body("slow")),
        2: Fault(429, {"retry-after": "1"}, error_body("slow")),
    }
    provider.set_faults(lambda n, key: script.get(n))
    config = write_config(tmp_path, provider.url)
    assert run(check_argv(tmp_path, config, "--until", "planned")) == 4
    gaps = [b.at - a.at for a, b in zip(provider.seen, provider.seen[1:], strict=False)]
    assert gaps[0] >= 0.4 and gaps[1] >= 1.0


def test_a_retry_after_beyond_the_cap_stops_resumably_instead_of_hanging(
    tmp_path, provider, key_env, capsys
):
    provider.set_faults(lambda n, key: Fault(429, {"retry-after": "3600"}, error_body("later")))
    config = write_config(tmp_path, provider.url)
    assert run(check_argv(tmp_path, config)) == 4
    assert len(provider.seen) == 1
    assert "max_wait_s" in capsys.readouterr().err + (tmp_path / "ws/results.json").read_text()


def test_a_recorded_live_run_replays_to_the_same_verdicts(tmp_path, provider, key_env):
    config = write_config(tmp_path, provider.url)
    fixture = tmp_path / "recorded"
    assert run(check_argv(tmp_path, config, "--record", str(fixture))) == 1
    assert (fixture / "transcript.jsonl").is_file() and (fixture / "lean.jsonl").is_file()
    served = provider.answered()
    replayed = tmp_path / "replayed"
    argv = [
        "check",
        check_argv(tmp_path, config)[1],
        "--replay",
        str(fixture),
        "--workdir",
        str(replayed),
    ]
    assert run(argv) == 1
    assert verdicts(replayed) == ANSWER_KEY
    assert provider.answered() == served  # the replay asked no model


def test_latex_in_a_quote_survives_a_reply_that_does_not_escape_it(tmp_path, key_env):
    """The model writes `\\frac` and `\\beta` unescaped inside a JSON string (as models do);
    JSON would read form feed and backspace. The quote must reach the record exactly."""
    from tests.live.conftest import EXAMPLE, REPLAY
    from tests.live.loopback import LoopbackProvider

    printed = r"If $x > 0$, then $x \ge \frac{1}{1+\beta^2}$"
    paper = tmp_path / "paper.tex"
    source = (EXAMPLE / "paper.tex").read_text(encoding="utf-8")
    paper.write_text(source.replace(r"If $x > 0$, then $x \ge 1$", printed), encoding="utf-8")
    key = TranscriptKey("issue_checker", "prop:square", None, 1, 0)
    entry = Transcript.load(REPLAY / "transcript.jsonl").get(key)
    ruling = json.loads(entry.response)
    raw = json.dumps({**ruling, "quote": "QUOTE"}).replace("QUOTE", printed)
    assert "\\frac" in raw and "\\\\frac" not in raw  # really unescaped
    with LoopbackProvider(REPLAY / "transcript.jsonl", replies={key: raw}) as server:
        config = write_config(tmp_path, server.url)
        argv = check_argv(tmp_path, config)
        argv[1] = str(paper)
        assert run(argv) == 1
    record = next(
        r
        for r in json.loads((tmp_path / "ws/results.json").read_text())["results"]
        if r["id"] == "prop:square"
    )
    assert record["verdict"] == "issue"
    assert record["issue"]["location"]["quote"] == printed  # found verbatim in the paper
    assert record["issue"]["location"]["line"] == 50


def test_a_reply_in_the_fenced_format_reaches_the_same_verdicts(tmp_path, key_env):
    """Every prover answer rewritten the way a model uses the fenced format (prose, a ```lean
    block, CRLF line ends, a small JSON object naming the block) reaches the replay's
    verdicts over real HTTP: the recorded Lean answers are keyed by the exact candidate text,
    so this holds only if each proof comes out of the fences byte for byte."""
    from tests.live.conftest import REPLAY
    from tests.live.loopback import LoopbackProvider

    replies = {}
    for entry in Transcript.load(REPLAY / "transcript.jsonl").entries():
        if entry.task != "prover":
            continue
        answer = json.loads(entry.response)
        lean = answer.pop("lean")
        fenced = f"Here is the proof.\n\n```lean\n{lean}\n```\n\n" + json.dumps(
            {**answer, "lean": "@lean:1"}
        )
        replies[entry.key] = fenced.replace("\n", "\r\n")
    assert len(replies) >= 5
    with LoopbackProvider(REPLAY / "transcript.jsonl", replies=replies) as server:
        config = write_config(tmp_path, server.url)
        assert run(check_argv(tmp_path, config)) == 1
        assert server.unknown == []
    assert verdicts(tmp_path / "ws") == ANSWER_KEY
    assert run(["validate", str(tmp_path / "ws")]) == 0


def test_a_live_run_recorded_under_ray_replays_to_the_same_results(tmp_path, provider, ray_session):
    """`--executor ray --record DIR`: each Ray task opens the run from the workspace's spec, so
    its model answers are recorded too (before: the workers recorded nothing, and the replay
    had no answer to serve); the recording replays to the same records. (Ray's workers keep
    the environment their cluster started with, which a test cannot add a key to: a variable
    every process has stands in for the key, which the loopback server does not check.)"""
    config = write_config(tmp_path, provider.url, key_env="HOME")
    fixture = tmp_path / "recorded"
    argv = check_argv(tmp_path, config, "--record", str(fixture), "--executor", "ray")
    argv[argv.index("--jobs") + 1] = "2"
    assert run(argv) == 1
    live = json.loads((tmp_path / "ws" / "results.json").read_text())
    replayed = tmp_path / "replayed"
    argv = ["check", argv[1], "--replay", str(fixture), "--workdir", str(replayed)]
    assert run(argv) == 1
    again = json.loads((replayed / "results.json").read_text())
    assert again["results"] == live["results"]
    assert (live["replay_parts"], again["replay_parts"]) == (["lean"], ["model", "lean"])


def test_a_429_inside_the_tool_loop_is_waited_out_and_no_paid_turn_is_asked_twice(
    tmp_path, key_env
):
    """The tool loop's turns go through the model client every role uses (one model edge):
    a rate limit on a turn is waited out like any other (before: the loop's own client stopped
    the whole run), the check ends as the replay does, every answered turn was asked once,
    and every request the server saw was charged, the retried one included."""
    from tests.engine.conftest import example
    from tests.live.loopback import LoopbackProvider

    fixture = example("tool-loop")
    replay = fixture / "replay"
    key = json.loads((fixture / "answer-key.json").read_text())
    hit: list[int] = []

    def faults(number, asked):
        if asked is not None and asked.task == "prover_turn" and asked.turn == 2 and not hit:
            hit.append(number)
            return Fault(429, {"retry-after": "0"}, error_body("slow down"))
        return None

    with LoopbackProvider(replay / "transcript.jsonl", faults=faults) as server:
        config = write_config(
            tmp_path, server.url, extra='[prover]\ntool_loop = "on"\nmax_turns = 3\n'
        )
        workdir = tmp_path / "ws"
        argv = ["check", str(fixture / "paper.tex"), "--config", str(config)]
        argv += ["--workdir", str(workdir), "--lean-replay", str(replay), "--jobs", "1"]
        assert run(argv) == 4  # as the replay: one loop spends its turns
        assert server.unknown == [] and hit
        answered = [s.key for s in server.seen if s.status == 200]
        turns = [k for k in answered if k.task == "prover_turn"]
        assert len(turns) == len(set(turns)) == 8  # every paid turn asked exactly once
        seen = len(server.seen)
    assert verdicts(workdir) == {
        r: {"verdict": v["verdict"], "class": v["class"]} for r, v in key.items()
    }
    logged = events(workdir)
    retries = [(e["role"], e["status"]) for e in logged if e["type"] == "retry"]
    assert retries == [("prover", 429)]
    paid = [e for e in logged if e["type"] == "model_call" and e["task"] == "prover_turn"]
    assert len(paid) == 8 and all(e["cost_usd"] > 0 for e in paid)  # [prices] apply to turns
    charged = sum(e["charge"]["calls"] for e in logged if e["type"] == "action_started")
    charged += sum(e["calls"] for e in logged if e["type"] == "charge")
    # a prove action is charged before the ladder is known to close it with no model call
    closed = [e for e in logged if e["type"] == "prover_finished" and e["model_turns"] == 0]
    assert charged == seen + len(closed)
