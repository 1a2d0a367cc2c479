"""Model transcripts: the recorded answers a replay serves, keyed by what was asked, not how.

Entries are keyed by (task, result, obligation, attempt, repair, turn), not by prompt text, so that
improving a template does not invalidate every fixture (docs/design.md §6). Each entry keeps the
hash of the prompt it answered, so a replay can say when the prompt has drifted since.

`<replay_dir>/transcript.jsonl`, one JSON object per line:

    {"task": "prover", "role": "prover", "result": "lem:x", "obligation": "s1",
     "attempt": 1, "repair": 0, "turn": 0, "prompt_sha256": "<hex>" | null,
     "response": "<the model's raw text>",
     "tool_calls": [{"id": ..., "name": ..., "arguments": "<JSON text>"}],  # a loop turn's
     "tools": false,                                   # the turn's request carried tools
     "usage": {"prompt_tokens": 812, "completion_tokens": 95},
     "model": "<live model that answered>" | null,   # optional
     "cost_usd": 0.0031 | null}                       # optional; null = unknown

`task` is one of OUTPUT_MODELS' keys (`reviewer` is done by role `auditor`); `attempt` is the
engine's 1-based attempt number; `repair` counts re-asks after invalid output within one call;
`turn` numbers the prover's tool-loop turns (task `prover_turn`) from 1, 0 for other calls.
`prompt_sha256` is `prompts.messages_sha256` of the messages sent. A key may hold several
entries when it was asked several questions (a re-gate starts its attempts at 1 again, with a
new draft): each answers the question its hashes name (`question`), and no two entries of a
key answer the same question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.agents.client import METADATA_KEY, Completion, Message, ModelClient, RawToolCall
from paperlint.errors import InputError
from paperlint.store import append_line, jsonl_rows, write_text_atomic

TRANSCRIPT_FILE = "transcript.jsonl"


class TranscriptKey(NamedTuple):
    task: str
    result: str | None
    obligation: str | None
    attempt: int
    repair: int
    turn: int = 0
    """A turn of the prover's tool loop (task `prover_turn`), from 1; 0 for every other call."""

    def describe(self) -> str:
        return (
            f"task={self.task} result={self.result} obligation={self.obligation} "
            f"attempt={self.attempt} repair={self.repair}"
            + (f" turn={self.turn}" if self.turn else "")
        )


class Usage(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class ToolCallEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    arguments: str  # the model's JSON text, unparsed


class TranscriptEntry(BaseModel):
    """One line of `transcript.jsonl`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str
    role: str
    result: str | None
    obligation: str | None = None
    attempt: int = Field(default=1, ge=1)
    repair: int = Field(default=0, ge=0)
    turn: int = Field(default=0, ge=0)
    prompt_sha256: str | None = None
    # The parts of that prompt (prompts.Prompt): its template with includes and schema, and its
    # inputs. A later run compares the template hash with its own: a changed template is
    # reported as drift, as a note (`records.drift`), never as a verdict change.
    template_sha256: str | None = None
    inputs_sha256: str | None = None
    response: str
    tool_calls: list[ToolCallEntry] = Field(default_factory=list)
    """A tool-loop turn's native calls, as the provider sent them."""
    tools: bool = False
    """The request carried tool schemas (a native tool-loop turn; else the text protocol)."""
    usage: Usage = Field(default_factory=Usage)
    model: str | None = Field(default=None, description="The live model that answered, if any.")
    cost_usd: float | None = None
    latency_s: float | None = Field(
        default=None, ge=0, le=600, description="Seconds the replay waits before answering."
    )
    """A recorded call's wall time, replayed as a sleep (benchmarks/parallel.py sets it)."""

    @property
    def key(self) -> TranscriptKey:
        return TranscriptKey(
            self.task, self.result, self.obligation, self.attempt, self.repair, self.turn
        )

    def completion_calls(self) -> tuple[RawToolCall, ...]:
        return tuple(RawToolCall(c.id, c.name, c.arguments) for c in self.tool_calls)

    @property
    def question(self) -> str | None:
        """The question this entry answers: its prompt inputs' hash, else (a tool-loop turn)
        its whole prompt's; None for an entry not stamped yet."""
        return self.inputs_sha256 or self.prompt_sha256


def question_asked(asked: Mapping[str, Any]) -> str | None:
    """The question a request asks, as `TranscriptEntry.question` names it (from the call's
    metadata or its `model_call` event)."""
    found = asked.get("inputs_sha256") or asked.get("prompt_sha256")
    return str(found) if found else None


class Transcript:
    def __init__(
        self, entries: Mapping[TranscriptKey, Sequence[TranscriptEntry]], path: Path
    ) -> None:
        self._entries = {key: list(found) for key, found in entries.items()}
        self.path = path

    def __len__(self) -> int:
        return sum(len(found) for found in self._entries.values())

    def get(self, key: TranscriptKey) -> TranscriptEntry | None:
        """The key's first entry, whatever question it answers."""
        found = self._entries.get(key)
        return found[0] if found else None

    def answer(self, key: TranscriptKey, asked: Mapping[str, Any]) -> TranscriptEntry | None:
        """The entry of `key` recorded for the question `asked` (an entry without hashes
        answers any); None when the key has none, or only entries for other questions."""
        for entry in self._entries.get(key, []):
            if entry.inputs_sha256 is not None:
                if entry.inputs_sha256 == asked.get("inputs_sha256"):
                    return entry
            elif entry.prompt_sha256 is None or entry.prompt_sha256 == asked.get("prompt_sha256"):
                return entry
        return None

    def entries(self) -> list[TranscriptEntry]:
        """All entries, in file order (a key's entries together)."""
        return [entry for found in self._entries.values() for entry in found]

    @classmethod
    def load(cls, path: Path) -> Transcript:
        """Read a transcript; a bad or duplicated line is an InputError naming file and line."""
        if not path.is_file():
            raise InputError(
                "replay transcript not found", path=path, hint="record one with a live run"
            )
        entries: dict[TranscriptKey, list[TranscriptEntry]] = {}
        for number, row in jsonl_rows(path, "transcript entry"):
            entry = _parse_row(row, path, number)
            same = entries.setdefault(entry.key, [])
            if any(e.question is None or e.question == entry.question for e in same) or (
                same and entry.question is None
            ):
                raise InputError(
                    f"duplicate transcript entry for {entry.key.describe()}", path=path, line=number
                )
            same.append(entry)
        return cls(entries, path)


def _parse_row(row: dict[str, Any], path: Path, number: int) -> TranscriptEntry:
    try:
        return TranscriptEntry.model_validate(row)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "line"
        raise InputError(
            f"bad transcript entry: {where}: {first['msg']}", path=path, line=number
        ) from None


def call_metadata(
    *,
    task: str,
    role: str,
    result: str | None,
    obligation: str | None,
    attempt: int,
    repair: int,
    prompt_sha256: str,
    template_sha256: str | None = None,
    inputs_sha256: str | None = None,
    turn: int = 0,
) -> dict[str, Any]:
    """The litellm `metadata` the runner sends: the transcript key plus the prompt's hashes."""
    return {
        METADATA_KEY: {
            "task": task,
            "role": role,
            "result": result,
            "obligation": obligation,
            "attempt": attempt,
            "repair": repair,
            "turn": turn,
            "prompt_sha256": prompt_sha256,
            "template_sha256": template_sha256,
            "inputs_sha256": inputs_sha256,
        }
    }


def key_from_metadata(metadata: Mapping[str, Any]) -> TranscriptKey:
    info = metadata.get(METADATA_KEY)
    if not isinstance(info, Mapping):
        raise KeyError(f"litellm metadata has no {METADATA_KEY!r} entry")
    return TranscriptKey(
        str(info["task"]),
        info.get("result"),
        info.get("obligation"),
        int(info["attempt"]),
        int(info.get("repair", 0)),
        int(info.get("turn") or 0),
    )


def append_entry(path: Path, entry: TranscriptEntry) -> None:
    """Append one whole line and fsync it, so a crash mid-run keeps every answer paid for."""
    append_line(path, entry.model_dump_json(exclude_none=False))


class RecordingClient:
    """Wraps a live client and appends every answer to `<replay_dir>/transcript.jsonl`.

    Used to make fixtures from a real run: replaying the folder afterwards serves the same
    answers through `ScriptedClient`.
    """

    def __init__(self, inner: ModelClient, replay_dir: Path) -> None:
        self._inner = inner
        self.replay = inner.replay
        self.path = replay_dir / TRANSCRIPT_FILE

    def ladder(self, role: str) -> list[str]:
        return self._inner.ladder(role)

    def supports_tools(self, model: str) -> bool:
        return self._inner.supports_tools(model)

    def answers_turns(self) -> bool:
        return self._inner.answers_turns()

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        metadata: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Completion:
        extra = {"tools": tools} if tools else {}  # a tool-loop turn's
        completion = self._inner.complete(model, messages, metadata=metadata, **extra)
        info = metadata[METADATA_KEY]
        entry = TranscriptEntry(
            task=info["task"],
            role=info["role"],
            result=info.get("result"),
            obligation=info.get("obligation"),
            attempt=info["attempt"],
            repair=info.get("repair", 0),
            turn=info.get("turn") or 0,
            prompt_sha256=info.get("prompt_sha256"),
            template_sha256=info.get("template_sha256"),
            inputs_sha256=info.get("inputs_sha256"),
            response=completion.text,
            tool_calls=[ToolCallEntry(**call._asdict()) for call in completion.tool_calls],
            tools=bool(tools),
            usage=Usage(
                prompt_tokens=completion.tokens_in, completion_tokens=completion.tokens_out
            ),
            model=model,
            cost_usd=completion.cost_usd,
        )
        append_entry(self.path, entry)
        return completion


HASH_FIELDS: Final = ("prompt_sha256", "template_sha256", "inputs_sha256")


def unstamped(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Transcript rows without prompt hashes, so each answers whatever its key is asked: a
    key's copies of one answer (stamped for several questions) become that answer once; a key
    holding different answers keeps them as they are (stamped). For re-stamping
    (`scripts/stamp_prompts.py`) and for a test's hand-made variant of a fixture."""
    by_key: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        key = tuple(row.get(k) for k in ("task", "result", "obligation"))
        key += tuple(int(row.get(k) or 0) for k in ("attempt", "repair", "turn"))
        by_key.setdefault(key, []).append(dict(row))
    out: list[dict[str, Any]] = []
    for found in by_key.values():
        if len({row["response"] for row in found}) == 1:
            out.append({**found[0], **dict.fromkeys(HASH_FIELDS)})
        else:
            out += found
    return out


def stamp_prompt_hashes(path: Path, events: Iterable[Mapping[str, Any]]) -> int:
    """Write the prompt hashes (whole prompt, template, inputs) a replay run asked (its
    `model_call` events) into the transcript's entries; returns how many entries changed.

    For hand-authored fixtures, whose entries start without hashes (`scripts/stamp_prompts.py`
    runs the flows and calls this). A key asked N different questions gets N entries: its
    entries are stamped in file order, and a key with fewer entries than questions gets copies
    of its last answer for the rest (the authored answer, recorded for each question it was
    asked; the script prints them). The file is rewritten atomically.
    """
    transcript = Transcript.load(path)
    fields = HASH_FIELDS
    asked: dict[TranscriptKey, list[dict[str, Any]]] = {}
    for event in events:
        if event.get("type") != "model_call" or not event.get("task"):
            continue
        if not event.get("prompt_sha256"):
            continue
        key = TranscriptKey(
            str(event["task"]),
            event.get("result"),
            event.get("obligation"),
            int(event["attempt"]),
            int(event.get("repair", 0)),
            int(event.get("turn") or 0),
        )
        hashes = {name: event.get(name) for name in fields}
        questions = asked.setdefault(key, [])
        if all(question_asked(q) != question_asked(hashes) for q in questions):
            questions.append(hashes)
    changed = 0
    lines = []
    for key, found in transcript._entries.items():
        questions = asked.get(key, [])
        stamped = list(found) + [found[-1]] * max(0, len(questions) - len(found))
        for index, entry in enumerate(stamped):
            if index < len(questions):
                new = entry.model_copy(update=questions[index])
                changed += new != entry or index >= len(found)
                entry = new
            lines.append(entry.model_dump_json() + "\n")
    if changed:
        write_text_atomic(path, "".join(lines))
    return changed
