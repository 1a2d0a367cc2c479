"""Offline replay: the model edge that serves a recorded transcript.

The runner asks a `ScriptedClient` exactly as it asks the live client, so a replayed check
exercises the same request building, parsing, repair and accounting code as a real one
(docs/design.md §6); only the HTTP request is replaced by the recorded answer. litellm is never
imported: a replay asks no provider, and the import alone costs seconds and ~200 MiB
(`tests/agents/test_clients.py` pins that a replayed check leaves it unloaded).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paperlint.agents.client import METADATA_KEY, Completion, Message
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


class _Transcripts:
    """The process's transcripts by folder, re-read when the file changes (recording, then
    replaying); shared by every client so tests that run many replays read each once."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[tuple[int, int], Transcript]] = {}
        self._lock = threading.Lock()  # actions run in parallel threads (`check --jobs`)

    def transcript(self, replay_dir: Path) -> Transcript:
        path = replay_dir / TRANSCRIPT_FILE
        stat = path.stat() if path.exists() else None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
        with self._lock:
            cached = self._cache.get(path)
            if cached is None or cached[0] != stamp:
                cached = (stamp, Transcript.load(path))
                self._cache[path] = cached
            return cached[1]


_TRANSCRIPTS = _Transcripts()


def missing_entry_message(key: TranscriptKey, path: Path, *, other_prompt: bool = False) -> str:
    """A replay miss; `other_prompt`: the key has answers, recorded for other questions."""
    mismatch = " asked with this prompt; its answers are to other prompts" if other_prompt else ""
    return f"{REPLAY_MISS} {key.describe()}{mismatch} ({path})"


class ScriptedClient:
    """The model edge for `--replay DIR`: every role is `paperlint-replay/<role>`."""

    replay = True

    def __init__(self, replay_dir: Path) -> None:
        self.replay_dir = replay_dir.resolve()
        # Load now so a missing or malformed transcript fails before any work starts.
        _TRANSCRIPTS.transcript(self.replay_dir)

    def ladder(self, role: str) -> list[str]:
        return [f"{PROVIDER}/{role}"]

    def supports_tools(self, model: str) -> bool:
        """The recorded tool-loop turns were asked with native tools."""
        return any(e.tools for e in self._turns())

    def answers_turns(self) -> bool:
        """The transcript holds tool-loop turns (else the prover's answers are one-shot)."""
        return bool(self._turns())

    def _turns(self) -> list[TranscriptEntry]:
        entries = _TRANSCRIPTS.transcript(self.replay_dir).entries()
        return [e for e in entries if e.turn]

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        metadata: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Completion:
        """The recorded answer, as the live client would have returned it; a tool-loop
        turn's calls as they were recorded."""
        key = key_from_metadata(metadata)
        transcript = _TRANSCRIPTS.transcript(self.replay_dir)
        asked = metadata[METADATA_KEY]
        entry = transcript.answer(key, asked)
        if entry is None:
            # An entry recorded for another question (a revised paper, another earlier answer)
            # is a miss too, never the old answer served as this one's (docs/design.md §6).
            other = transcript.get(key) is not None
            raise ModelError(missing_entry_message(key, transcript.path, other_prompt=other))
        if entry.latency_s:
            time.sleep(entry.latency_s)
        info = metadata[METADATA_KEY]
        if not model.startswith(f"{PROVIDER}/"):
            model = f"{PROVIDER}/{info['role']}"
        recorded = entry.prompt_sha256
        return Completion(
            text=entry.response,
            tokens_in=entry.usage.prompt_tokens,
            tokens_out=entry.usage.completion_tokens,
            cost_usd=entry.cost_usd,  # a replay costs nothing, but its cost is unknown
            prompt_drift=recorded is not None and recorded != info.get("prompt_sha256"),
            template_drift=entry.template_sha256 is not None
            and entry.template_sha256 != info.get("template_sha256"),
            model=model,
            tool_calls=entry.completion_calls(),
        )
