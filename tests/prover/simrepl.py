"""A SIMULATED Lean REPL for the prover's tests: hand-written answers shaped like the REPL's JSON.

Nothing here was recorded from Lean. Answers are keyed by (command text, all_tactics); the
header is clean; any other unscripted command gets the REPL's LeanError shape, so a test never
passes on an answer nobody wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperlint.lean.pins import LeanPaths
from paperlint.lean.warm import WarmSettings, WarmVerifier

HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false"


def msg(
    line: int, col: int, data: str, severity: str = "error", end: tuple[int, int] | None = None
):
    out: dict[str, Any] = {"severity": severity, "pos": {"line": line, "column": col}, "data": data}
    if end:
        out["endPos"] = {"line": end[0], "column": end[1]}
    return out


def axioms_ok(name: str) -> dict[str, Any]:
    data = f"'{name}' depends on axioms: [propext, Classical.choice, Quot.sound]"
    return {"messages": [msg(1, 0, data, "info")]}


def checks(*lines: tuple[str, str | None]) -> dict[str, Any]:
    """The answer to `#check @a\\n#check @b…`: (name, signature) per line; None = unknown."""
    out = []
    for number, (name, sig) in enumerate(lines, start=1):
        if sig is None:
            out.append(msg(number, 7, f"Unknown constant `{name}`"))
        else:
            out.append(msg(number, 0, f"@{name} : {sig}", "info"))
    return {"messages": out}


class SimulatedRepl:
    def __init__(self, answers: dict[tuple[str, bool], Any] | None = None) -> None:
        self.answers = dict(answers or {})
        self.calls: list[tuple[str, bool]] = []
        self._env = 0

    def script(self, cmd: str, answer: Any, *, all_tactics: bool = False) -> None:
        self.answers[(cmd, all_tactics)] = answer

    def run(self, cmd, env, *, timeout_s, keep, all_tactics=False, declarations=False):
        self.calls.append((cmd, all_tactics))
        if env is None and cmd.startswith("import"):
            answer: Any = {}
        elif (cmd, all_tactics) in self.answers:
            answer = self.answers[(cmd, all_tactics)]
        else:
            return {"message": "simulated REPL: no answer scripted for this command"}
        if isinstance(answer, BaseException):
            raise answer
        raw = json.loads(json.dumps(answer))
        self._env += 1
        raw["env"] = -self._env if keep else self._env
        return raw

    def forget(self, env):
        pass

    def reset(self):
        pass

    def memory_mb(self):
        return 0.0

    def close(self):
        pass


def warm(tmp_path: Path, repl: SimulatedRepl) -> WarmVerifier:
    paths = LeanPaths(project=tmp_path, cache=tmp_path / "c", repl_dir=tmp_path / "r", lake="lake")
    return WarmVerifier(WarmSettings(paths=paths), backend=repl)
