"""The stdio MCP server: the CLI's verbs (`paperlint.mcp.tools.registry`) as tools, and
`job_status`.

Needs the optional extra (`pip install 'paperlint[mcp]'`, the MCP Python SDK). Nothing but the
protocol goes to stdout: every verb runs in a subprocess whose output is captured.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from paperlint import __version__
from paperlint.mcp.tools import DESTRUCTIVE, READ_ONLY, Jobs, Verb, call

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "success": {"type": "boolean", "description": "The command ran (not the verdict)."},
        "exit_code": {"type": ["integer", "null"]},
        "result": {"description": "The command's JSON output, when it printed JSON."},
        "truncated": {"type": "boolean"},
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "hint": {"type": "string"}},
        },
        "job_id": {"type": "string"},
        "state": {"type": "string", "enum": ["running", "done"]},
    },
    "required": ["success"],
}
JOB_STATUS = types.Tool(
    name="job_status",
    description="The state of a check or resume job: running (with progress) or done (with "
    "its result and exit code).",
    input_schema={
        "type": "object",
        "properties": {"job_id": {"type": "string"}},
        "required": ["job_id"],
        "additionalProperties": False,
    },
    output_schema=OUTPUT_SCHEMA,
    annotations=types.ToolAnnotations(read_only_hint=True, destructive_hint=False),
)


def _tool(verb: Verb) -> types.Tool:
    return types.Tool(
        name=verb.name,
        description=verb.description,
        input_schema=verb.input_schema(),
        output_schema=OUTPUT_SCHEMA,
        annotations=types.ToolAnnotations(
            read_only_hint=verb.effect == READ_ONLY,
            destructive_hint=verb.effect == DESTRUCTIVE,
            open_world_hint=False,  # the paper's folder and the user's data only
        ),
    )


def _result(payload: dict[str, Any]) -> types.CallToolResult:
    text = json.dumps(payload, indent=2, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=payload,
        is_error=not payload.get("success", False),
    )


def build_server(jobs: Jobs, verbs: dict[str, Verb]) -> Server[Any]:

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[*(_tool(v) for v in verbs.values()), JOB_STATUS])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        if params.name == "job_status":
            return _result(jobs.status(str(arguments.get("job_id", ""))))
        verb = verbs.get(params.name)
        if verb is None:
            hint = f"unknown tool {params.name!r}; list_tools names them"
            return _result({"success": False, "error": {"code": "unknown_tool", "hint": hint}})
        if verb.job:
            return _result(jobs.start(verb, arguments))
        payload = await anyio.to_thread.run_sync(call, verb, arguments)
        return _result(payload)

    return Server(
        "paperlint",
        version=__version__,
        instructions="paperlint's CLI verbs as tools. `success` says the command ran; "
        "verdicts and Lean findings are in `result`. check/resume start jobs: poll job_status.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve(verbs: dict[str, Verb]) -> None:
    jobs = Jobs()
    server = build_server(jobs, verbs)
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        jobs.close()


def main(verbs: dict[str, Verb]) -> None:
    anyio.run(serve, verbs)
