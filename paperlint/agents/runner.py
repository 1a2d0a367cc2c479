"""One agent call: render the prompt, ask the model, validate the answer, repair a bounded
number of times, and report every request as an event.

Every call starts a fresh message list, so a writer and its reviewer never share a context.
The runner neither charges budgets nor picks models: the engine does both (docs/design.md §1), and
the events here tell it what each request used.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pydantic import BaseModel

from paperlint.agents.client import METADATA_KEY, Completion, Message, ModelClient, redact
from paperlint.agents.faults import (
    ContextTooLong,
    Fault,
    FaultKind,
    ModelUnavailableError,
    classify,
    fix_for,
    no_model,
    stop_error,
)
from paperlint.agents.inputs import INPUT_MODELS
from paperlint.agents.outputs import Role
from paperlint.agents.parsing import InvalidOutput, parse_output
from paperlint.agents.prompts import messages_sha256, render_prompt
from paperlint.agents.transcript import call_metadata
from paperlint.config import Config
from paperlint.errors import ModelError
from paperlint.records.events import BaseEvent, ModelCallEvent, ModelFallback, Retry

EventSink = Callable[[BaseEvent], None]
RequestSink = Callable[[dict[str, Any]], None]

TASK_ROLES: dict[str, Role] = {
    "architect": Role.ARCHITECT,
    "drafter": Role.DRAFTER,
    "second_drafter": Role.DRAFTER,  # a fresh context that never sees the first draft (#15)
    "gate": Role.GATE,
    "prover": Role.PROVER,
    "auditor": Role.AUDITOR,
    "reviewer": Role.AUDITOR,  # the auditor role gives second rulings on others' issues
    "issue_checker": Role.ISSUE_CHECKER,
    # the final review is read twice, by the gate's and the auditor's models (the call names it)
    "convergence": Role.GATE,
}
TURN_TASK = "prover_turn"
"""One turn of the prover's tool loop (`AgentRunner.turn`): tool calls, not a JSON answer."""
# Tasks a second role also does: the convergence review is read by two different models.
SECOND_ROLES: dict[str, tuple[Role, ...]] = {"convergence": (Role.AUDITOR,)}


@dataclass(frozen=True)
class AgentCall:
    task: str
    role: str
    result: str | None
    obligation: str | None = None
    attempt: int = 1
    inputs: Mapping[str, Any] | BaseModel = field(default_factory=dict)
    """Validated against `paperlint.agents.inputs.INPUT_MODELS[task]`."""
    charged: bool = True
    """Its first request is charged already (by the action's start): every other request (a
    repair, a retry) is `free=False` to `before_request`. A tool-loop turn after an action's
    first asked one is not charged yet."""


@dataclass(frozen=True)
class AgentReply:
    output: BaseModel
    """An instance of `OUTPUT_MODELS[task]`."""
    model: str
    tokens_in: int | None
    tokens_out: int | None
    cost_usd: float | None
    """Summed over the call's requests; None if any request's cost is unknown."""
    duration_s: float
    replay: bool
    prompt_sha256: str
    """Hash of the first request's messages (the rendered template)."""
    repairs: int
    requests: int
    """Model requests answered, repairs included (each one is charged)."""
    prompt_drift: bool = False


class Cancelled(ModelUnavailableError):
    """The run was interrupted (^C) before this request: nothing was asked, `resume` asks."""

    def __init__(self) -> None:
        super().__init__("interrupted (^C)", fix="`paperlint resume` continues", kind="interrupted")


class AgentCallError(ModelError):
    """The call produced no valid output; the engine records the result as unfinished."""

    def __init__(self, message: str, *, requests: int, cost_usd: float | None) -> None:
        super().__init__(message)
        self.requests = requests
        self.cost_usd = cost_usd


def _ignore(event: BaseEvent) -> None:
    return None


class AgentRunner:
    def __init__(
        self,
        config: Config,
        *,
        client: ModelClient,
        on_event: EventSink = _ignore,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        before_request: RequestSink | None = None,
    ) -> None:
        """`before_request`, if given, is called before every request a call makes (the
        first, each repair, each retry) with its key; raising from it stops the call there.
        That lets the engine charge each request to the budget before it is made, since one
        call can make up to `repair_retries + 1` answered requests."""
        self._config = config
        self._before = before_request
        self._client = client
        self._emit = on_event
        self.cancel = threading.Event()
        """Set on ^C: no request starts after it, and a wait between retries ends at once
        (`Cancelled`); a request already sent is the caller's to abandon."""
        self._sleep = sleep or self._wait_or_cancel
        self._clock = clock
        self._rng = rng or random.Random()

    def ladder(self, role: str) -> list[str]:
        """Models for `role`, weakest first; ModelError when none is configured."""
        return self._client.ladder(role)

    @property
    def client(self) -> ModelClient:
        return self._client

    @property
    def replay(self) -> bool:
        return self._client.replay

    def native(self, model: str) -> bool:
        """Whether `model` takes native tool calls (the tool loop's choice of protocol)."""
        return self._client.supports_tools(model)

    def turn(
        self,
        call: AgentCall,
        *,
        model: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        turn: int,
        keep: Callable[[Completion], None] = lambda done: None,
    ) -> Completion:
        """One turn of the prover's tool loop (task `prover_turn`): one answered request, with
        the same retries and waits, charging, events and recording as every other call. Its
        reply is free text and tool calls, which the loop reads (`paperlint.prover`); `keep`
        is told it before the call is reported (the loop logs the reply first, so a run
        killed after the report never pays for the turn again)."""
        if call.task != TURN_TASK or call.role != Role.PROVER:
            raise ValueError(f"a turn is task {TURN_TASK} of role prover, not {call.task}")

        def ask(asked: AgentCall, candidate: str) -> Completion:
            timed = self._request(asked, candidate, messages, 0, tools=tools, turn=turn)
            if candidate != model and timed.completion.model is None:
                # The loop asks its later turns of the model that took the conversation.
                timed = _Timed(replace(timed.completion, model=candidate), timed.duration_s)
            keep(timed.completion)
            self._report(asked, candidate, messages, 0, timed, ok=True, turn=turn)
            return timed.completion

        return self._first_that_fits(call, model, ask)

    def ask(
        self,
        task: str,
        *,
        role: str,
        result: str,
        obligation: str | None,
        attempt: int,
        model: str,
        inputs: dict[str, Any],
    ) -> BaseModel:
        """One call's parsed answer (the engine's `Ask`)."""
        call = AgentCall(task, role, result, obligation, attempt, inputs)
        return self.call(call, model=model).output

    def call(self, call: AgentCall, *, model: str) -> AgentReply:
        """Ask `model` for `call.task`'s output. Raises ModelError (AgentCallError when some
        requests were answered) if no valid output comes back, ModelUnavailableError when the
        provider cannot answer now. A prompt too long for `model` goes to the next model of
        the role's list."""
        _check_role(call)
        if not model:
            raise no_model(call.role)
        return self._first_that_fits(call, model, self._call_one)

    def _first_that_fits(
        self, call: AgentCall, model: str, ask: Callable[[AgentCall, str], _T]
    ) -> _T:
        """`ask(call, model)`; when the prompt is too long for `model`'s context window, the
        same of the role's later (stronger) models in turn, each after a `model_fallback`
        event, its first request charged (the action's start paid for one request only)."""
        try:
            ladder = self._client.ladder(call.role)
        except ModelError:
            ladder = []
        later = ladder[ladder.index(model) + 1 :] if model in ladder else []
        try:
            return ask(call, model)
        except ContextTooLong as exc:
            last = exc
        for candidate in later:
            self._emit(
                ModelFallback(role=call.role, result=call.result, model=candidate, error=str(last))
            )
            try:
                return ask(replace(call, charged=False), candidate)
            except ContextTooLong as exc:
                last = exc
        fault = Fault(FaultKind.CONTEXT, 400, str(last))
        raise ModelUnavailableError(
            f"{call.task} for {call.result or 'the paper'}: {last}",
            fix=fix_for(fault, model, None),
            kind=FaultKind.CONTEXT,
        )

    def _call_one(self, call: AgentCall, model: str) -> AgentReply:
        started = self._clock()
        prompt = render_prompt(call.task, self._inputs(call))
        messages = prompt.messages
        parts = _PromptParts(prompt.template_sha256, prompt.inputs_sha256)
        first_sha = messages_sha256(messages)
        tally = _Tally()
        error = ""
        for repair in range(self._config.budget.repair_retries + 1):
            timed = self._request(call, model, messages, repair, parts)
            tally.add(timed)
            text = timed.completion.text
            try:
                output = parse_output(call.task, text)
            except InvalidOutput as exc:
                error = str(exc)
                if timed.completion.finish_reason == "length":
                    error = (
                        "your answer was cut off: it reached the reply's token limit before "
                        f"the JSON was complete. Answer again, shorter. (Parser: {error})"
                    )
                self._report(call, model, messages, repair, timed, parts, ok=False)
                messages = [*messages, *_repair_messages(text, error)]
                continue
            self._report(call, model, messages, repair, timed, parts, ok=True)
            return tally.reply(
                output,
                model,
                duration_s=self._clock() - started,
                sha=first_sha,
                repairs=repair,
                replay=self._client.replay,
            )
        raise AgentCallError(
            f"{call.task} for {call.result or 'the paper'}: {model} still gave invalid output "
            f"after {self._config.budget.repair_retries} re-asks; last problem: {error}",
            requests=tally.requests,
            cost_usd=tally.cost_usd,
        )

    def _inputs(self, call: AgentCall) -> dict[str, Any]:
        schema = INPUT_MODELS[call.task]
        raw = call.inputs.model_dump() if isinstance(call.inputs, BaseModel) else call.inputs
        inputs = schema.model_validate(raw).model_dump(mode="json")
        keep = self._config.budget.max_failed_attempts_in_prompt
        if "failed_attempts" in inputs:
            # Only the last few: older ones cost tokens and rarely help (docs/design.md §6).
            inputs["failed_attempts"] = inputs["failed_attempts"][-keep:] if keep else []
        return inputs

    def _request(
        self,
        call: AgentCall,
        model: str,
        messages: Sequence[Message],
        repair: int,
        parts: _PromptParts | None = None,
        *,
        tools: Sequence[Mapping[str, Any]] = (),
        turn: int = 0,
    ) -> _Timed:
        """One answered request, retrying transient provider failures. Every try is offered to
        `before_request` first (the engine charges it there, unless it is `free`: the call's
        first request, charged by the action's start), so no request goes unpaid."""
        metadata = call_metadata(
            task=call.task,
            role=call.role,
            result=call.result,
            obligation=call.obligation,
            attempt=call.attempt,
            repair=repair,
            prompt_sha256=messages_sha256(list(messages)),
            template_sha256=parts.template_sha256 if parts else None,
            inputs_sha256=parts.inputs_sha256 if parts else None,
            turn=turn,
        )
        tries = self._config.retry.max_attempts
        for attempt in range(1, tries + 1):
            if self.cancel.is_set():
                raise Cancelled()
            if self._before is not None:
                free = call.charged and repair == 0 and attempt == 1
                self._before(
                    {**metadata[METADATA_KEY], "model": model, "try": attempt, "free": free}
                )
            started = self._clock()
            try:
                extra = {"tools": tools} if tools else {}  # a tool-loop turn's
                completion = self._client.complete(model, messages, metadata=metadata, **extra)
            except ModelError:
                raise
            except Exception as exc:  # a provider failure, sorted once by `classify`
                fault = self._classify(exc)
                reason = f"{type(exc).__name__}: {redact(str(exc))}"
                if fault.kind is FaultKind.CONTEXT:
                    raise ContextTooLong(f"{model}: {reason}") from None
                if fault.kind is not FaultKind.TRANSIENT:
                    key_env = self._config.role_settings(call.role).api_key_env
                    raise stop_error(fault, model, reason, key_env) from None
                if attempt == tries:
                    raise ModelUnavailableError(
                        f"{model} failed {tries} times; last: {reason}",
                        fix=fix_for(fault, model, None),
                        kind=fault.kind,
                    ) from None
                self._wait(call, model, attempt, fault, reason)
                continue
            return _Timed(completion, self._clock() - started)
        raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover

    def _wait_or_cancel(self, seconds: float) -> None:
        if self.cancel.wait(seconds):
            raise Cancelled()

    def _classify(self, exc: Exception) -> Fault:
        from paperlint.agents.client import import_litellm

        fault = classify(exc, litellm=import_litellm())
        if fault is None:
            raise exc  # not a provider failure: a bug, reported as one
        return fault

    def _wait(self, call: AgentCall, model: str, attempt: int, fault: Fault, reason: str) -> None:
        retry = self._config.retry
        asked = fault.retry_after_s
        if asked is not None and asked > retry.max_wait_s:
            raise ModelUnavailableError(
                f"{model}: the server asked to wait {asked:.0f} s ({reason})",
                fix=f"that is more than [retry] max_wait_s = {retry.max_wait_s:g}; "
                "`paperlint resume` later, or raise max_wait_s to wait it out",
                kind=fault.kind,
            )
        wait = backoff_delay(
            attempt,
            base_s=retry.base_delay_s,
            max_s=retry.max_delay_s,
            rng=self._rng,
            retry_after_s=asked,
        )
        self._emit(
            Retry(
                role=call.role,
                model=model,
                wait_s=round(wait, 3),
                retry_after_s=asked,
                status=fault.status,
                error=reason,
                result=call.result,
                obligation=call.obligation,
                try_=attempt,
            )
        )
        self._sleep(wait)

    def _report(
        self,
        call: AgentCall,
        model: str,
        messages: Sequence[Message],
        repair: int,
        timed: _Timed,
        parts: _PromptParts | None = None,
        *,
        ok: bool,
        turn: int = 0,
    ) -> None:
        done = timed.completion
        self._emit(
            ModelCallEvent(
                role=call.role,
                model=done.model or model,
                task=call.task,
                result=call.result,
                obligation=call.obligation,
                attempt=call.attempt,
                repair=repair,
                tokens_in=done.tokens_in,
                tokens_out=done.tokens_out,
                cost_usd=done.cost_usd,
                duration_s=round(timed.duration_s, 3),
                replay=self._client.replay,
                prompt_sha256=messages_sha256(list(messages)),
                prompt_drift=done.prompt_drift,
                template_sha256=parts.template_sha256 if parts else None,
                inputs_sha256=parts.inputs_sha256 if parts else None,
                template_drift=done.template_drift,
                finish_reason=done.finish_reason,
                ok=ok,
                turn=turn or None,
                estimated=done.estimated,
            )
        )


@dataclass(frozen=True)
class _PromptParts:
    template_sha256: str
    inputs_sha256: str


@dataclass(frozen=True)
class _Timed:
    completion: Completion
    duration_s: float


@dataclass
class _Tally:
    """Totals over a call's requests. Unknown stays unknown: one None makes the sum None."""

    requests: int = 0
    tokens_in: int | None = 0
    tokens_out: int | None = 0
    cost_usd: float | None = 0.0
    drift: bool = False
    model: str | None = None

    def add(self, timed: _Timed) -> None:
        done = timed.completion
        self.requests += 1
        self.tokens_in = _plus(self.tokens_in, done.tokens_in)
        self.tokens_out = _plus(self.tokens_out, done.tokens_out)
        self.cost_usd = _plus(self.cost_usd, done.cost_usd)
        self.drift = self.drift or done.prompt_drift
        self.model = done.model

    def reply(
        self,
        output: BaseModel,
        model: str,
        *,
        duration_s: float,
        sha: str,
        repairs: int,
        replay: bool,
    ) -> AgentReply:
        return AgentReply(
            output=output,
            model=self.model or model,
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
            cost_usd=self.cost_usd,
            duration_s=duration_s,
            replay=replay,
            prompt_sha256=sha,
            repairs=repairs,
            requests=self.requests,
            prompt_drift=self.drift,
        )


_N = TypeVar("_N", int, float)
_T = TypeVar("_T")


def _plus(total: _N | None, value: _N | None) -> _N | None:
    return None if total is None or value is None else total + value


def _check_role(call: AgentCall) -> None:
    if call.task not in TASK_ROLES:
        raise ValueError(f"unknown task {call.task!r}")
    if call.role != TASK_ROLES[call.task] and call.role not in SECOND_ROLES.get(call.task, ()):
        raise ValueError(
            f"task {call.task} is done by role {TASK_ROLES[call.task]}, not {call.role}"
        )


def _repair_messages(answer: str, error: str) -> list[Message]:
    return [
        {"role": "assistant", "content": answer},
        {
            "role": "user",
            "content": f"Your answer could not be used: {error}\n"
            "Answer again with only the corrected JSON object, following the schema above.",
        },
    ]


def backoff_delay(
    attempt: int,
    *,
    base_s: float,
    max_s: float,
    rng: random.Random,
    retry_after_s: float | None = None,
) -> float:
    """Exponential backoff with equal jitter: half the delay fixed, half random, so parallel
    clients spread out while the wait still grows.

    A server's Retry-After is a floor, never cut to `max_s` (asking again early only earns
    another 429); a little jitter goes on top so clients told the same time do not return
    together. The caller refuses asks beyond `[retry] max_wait_s` before getting here."""
    delay = min(max_s, base_s * 2.0 ** (attempt - 1))
    wait = delay / 2 + rng.uniform(0, delay / 2)
    if retry_after_s is not None:
        wait = max(wait, retry_after_s + rng.uniform(0, min(1.0, 0.1 * retry_after_s)))
    return wait
