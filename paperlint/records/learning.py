"""What a check took from the user's learning data at its start (issue #19), as records of its
own: the strategy chosen per result (`strategy.json`) and the promoted library lemmas it offers
its prover (`library-offered.json`). Choosing and offering are `paperlint.learning`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.records.files import read_model, write_model

Phase = Literal["default", "explore", "exploit"]
STRATEGY_FILE: Final = "strategy.json"
OFFERED_FILE: Final = "library-offered.json"
OFFERED_SCHEMA: Final = "paperlint.library-offered/1"


class Choice(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    strategy: str
    phase: Phase
    iteration: int  # trials of this kind before the choice
    reason: str
    mean_reward: dict[str, float] = Field(default_factory=dict)
    tries: dict[str, int] = Field(default_factory=dict)


class StrategyPlan(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int
    records: int  # run-record entries the choice was made from
    choices: dict[str, Choice] = Field(default_factory=dict)  # result id -> choice


def write_strategies(workspace: Path, plan: StrategyPlan) -> None:
    write_model(workspace / STRATEGY_FILE, plan)


def read_strategies(workspace: Path) -> StrategyPlan:
    """The choices a check made at its start; the baseline everywhere for an older workspace."""
    found = read_model(workspace / STRATEGY_FILE, StrategyPlan, "strategy choices")
    return found if found is not None else StrategyPlan(seed=0, records=0)


class Provenance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    paper_sha256: str
    workspace: str
    result: str
    lean_file: str


class OfferedLemma(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str  # `PaperlintLib.<name>`
    text: str  # the self-contained declaration put before a candidate
    statement: str  # its statement, for the search
    text_sha256: str  # the library module's hash, as in the manifest
    promoted_at: str
    provenance: Provenance


class Offered(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_id: str = OFFERED_SCHEMA
    lemmas: tuple[OfferedLemma, ...] = ()
    skipped: tuple[str, ...] = ()  # "PaperlintLib.foo: why", for the run's notes


def write_offer(workspace: Path, offered: Offered) -> None:
    write_model(workspace / OFFERED_FILE, offered)


def read_offer(workspace: Path) -> Offered:
    """The copy a check took at its start; none when the check was made without a library."""
    found = read_model(workspace / OFFERED_FILE, Offered, "offered-library copy")
    return found if found is not None else Offered()
