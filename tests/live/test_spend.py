"""Spend that cannot be lost (issue #29), counted at the loopback server: a provider that sends
no `usage` is charged an estimate (before: `--max-cost` silently stopped counting and a check
ran at about 12 times its cap), and a deleted or shortened event log cannot buy a check more
requests (before: deleting `events.jsonl` reset the spend to zero)."""

from __future__ import annotations

import pytest

from paperlint.cli.root import run
from tests.live.conftest import check_argv, events, write_config
from tests.live.loopback import Fault


def no_usage(body: dict) -> dict:
    return {k: v for k, v in body.items() if k != "usage"}


def test_a_reply_without_usage_is_charged_an_estimate_and_max_cost_holds(
    tmp_path, provider, key_env
):
    provider.set_faults(lambda n, key: Fault(doctor=no_usage))
    config = write_config(tmp_path, provider.url)
    cap = 0.01
    assert run(check_argv(tmp_path, config, "--max-cost", str(cap))) == 4
    calls = [e for e in events(tmp_path / "ws") if e["type"] == "model_call"]
    assert calls and all(e["estimated"] and e["cost_usd"] > 0 for e in calls)
    assert all(e["tokens_in"] > 0 and e["tokens_out"] > 0 for e in calls)
    spent = sum(e["cost_usd"] for e in calls)
    assert cap <= spent <= cap + max(e["cost_usd"] for e in calls)  # stops at the cap
    assert len(provider.seen) == len(calls)
    # the estimate is of the right size: within a factor 2 of the server's own count
    server = sum(len(str(s.body.get("messages"))) for s in provider.seen) / 4
    logged = sum(e["tokens_in"] for e in calls)
    assert server / 2 <= logged <= server * 2


@pytest.mark.parametrize("damage", ["deleted", "shortened"])
def test_a_lost_event_log_cannot_buy_more_requests(tmp_path, provider, key_env, damage):
    config = write_config(tmp_path, provider.url)
    workdir = tmp_path / "ws"
    assert run(check_argv(tmp_path, config, "--max-calls", "10")) == 4
    asked = len(provider.seen)
    assert asked == 10
    log = workdir / "events.jsonl"
    if damage == "deleted":
        log.unlink()
    else:
        lines = log.read_text().splitlines(keepends=True)
        log.write_text("".join(lines[: len(lines) // 3]))
    assert run(["resume", str(workdir), "--max-calls", "10"]) == 4
    assert len(provider.seen) == asked  # the spend was kept: nothing more was asked
    assert run(["resume", str(workdir), "--max-calls", "12"]) == 4
    assert len(provider.seen) == asked + 2  # a larger cap buys exactly the difference
