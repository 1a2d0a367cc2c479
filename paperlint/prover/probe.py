"""What the tools need from Lean beyond acceptance: one command, its raw REPL answer.

`Probe.command(context, text, all_tactics=...)` answers with the REPL's JSON dict (messages,
sorries, tactics) or a typed `LeanCheck` failure (timeout, refused, unavailable). The live
implementation is `WarmVerifier.command` (same REPL, same env chain, never cached);
`ScriptedProbe` serves recorded answers, labelled as a replay, for tests and fixture replays.
An unrecorded command is `unavailable / no_recording`, never a guess.

Recording file `<replay_dir>/lean-probe.jsonl`, one object per line:

    {"kind": "command", "request": {"header": ..., "accepted": [...], "text": ...,
     "all_tactics": false}, "response": {...REPL JSON...}, "note": "hand-written" | "recorded"}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from paperlint.errors import InputError
from paperlint.lean import guard
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanContext, Outcome
from paperlint.store import append_line

RawAnswer = dict[str, Any]
PROBE_FILE = "lean-probe.jsonl"


@runtime_checkable
class Probe(Protocol):
    is_replay: bool

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck: ...


def probe_key(context: LeanContext, text: str, all_tactics: bool) -> str:
    parts = (context.key(), text, "tactics" if all_tactics else "plain")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class ScriptedProbe:
    """Recorded answers keyed by (context, text, all_tactics); labelled as a replay."""

    is_replay = True

    def __init__(self, answers: Mapping[str, RawAnswer] | None = None) -> None:
        self._answers: dict[str, RawAnswer] = dict(answers or {})
        self.asked: list[tuple[str, bool]] = []

    def add(
        self, context: LeanContext, text: str, answer: RawAnswer, *, all_tactics: bool = False
    ) -> None:
        self._answers[probe_key(context, text, all_tactics)] = answer

    @classmethod
    def load(cls, path: Path) -> ScriptedProbe:
        probe = cls()
        if not path.exists():
            return probe
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if entry.get("kind") == "comment":
                    continue
                request = entry["request"]
                context = LeanContext(
                    header=request["header"], accepted=tuple(request.get("accepted", ()))
                )
                probe.add(
                    context,
                    str(request["text"]),
                    dict(entry["response"]),
                    all_tactics=bool(request.get("all_tactics", False)),
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(
                    f"unreadable probe recording: {exc}", path=path, line=number
                ) from exc
        return probe

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        self.asked.append((cmd, all_tactics))
        refused = guard.refusals(cmd)  # as the live probe does: a replay must refuse the same
        if refused:
            return LeanCheck(
                outcome=Outcome.REJECTED,
                code=FailureCode.REFUSED,
                hint="refused before Lean: " + "; ".join(refused)[:400],
                replay=True,
            )
        answer = self._answers.get(probe_key(context, cmd, all_tactics))
        if answer is None:
            return LeanCheck(
                outcome=Outcome.UNAVAILABLE,
                code=FailureCode.NO_RECORDING,
                hint="no recorded probe answer for this command",
                replay=True,
            )
        return answer


class UnavailableProbe:
    """Stands in when nothing can answer a probe command: each answer says why."""

    is_replay = False

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        return LeanCheck(
            outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=self.reason
        )


class RecordingProbe:
    """Wraps a live probe and appends each raw answer to `<dir>/lean-probe.jsonl`, in the
    shape `ScriptedProbe.load` replays (`check --record DIR`)."""

    def __init__(self, inner: Probe, folder: Path) -> None:
        self.inner = inner
        self.is_replay = inner.is_replay
        self.path = folder / PROBE_FILE

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        answer = self.inner.command(context, cmd, timeout_s=timeout_s, all_tactics=all_tactics)
        if isinstance(answer, dict):
            request = {
                "header": context.header,
                "accepted": list(context.accepted),
                "text": cmd,
                "all_tactics": all_tactics,
            }
            entry = {"kind": "command", "request": request, "response": answer, "note": "recorded"}
            append_line(self.path, json.dumps(entry, ensure_ascii=False, sort_keys=True))
        return answer
