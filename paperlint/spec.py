"""The run spec: everything a check is run with, frozen and typed, resolved once.

`spec_for(config, paper, ...)` makes it when a check starts: the config, the paper, the edges
asked for on the command line (`--replay`, `--record`, `--lean-replay`), and the Lean project
the run uses with the versions it pins. `write_spec` stores it in the workspace's
`paperlint.toml` (the config's tables, a versioned `[run]` table, `paperlint.records.run`, and
`[versions]`); `read_spec` reads it back, for `resume`, a Ray worker and `revise`, from every
workspace an earlier version wrote. The engine never reads the config itself: its opening
(`paperlint.engine.opening`) derives the settings and policy from the spec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from paperlint import __version__
from paperlint.config import ROLES, Config, dump_config_toml, load_snapshot
from paperlint.domain import Role
from paperlint.errors import InputError
from paperlint.lean.pins import LeanPaths, locate, read_pins, resolve_paths
from paperlint.records.run import RUN_SCHEMA, RunTable, decode_run
from paperlint.store import write_text_atomic


@dataclass(frozen=True)
class Edges:
    """How the two edges are wired (`check --replay/--record/--lean-replay`)."""

    replay: Path | None = None
    """Serve the model's and Lean's answers from this recorded folder (offline)."""
    record: Path | None = None
    """Write every live model answer and Lean answer here, as a replay fixture."""
    lean_replay: Path | None = None
    """Serve Lean answers from this recorded folder while the models are live."""

    def resolved(self) -> Edges:
        return Edges(*(p.resolve() if p is not None else None for p in dataclasses.astuple(self)))


@dataclass(frozen=True)
class RunSpec:
    config: Config
    paper: Path
    lean: LeanPaths
    """The Lake project, REPL, cache and `lake` the run uses."""
    versions: Mapping[str, str] = field(default_factory=dict)
    """What the report prints and `status --why` compares: paperlint, the pins of `lean.project`
    (as they were when the check started), the models per role."""
    edges: Edges = Edges()
    allow_unpriced: bool = False

    def with_budget(self, **budget: float | int | None) -> RunSpec:
        """`resume --max-cost/--max-calls`: the spec with those budget fields replaced."""
        return dataclasses.replace(self, config=self.config.with_overrides(**budget))

    @property
    def convergence(self) -> bool:
        """`[learning] convergence`: the final review is asked (a check is settled only after)."""
        return self.config.learning.convergence

    @property
    def records_runs(self) -> bool:
        """`[learning] record_runs`: the check's outcomes go to the per-user run record."""
        return self.config.learning.record_runs

    def table(self) -> RunTable:
        def text(path: Path | None) -> str:
            return str(path) if path is not None else ""

        return RunTable(
            schema_=RUN_SCHEMA,
            paperlint_version=__version__,
            paper=str(self.paper),
            replay_dir=text(self.edges.replay),
            record_dir=text(self.edges.record),
            lean_replay_dir=text(self.edges.lean_replay),
            allow_unpriced=self.allow_unpriced,
            lean_project=str(self.lean.project),
        )


def spec_for(
    config: Config, paper: Path, *, edges: Edges = Edges(), allow_unpriced: bool = False
) -> RunSpec:
    """The spec of a check starting now: the Lean project resolved from `[lean]`, its pins read."""
    if edges.replay is not None and (edges.record is not None or edges.lean_replay is not None):
        raise InputError(
            "--replay serves a recorded run; it cannot be combined with --record or --lean-replay"
        )
    lean = resolve_paths(config.lean.project_dir, config.lean.repl_dir)
    return RunSpec(
        config=config,
        paper=paper.resolve(),
        lean=lean,
        versions=versions_of(config, lean),
        edges=edges.resolved(),
        allow_unpriced=allow_unpriced,
    )


def versions_of(config: Config, lean: LeanPaths) -> dict[str, str]:
    """Versions the report prints: paperlint, the pins of the run's Lean project, the models."""
    pins = read_pins(lean.project).summary()
    versions = {"paperlint": __version__}
    versions.update({f"lean_{k}" if k == "toolchain" else k: str(v) for k, v in pins.items() if v})
    ladders = {role: config.models.ladder(role) for role in ROLES}
    for role, models in ladders.items():
        if models and role != Role.PROVER:
            versions[f"model_{role}"] = models[0]
    if config.models.second_drafter:
        versions["model_second_drafter"] = config.models.second_drafter
    if ladders[Role.PROVER]:
        versions["model_prover"] = ", ".join(ladders[Role.PROVER])
    return versions


def write_spec(config_file: Path, spec: RunSpec) -> None:
    """`paperlint.toml` of the workspace: the config, `[run]` and `[versions]`."""
    extra = {"run": spec.table().table(), "versions": dict(spec.versions)}
    write_text_atomic(config_file, dump_config_toml(spec.config, extra))


def read_spec(config_file: Path) -> RunSpec:
    """The spec a workspace was checked with (any `[run]` schema this version knows)."""
    try:
        text = config_file.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the run's config: {exc}", path=config_file) from None
    config, extra = load_snapshot(text)
    run = decode_run(extra.get("run"))
    repl = Path(config.lean.repl_dir) if config.lean.repl_dir else None
    lean = (
        locate(run.project, repl_dir=repl)
        if run.project is not None
        else resolve_paths(config.lean.project_dir, config.lean.repl_dir)
    )
    raw = extra.get("versions")
    versions = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
    return RunSpec(
        config=config,
        paper=Path(run.paper),
        lean=lean,
        versions=versions,
        edges=Edges(replay=run.replay, record=run.record, lean_replay=run.lean_replay),
        allow_unpriced=run.allow_unpriced,
    )


def replay_parts(spec: RunSpec) -> tuple[str, ...]:
    """What the run serves from recordings: "model" and "lean", or "lean" alone."""
    if spec.edges.replay is not None:
        return ("model", "lean")
    return ("lean",) if spec.edges.lean_replay is not None else ()
