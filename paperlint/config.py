"""One frozen config per run: models per role, budgets, the Lean edge, retries.

Precedence is CLI > project file > user file > defaults (docs/config.md). The project file is
`paperlint.toml`, or the `[tool.paperlint]` table of a `pyproject.toml`, found as ruff and pytest
find theirs: in the paper's own folder first (the folder itself when PAPER is one), then each
folder upwards to the repository root. The user file is `paperlint.toml` in the user config
folder (`user_config_file`). `--config FILE` replaces both. Unknown keys are errors that name
the file and the key, because a misspelt budget silently falling back to its default would
spend money the user did not mean to spend.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from paperlint.configfiles import CONFIG_FILE as CONFIG_FILE
from paperlint.configfiles import PYPROJECT as PYPROJECT
from paperlint.configfiles import config_files as config_files
from paperlint.configfiles import find_config_file as find_config_file
from paperlint.configfiles import is_workspace_folder
from paperlint.configfiles import user_config_file as user_config_file
from paperlint.domain import Role
from paperlint.errors import InputError

ROLES: tuple[str, ...] = tuple(role.value for role in Role)


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ModelsConfig(_Section):
    """litellm model strings per role; None means "not configured" (never a silent default)."""

    architect: str | None = Field(
        default=None, description="Plans each result: Lean names, uses, external inputs."
    )
    drafter: str | None = Field(
        default=None, description="Writes the Lean statement of each result."
    )
    gate: str | None = Field(
        default=None, description="Checks that a Lean statement says what the paper says."
    )
    prover: list[str] = Field(
        default_factory=list,
        description="Escalation ladder of proof writers: cheaper model first.",
    )
    auditor: str | None = Field(
        default=None, description="Reviews a finished proof before a verdict is recorded."
    )
    issue_checker: str | None = Field(
        default=None, description="The second, independent review of a suspected issue."
    )
    second_drafter: str | None = Field(
        default=None,
        description="Writes the second, independent draft of each statement when "
        "`[faithfulness] double_draft` is on; unset: the drafter's model, in a fresh context.",
    )

    @field_validator("prover", mode="before")
    @classmethod
    def _one_model_is_a_ladder(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    def ladder(self, role: str) -> list[str]:
        """The models configured for `role`, weakest first; empty when none is configured."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        value = getattr(self, role)
        if isinstance(value, list):
            return list(value)
        return [value] if value else []


class RoleSettings(_Section):
    """How to reach the model(s) of one role; every key is optional."""

    api_base: str | None = Field(default=None, description="The endpoint, e.g. a local server.")
    api_key_env: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="The environment variable holding the key (the key itself never goes in "
        "the config).",
    )
    timeout_s: float = Field(default=300.0, gt=0, description="Per HTTP request.")
    temperature: float | None = Field(
        default=None, ge=0, le=2, description="Sampling temperature; unset: the provider's."
    )
    max_tokens: int | None = Field(
        default=None, gt=0, description="Longest reply in tokens; unset: the provider's."
    )
    headers: dict[str, str] = Field(default_factory=dict, description="Extra HTTP headers.")


class Price(_Section):
    """USD per token, as litellm's `custom_cost_per_token` takes it."""

    input_cost_per_token: float = Field(ge=0, description="USD per prompt token.")
    output_cost_per_token: float = Field(ge=0, description="USD per completion token.")


class BudgetConfig(_Section):
    max_cost_usd: float | None = Field(
        default=None, ge=0, description="Stop when the model spend reaches this (USD)."
    )
    max_calls: int | None = Field(
        default=None, ge=0, description="Stop after this many model calls."
    )
    prover_attempts: int = Field(default=4, ge=1, description="Prover calls per obligation.")
    escalate_after: int = Field(default=2, ge=1, description="Failures before a stronger model.")
    draft_rounds: int = Field(
        default=2, ge=1, description="Statement drafts per result before it is unfinished."
    )
    repair_retries: int = Field(default=2, ge=0, description="Re-asks after invalid output.")
    max_failed_attempts_in_prompt: int = Field(
        default=3, ge=0, description="Earlier failed proofs shown to the prover."
    )


class LeanConfig(_Section):
    project_dir: str | None = Field(default=None, description="None: the bundled lean-project/.")
    repl_dir: str | None = Field(
        default=None, description="None: the REPL built by `paperlint setup`."
    )
    timeout_s: float = Field(default=120, gt=0, description="Seconds per REPL check.")
    final_timeout_s: float = Field(
        default=900, gt=0, description="Seconds for the final `lake env lean` check."
    )
    max_heartbeats: int = Field(
        default=400000, ge=0, description="Lean's maxHeartbeats per declaration."
    )
    memory_mb: int = Field(default=16384, gt=0, description="Memory limit of the REPL (MB).")
    sandbox: Literal["auto", "required", "off"] = Field(
        default="auto",
        description="bubblewrap confinement of every Lean process: auto, required or off.",
    )


class RetryConfig(_Section):
    """Backoff for rate limits and transient provider errors."""

    max_attempts: int = Field(default=6, ge=1, description="Tries per request, the first included.")
    base_delay_s: float = Field(
        default=2.0, ge=0, description="First backoff delay; it doubles per retry."
    )
    max_delay_s: float = Field(default=60.0, ge=0, description="Longest backoff delay.")
    max_wait_s: float = Field(
        default=300.0,
        ge=0,
        description="The longest single wait, even when a server's Retry-After asks for more; "
        "a longer ask stops the run (resumable) instead of hanging it.",
    )


class AutomationConfig(_Section):
    """The tactic ladder tried on an obligation before the prover model (issue #13)."""

    enabled: bool = Field(
        default=True,
        description="Try the automation ladder (grind, simp_all, aesop, …) on an obligation's "
        "first attempt, before any model call.",
    )
    timeout_s: float = Field(default=10.0, gt=0, description="Seconds per rung.")


class ProverConfig(_Section):
    """The prover's tool loop (issue #13): model turns with check, goals, search, library and
    try, under a budget per obligation charged before use."""

    tool_loop: Literal["auto", "on", "off"] = Field(
        default="auto",
        description="Run the tool loop instead of one tool-less completion per attempt: `auto` "
        "when the first prover model supports tool calling (or a replay folder holds recorded "
        "tool turns, `prover-turns.jsonl`), `on` always (the text protocol for a model without "
        "tool calling), `off` never.",
    )
    max_turns: int = Field(default=8, ge=1, description="Model turns per obligation.")
    max_tool_calls: int = Field(default=24, ge=1, description="Tool calls per obligation.")
    max_wall_s: float = Field(
        default=900.0, gt=0, description="Wall-clock seconds per obligation's loop."
    )


class LearningConfig(_Section):
    """Learning across checks (issue #19): the reviewed lemma library and the run record."""

    library: bool = Field(
        default=True,
        description="Offer the promoted lemmas of `paperlint library` to the prover.",
    )
    library_rungs: int = Field(
        default=3, ge=0, le=20, description="Library lemmas tried per obligation, best first."
    )
    strategy: Literal["adaptive", "baseline"] = Field(
        default="adaptive",
        description="Choose a strategy per result from the run record (the baseline until it "
        "holds `strategy_min_trials` live trials of the kind), or always the baseline.",
    )
    strategy_min_trials: int = Field(
        default=20, ge=0, description="Live trials of a kind before the chooser leaves the default."
    )
    strategy_seed: int = Field(
        default=0, description="Seed of the chooser's exploration; recorded in strategy.json."
    )
    convergence: bool = Field(
        default=True,
        description="When every result has a verdict, two reviewers (the gate's and the "
        "auditor's models) read the frozen graph; what they flag is gated again.",
    )
    record_runs: bool = Field(
        default=True,
        description="Append each live check's real trials to the per-user run record "
        "(`paperlint runs`): never a replay's, a check's without a model, or a result's that "
        "reached no model. A replay chooses from the `runs.jsonl` its replay folder carries "
        "(usually none), never from the user's record.",
    )


class FaithfulnessConfig(_Section):
    """Lean-backed statement faithfulness (issue #15)."""

    double_draft: bool = Field(
        default=False,
        description="Draft each verdict-bearing statement a second time, independently "
        "(`[models] second_drafter`, else the drafter in a fresh context), and try to prove "
        "the two drafts equivalent in Lean before the gate: one extra drafter call per result.",
    )
    minimal_hypotheses: bool = Field(
        default=True,
        description="After a result is verified, re-check its proof with each explicit "
        "hypothesis removed; one the proof does not need is reported (never dropped).",
    )


class PreflightConfig(_Section):
    """`paperlint preflight` in a paper's repository: the pre-commit hook reads this (#28)."""

    paper: str | None = Field(
        default=None,
        description="The paper's main .tex file (or its folder), relative to the folder of this "
        "file: what `paperlint preflight` reads when given no PATH, as the pre-commit hook is; "
        "unset: the main file paperlint finds in the current folder.",
    )
    ignore: list[str] = Field(
        default_factory=list,
        description="Diagnostic codes that never fail `paperlint preflight --fail-on` (e.g. "
        "`unsure-counter`); they are still printed.",
    )


class Config(_Section):
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    lean: LeanConfig = Field(default_factory=LeanConfig)
    retry: RetryConfig = Field(default_factory=RetryConfig)
    automation: AutomationConfig = Field(default_factory=AutomationConfig)
    prover: ProverConfig = Field(default_factory=ProverConfig)
    learning: LearningConfig = Field(default_factory=LearningConfig)
    faithfulness: FaithfulnessConfig = Field(default_factory=FaithfulnessConfig)
    preflight: PreflightConfig = Field(default_factory=PreflightConfig)
    roles: dict[str, RoleSettings] = Field(
        default_factory=dict,
        description="Per-role endpoint settings; `default` applies to every role, and a role's "
        "own table overrides it key by key (headers merged).",
    )
    prices: dict[str, Price] = Field(
        default_factory=dict, description="Prices of models litellm's price map lacks."
    )

    @field_validator("roles")
    @classmethod
    def _known_roles(cls, value: dict[str, RoleSettings]) -> dict[str, RoleSettings]:
        unknown = sorted(set(value) - {*ROLES, "default"})
        if unknown:
            raise ValueError(
                f"unknown role {unknown[0]!r}; roles are {', '.join((*ROLES, 'default'))}"
            )
        return value

    @model_validator(mode="after")
    def _roles_inherit_the_default(self) -> Config:
        """Each named role is `[roles.default]` with the keys its own table sets put over it
        (its headers added to the default's): a `[roles.prover]` that sets only `max_tokens`
        keeps the default's endpoint and key. Folded in once, here, so the snapshot a run
        writes (`dump_config_toml`) holds each role as it was resolved."""
        base = self.roles.get(DEFAULT)
        if base is None:
            return self
        for name, own in list(self.roles.items()):
            if name == DEFAULT:
                continue
            update = {key: getattr(own, key) for key in own.model_fields_set}
            if "headers" in update:
                update["headers"] = {**base.headers, **own.headers}
            self.roles[name] = base.model_copy(update=update)
        return self

    def role_settings(self, role: str) -> RoleSettings:
        """The settings for `role`: its table (the default folded in), else
        `[roles.default]`, else defaults."""
        return self.roles.get(role) or self.roles.get(DEFAULT) or RoleSettings()

    def with_overrides(self, **budget: float | int | None) -> Config:
        """A copy with budget fields replaced, e.g. `with_overrides(max_cost_usd=5.0)`.

        Only keys that are passed change, so `with_overrides(max_calls=None)` removes a limit
        while omitting `max_calls` keeps the file's value.
        """
        merged = {**self.budget.model_dump(), **budget}
        try:
            new_budget = BudgetConfig.model_validate(merged)
        except ValidationError as exc:
            raise InputError(_describe(exc, prefix="budget")) from None
        return self.model_copy(update={"budget": new_budget})


COMMAND_LINE = "command line"
DEFAULT = "default"


@dataclass(frozen=True)
class LoadedConfig:
    config: Config
    files: tuple[Path, ...]
    """The files read, in the order applied (user file, then project file; or `--config`)."""
    origins: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Where each value set by a file or the command line came from, by dotted key
    (`budget.max_calls`): the file's path, or `COMMAND_LINE`. Unlisted keys are defaults."""

    def origin(self, key: str) -> str:
        """The origin of `key` (dotted) or of the nearest table above it that was set whole."""
        parts = key.split(".")
        for end in range(len(parts), 0, -1):
            found = self.origins.get(".".join(parts[:end]))
            if found is not None:
                return found
        return DEFAULT


def load_config(
    explicit: Path | None, *, start: Path, cli: Mapping[str, Any] | None = None
) -> LoadedConfig:
    """Read the config: `explicit` if given, else the user file and the project file nearest
    `start` (the paper's folder, or the paper itself when it is a folder).

    `cli` holds nested overrides from the command line (`{"budget": {"max_calls": 10}}`); they
    win over the files. Raises `InputError` naming the file (and line where known) on a missing
    file, bad TOML, an unknown key or a bad value.
    """
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    files = config_files(explicit, start=start)
    for path in files:
        if path.name == CONFIG_FILE and is_workspace_folder(path.parent):
            raise InputError(
                "this is a check's record of the config it ran with, not a config to read",
                path=path,
                hint="pass the paper's own paperlint.toml, or copy the tables you need from this "
                "one into a new file, without [run] and [versions]",
            )
        data = _read_table(path)
        try:
            Config.model_validate(data)  # each file on its own, so an error names its file
        except ValidationError as exc:
            raise _located_error(exc, path) from None
        merged = _deep_merge(merged, data)
        origins.update(dict.fromkeys(_dotted_keys(data), str(path)))
    overrides = cli or {}
    merged = _deep_merge(merged, overrides)
    origins.update(dict.fromkeys(_dotted_keys(overrides), COMMAND_LINE))
    try:
        config = Config.model_validate(merged)
    except ValidationError as exc:
        raise _located_error(exc, files[-1] if files else None) from None
    return LoadedConfig(config=config, files=files, origins=origins)


def _dotted_keys(table: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """The dotted key of every value a table sets (a sub-table's leaves, not the sub-table)."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _dotted_keys(value, f"{name}.")  # an empty table sets nothing
        else:
            yield name


def _read_table(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("config file not found", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read config file: {exc}", path=path) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = int(match.group(1)) if match else None
        raise InputError(f"invalid TOML: {exc}", path=path, line=line) from None
    if path.name == PYPROJECT:
        table = data.get("tool", {}).get("paperlint", {})
        return table if isinstance(table, dict) else {}
    return data


def _deep_merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = _deep_merge(below, value)
        else:
            merged[key] = value
    return merged


def _located_error(exc: ValidationError, path: Path | None) -> InputError:
    errors = exc.errors()
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    if not unknown:
        first = errors[0]
        names = [part for part in first["loc"] if isinstance(part, str)]
        line = _find_key_line(path, names[-1]) if path is not None and names else None
        return InputError(_describe(exc), path=path, line=line)
    # every unknown key at once, each with its line and the nearest known key
    lines = []
    for error in unknown:
        names = [str(part) for part in error["loc"]]
        where = _find_key_line(path, names[-1]) if path is not None else None
        guess = _suggest(names)
        lines.append(
            f"unknown config key '{'.'.join(names)}'"
            + (f" (line {where})" if where is not None else "")
            + (f"; did you mean '{guess}'?" if guess else "")
        )
    first_line = _find_key_line(path, str(unknown[0]["loc"][-1])) if path is not None else None
    return InputError(
        "; ".join(lines),
        path=path,
        line=first_line,
        hint="docs/config.md lists every key of "
        + ", ".join(f"[{section}]" for section in Config.model_fields),
    )


def _suggest(names: list[str]) -> str | None:
    """The known key nearest to a misspelt one (`budget.max_cost` -> `budget.max_cost_usd`)."""
    import difflib

    model: type[BaseModel] = Config
    for name in names[:-1]:
        field = model.model_fields.get(name)
        if field is None or not isinstance(field.annotation, type):
            return None
        if not issubclass(field.annotation, BaseModel):
            return None
        model = field.annotation
    known = list(model.model_fields)
    match = difflib.get_close_matches(names[-1], known, n=1, cutoff=0.6)
    if not match:
        return None
    return ".".join([*names[:-1], match[0]])


def _describe(exc: ValidationError, prefix: str | None = None) -> str:
    first = exc.errors()[0]
    parts = [prefix] if prefix else []
    key = ".".join([*parts, *(str(part) for part in first["loc"])])
    return f"config key '{key}': {first['msg']}"


def _find_key_line(path: Path, key: str) -> int | None:
    """Best-effort line of `key = ...` so the error points at it; tomllib keeps no positions."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=|^\s*\[.*\b{re.escape(key)}\]")
    for number, text in enumerate(lines, start=1):
        if pattern.search(text):
            return number
    return None


# --- snapshot ----------------------------------------------------------------------------------


def dump_config_toml(config: Config, extra: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """TOML text of `config` plus `extra` tables (e.g. `{"run": {"paperlint_version": ...}}`).

    Written into `paper.paperlint/paperlint.toml` when a run starts. Unset values (None) are
    written as comments, since TOML has no null. `load_snapshot` reads it back.
    """
    tables: dict[str, Mapping[str, Any]] = dict(config.model_dump(mode="json"))
    for name, table in (extra or {}).items():
        if name in tables:
            raise ValueError(f"extra table {name!r} clashes with a config section")
        tables[name] = table
    chunks = [_emit_table(_toml_key(name), table) for name, table in tables.items()]
    return "\n".join(chunks)


def load_snapshot(text: str) -> tuple[Config, dict[str, Any]]:
    """Inverse of `dump_config_toml`: the config and the extra tables."""
    data = tomllib.loads(text)
    sections = set(Config.model_fields)
    known = {key: value for key, value in data.items() if key in sections}
    extra = {key: value for key, value in data.items() if key not in sections}
    return Config.model_validate(known), extra


def _emit_table(name: str, table: Mapping[str, Any]) -> str:
    """One `[name]` table; nested mappings become `[name.key]` tables after it."""
    lines = [f"[{name}]"]
    nested = []
    for key, value in table.items():
        if isinstance(value, Mapping):
            nested.append(_emit_table(f"{name}.{_toml_key(key)}", value))
        elif value is None:
            lines.append(f"# {_toml_key(key)} = (not set)")
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(["\n".join(lines) + "\n", *nested])


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to the config snapshot")


def _toml_string(text: str) -> str:
    # JSON's escapes are valid TOML basic-string escapes; DEL is the one control character
    # JSON leaves raw and TOML forbids.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
