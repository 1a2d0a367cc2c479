"""Offline replay: a litellm custom provider that serves a recorded transcript.

The runner calls `litellm.completion(model="paperlint-replay/<role>", ...)` exactly as it calls
a live model, so a replayed check exercises the same request, parsing, repair and accounting
code as a real one (docs/design.md §6). The transcript key travels in litellm's `metadata` kwarg,
which litellm hands to a `CustomLLM` as `litellm_params["metadata"]`.

litellm is imported at the first answer served, not when the client is built, so a replayed
check starts at once (its transcript is still read up front, to fail early).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paperlint.agents.client import (
    METADATA_KEY,
    Completion,
    Message,
    import_litellm,
    request,
)
from paperlint.agents.transcript import (
    TRANSCRIPT_FILE,
    Transcript,
    TranscriptEntry,
    TranscriptKey,
    key_from_metadata,
)
from paperlint.domain import REPLAY_MISS
from paperlint.errors import ModelError

PROVIDER = "paperlint-replay"
_REPLAY_DIR = "replay_dir"


class ReplayProvider:
    """Answers from `<replay_dir>/transcript.jsonl`; the folder comes with each request, so
    one registered provider can serve several replays (tests run many) without global state
    beyond a read cache. Registered with litellm as a `CustomLLM` by `register_provider`."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[tuple[int, int], Transcript]] = {}
        self._lock = threading.Lock()  # actions run in parallel threads (`check --jobs`)

    def completion(self, *args: Any, **kwargs: Any) -> Any:
        # litellm passes everything by keyword; see litellm/llms/custom_llm.py.
        litellm = import_litellm()
        params = kwargs.get("litellm_params") or {}
        metadata = params.get("metadata") or {}
        entry = self._entry(metadata, litellm)
        response = kwargs["model_response"]
        response.choices[0].message.content = entry.response
        response.model = f"{PROVIDER}/{kwargs.get('model', entry.role)}"
        response.usage = litellm.Usage(
            prompt_tokens=entry.usage.prompt_tokens or 0,
            completion_tokens=entry.usage.completion_tokens or 0,
            total_tokens=(entry.usage.prompt_tokens or 0) + (entry.usage.completion_tokens or 0),
        )
        return response

    def _entry(self, metadata: Mapping[str, Any], litellm: Any) -> TranscriptEntry:
        key = key_from_metadata(metadata)
        transcript = self.transcript(Path(metadata[METADATA_KEY][_REPLAY_DIR]))
        entry = transcript.answer(key, metadata[METADATA_KEY])
        if entry is None:
            # ScriptedClient checks first; this guards direct litellm use of the provider.
            raise litellm.CustomLLMError(404, missing_entry_message(key, transcript.path))
        return entry

    def transcript(self, replay_dir: Path) -> Transcript:
        """The folder's transcript, re-read when the file changes (recording, then replaying)."""
        path = replay_dir / TRANSCRIPT_FILE
        stat = path.stat() if path.exists() else None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
        with self._lock:
            cached = self._cache.get(path)
            if cached is None or cached[0] != stamp:
                cached = (stamp, Transcript.load(path))
                self._cache[path] = cached
            return cached[1]


_provider: ReplayProvider | None = None
_REGISTER = threading.RLock()
_handler: Any = None


def replay_provider() -> ReplayProvider:
    """The process's one transcript reader (no litellm needed)."""
    global _provider
    with _REGISTER:
        if _provider is None:
            _provider = ReplayProvider()
        return _provider


def register_provider() -> ReplayProvider:
    """Register the replay provider with litellm once per process (idempotent)."""
    global _handler
    litellm = import_litellm()
    provider = replay_provider()
    if _handler is None:

        class Handler(litellm.CustomLLM):  # type: ignore[misc,name-defined]  # litellm is untyped
            def completion(self, *args: Any, **kwargs: Any) -> Any:
                return provider.completion(*args, **kwargs)

        _handler = Handler()
    entries = [item for item in litellm.custom_provider_map if item["provider"] != PROVIDER]
    litellm.custom_provider_map = [*entries, {"provider": PROVIDER, "custom_handler": _handler}]
    return provider


def missing_entry_message(key: TranscriptKey, path: Path, *, other_prompt: bool = False) -> str:
    """A replay miss; `other_prompt`: the key has answers, recorded for other questions."""
    mismatch = " asked with this prompt; its answers are to other prompts" if other_prompt else ""
    return f"{REPLAY_MISS} {key.describe()}{mismatch} ({path})"


class ScriptedClient:
    """The model edge for `--replay DIR`: every role is `paperlint-replay/<role>`."""

    replay = True

    def __init__(self, replay_dir: Path) -> None:
        self.replay_dir = replay_dir.resolve()
        self._provider = replay_provider()
        self._registered = False
        # Load now so a missing or malformed transcript fails before any work starts.
        self._provider.transcript(self.replay_dir)

    def ladder(self, role: str) -> list[str]:
        return [f"{PROVIDER}/{role}"]

    def supports_tools(self, model: str) -> bool:
        """The recorded tool-loop turns were asked with native tools."""
        return any(e.tools for e in self._turns())

    def answers_turns(self) -> bool:
        """The transcript holds tool-loop turns (else the prover's answers are one-shot)."""
        return bool(self._turns())

    def _turns(self) -> list[TranscriptEntry]:
        entries = self._provider.transcript(self.replay_dir).entries()
        return [e for e in entries if e.turn]

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        metadata: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Completion:
        """The recorded answer, its text through litellm's code path as a live one's; a
        tool-loop turn's calls as they were recorded."""
        key = key_from_metadata(metadata)
        transcript = self._provider.transcript(self.replay_dir)
        asked = metadata[METADATA_KEY]
        entry = transcript.answer(key, asked)
        if entry is None:
            # Checked here because litellm would turn the provider's exception into an
            # APIConnectionError, which the runner treats as transient and retries. An entry
            # recorded for another question (a revised paper, another earlier answer) is a
            # miss too, never the old answer served as this one's (docs/design.md §6).
            other = transcript.get(key) is not None
            raise ModelError(missing_entry_message(key, transcript.path, other_prompt=other))
        if not self._registered:
            with _REGISTER:
                register_provider()
                self._registered = True
        if entry.latency_s:
            time.sleep(entry.latency_s)
        litellm = import_litellm()
        info = dict(metadata[METADATA_KEY])
        info[_REPLAY_DIR] = str(self.replay_dir)
        if not model.startswith(f"{PROVIDER}/"):
            model = f"{PROVIDER}/{info['role']}"
        response = request(
            litellm,
            model,
            messages,
            metadata={**metadata, METADATA_KEY: info},
            options={"timeout": 60},
        )
        recorded = entry.prompt_sha256
        return Completion(
            text=response.choices[0].message.content or "",
            tokens_in=entry.usage.prompt_tokens,
            tokens_out=entry.usage.completion_tokens,
            cost_usd=entry.cost_usd,  # a replay costs nothing, but its cost is unknown
            prompt_drift=recorded is not None and recorded != info.get("prompt_sha256"),
            template_drift=entry.template_sha256 is not None
            and entry.template_sha256 != info.get("template_sha256"),
            model=model,
            tool_calls=entry.completion_calls(),
        )
