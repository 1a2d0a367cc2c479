"""The model edge: prompts, calls, validation and replay.

- `outputs`: what each task must answer (pydantic; the engine consumes these).
- `inputs`: what each task's template is given.
- `prompts`: jinja2 templates (`templates/<task>.j2`) rendered into system + user messages.
- `runner`: `AgentRunner.call(AgentCall, model=...) -> AgentReply` with repair and backoff.
- `client`: `LiteLLMClient` (live, via litellm) and `make_client`.
- `scripted`: the `paperlint-replay` litellm provider and `ScriptedClient` (offline replay).
- `transcript`: the replay transcript format, `RecordingClient`.

Nothing here is imported by `paperlint.agents` itself: litellm and jinja2 load on first use.
"""
