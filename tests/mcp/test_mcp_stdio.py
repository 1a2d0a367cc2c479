"""An MCP client talks to `paperlint mcp` over stdio: initialize, list tools, run preflight,
run the example's replayed check as a job to completion, read its verdicts.

Skipped when the optional extra is absent (`pip install -e '.[mcp]'`).
"""

import json
import sys
import time
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (pip install 'paperlint[mcp]')")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "sample-variance"


async def _session_run(body):
    params = StdioServerParameters(command=sys.executable, args=["-m", "paperlint", "mcp"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        info = await session.initialize()
        return info, await body(session)


def _structured(result):
    assert result.content and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content  # text fallback
    return result.structured_content


def test_initialize_list_tools_preflight_and_a_replayed_check(tmp_path):
    workdir = tmp_path / "ws"

    async def body(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        pre = _structured(
            await session.call_tool("preflight", {"path": str(FIXTURE / "paper.tex")})
        )
        bad = _structured(await session.call_tool("preflight", {"path": str(tmp_path / "x.txt")}))
        started = _structured(
            await session.call_tool(
                "check",
                {
                    "paper": str(FIXTURE / "paper.tex"),
                    "replay": str(FIXTURE / "replay"),
                    "workdir": str(workdir),
                    "fresh": True,
                },
            )
        )
        polls = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            state = _structured(
                await session.call_tool("job_status", {"job_id": started["job_id"]})
            )
            polls.append(state)
            if state["state"] == "done":
                break
            await anyio.sleep(0.5)
        status = _structured(await session.call_tool("status", {"workdir": str(workdir)}))
        scan = _structured(await session.call_tool("lean_scan", {"files": [str(workdir / "lean")]}))
        return tools, pre, bad, started, polls, status, scan

    info, (tools, pre, bad, started, polls, status, scan) = anyio.run(_session_run, body)
    assert info.server_info.name == "paperlint"

    # the CLI's verbs, from the one registry; setup is deliberately not a tool
    for name in ("preflight", "check", "resume", "status", "report", "validate", "replay",
                 "doctor", "lean_scan", "job_status"):  # fmt: skip
        assert name in tools, name
    assert "setup" not in tools and "mcp" not in tools
    assert "format" not in json.dumps(tools["preflight"].input_schema)  # always json here
    # the paper is optional, as on the command line: [preflight] paper, else the main file of
    # the server's folder (#28)
    schema = tools["preflight"].input_schema
    assert schema["required"] == [] and "path" in schema["properties"]
    assert "fail_on" in schema["properties"]

    assert pre["success"] and pre["exit_code"] == 0
    ids = [r["id"] for r in pre["result"]["results"]]
    assert ids == ["def:mean", "lem:mean-max", "lem:mean-square", "prop:square", "thm:product"]
    assert all(r["span"]["start_line"] >= 1 for r in pre["result"]["results"])  # 1-based

    assert not bad["success"] and bad["error"]["code"] == "usage" and bad["error"]["hint"]

    assert started["success"] and started["state"] == "running"
    done = polls[-1]
    assert done["state"] == "done", polls[-1]
    assert done["success"] and done["exit_code"] == 1  # two issues recorded: still a success
    assert done["result"]["counts"] == {
        "issue": 2,
        "verified_conditional": 1,
        "verified_unconditional": 1,
    }
    assert done["result"]["replay"] is True

    verdicts = {r["id"]: r["verdict"] for r in status["result"]["results"]}
    assert verdicts == {
        "def:mean": None,
        "lem:mean-max": "verified_unconditional",
        "lem:mean-square": "verified_conditional",
        "prop:square": "issue",
        "thm:product": "issue",
    }
    # Lean's findings and the call's success are apart
    assert scan["success"] and isinstance(scan["result"], list)
