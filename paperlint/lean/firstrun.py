"""The first run on a machine with Lean: confirm docs/lean-notes.md §12 and record real fixtures.

    python -m paperlint.lean.firstrun [--out fixtures/lean_replay/recorded] [--timeout 600]

Runs the examples of docs/lean-notes.md §12 through the warm verifier, recording with `LeanRecorder`
(so the answers land in `<out>/lean.jsonl` in replay format, `note: "recorded"`), plus raw probes
the verifier would refuse or never send (native_decide, a custom axiom, a sorry's axioms) into
`<out>/probes.jsonl`, and prints a JSON summary: header import time, RSS, the exact message
texts, the timeout-and-rebuild timing, the final-check results, and the peak memory of the
header import with the `[lean] memory_mb` it suggests. Read the summary against
the checklist in the report of issue #3 before trusting any replay fixture.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperlint.lean.doctor import lean_ready
from paperlint.lean.messages import axiom_query, marked_axiom_queries
from paperlint.lean.pins import LeanPaths, locate, read_pins
from paperlint.lean.replay import LeanRecorder
from paperlint.lean.verifier import LeanCheck, LeanContext, accept
from paperlint.lean.warm import Exchange, WarmSettings, WarmVerifier, cgroup_memory_limit_mb

HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false\nopen Real"
CANDIDATES = {
    "clean": "theorem paperlint_sq (x : ℝ) : 0 < x ^ 2 + 1 := by positivity",
    "unknown_identifier": "theorem paperlint_bad (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg' x",
    "sorry": "theorem paperlint_sorry (n : ℕ) (hn : 0 < n) : 1 ≤ n := by\n  sorry",
    "unsolved_goals": (
        "theorem paperlint_mean (a b : ℝ) (ha : 0 ≤ a) (hb : 0 ≤ b) :\n"
        "    (a + b) / 2 ≤ max a b := by\n  rw [div_le_iff₀ (by norm_num)]"
    ),
    "heartbeats": (
        "set_option maxHeartbeats 50 in\n"
        "theorem paperlint_hb (x y : ℝ) (h : 0 < x) (k : 0 < y) : 0 < x * y + x ^ 3 * y ^ 5 := by\n"
        "  positivity"
    ),
    "unused_hypothesis": "theorem paperlint_unused (n : ℕ) (h : n = 3) : n + 0 = n := by simp",
}
# Sent to the REPL directly: the verifier refuses (or never sends) these on purpose.
PROBES = {
    "native_decide_axioms": "theorem paperlint_native : 2 ^ 10 = 1024 := by native_decide\n"
    + axiom_query(["paperlint_native"]),
    "custom_axiom": "axiom paperlint_cheat : False\n"
    "theorem paperlint_uses : 1 = 2 := paperlint_cheat.elim\n" + axiom_query(["paperlint_uses"]),
    "sorry_axioms": "theorem paperlint_s2 : 1 = 1 := sorry\n" + axiom_query(["paperlint_s2"]),
    "axiom_free": "theorem paperlint_free : True := trivial\n" + axiom_query(["paperlint_free"]),
    "long_axiom_list": "theorem paperlint_long (s : Set ℝ) (h : s.Nonempty) : ∃ x, x ∈ s := h\n"
    + axiom_query(["paperlint_long"]),
    "unknown_constant": axiom_query(["paperlint_does_not_exist"]),
    # The hygiene scan may refuse a `set_option maxHeartbeats` candidate; the text matters.
    "heartbeats_raw": CANDIDATES["heartbeats"],
    # The marker-wrapped queries the final check appends, answered over the REPL.
    "marked_over_repl": "theorem paperlint_m : True := trivial\n"
    + marked_axiom_queries(["paperlint_m"], "x"),
}
# Sent with `declarations=True`: what the REPL says each command declared (the field names
# and kinds `repl_declarations.py` reads: a theorem, Mathlib's `lemma`, an instance, an
# attributed def, in a namespace). The upstream REPL answers without the list.
DECLARATION_PROBES = {
    "declarations": "namespace PaperlintProbe\ntheorem helper : True := trivial\n"
    "lemma main : True := helper\ninstance (priority := 10) probeInst : Inhabited ℕ := ⟨0⟩\n"
    "@[simp] def probeDef : ℕ := 1\nend PaperlintProbe",
}
FINAL_OK = HEADER + "\n\nnamespace Paper\n\n" + CANDIDATES["clean"] + "\n\nend Paper\n"
FINAL_BAD = HEADER + "\n\n" + CANDIDATES["sorry"] + "\n"


def _summary(check: LeanCheck) -> dict[str, Any]:
    return {
        "outcome": check.outcome,
        "code": check.code,
        "hint": check.hint,
        "duration_s": round(check.duration_s, 3),
        "messages": [m.model_dump() for m in check.messages],
        "goals": list(check.goals),
        "axioms": check.axioms,
    }


class PeakMemory:
    """Samples a memory figure in a thread while a block runs (the header import), so the
    peak is seen, not only what is left once Mathlib is loaded."""

    def __init__(self, read_mb: Callable[[], float], *, every_s: float = 0.1) -> None:
        self._read = read_mb
        self._every = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self.peak_mb = 0.0

    def _sample(self) -> None:
        while True:
            self._take()
            if self._stop.wait(self._every):
                return

    def _take(self) -> None:
        try:
            self.peak_mb = max(self.peak_mb, float(self._read()))
        except Exception:  # a process between restarts has no figure
            return

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._take()


def memory_advice(peak_mb: float) -> dict[str, Any]:
    """The measured peak of the import, the cgroup's limit, and what to set `[lean]
    memory_mb` to: twice the peak (the address-space limit also counts mapped .olean files
    and Lean's reserved heap), never above the cgroup's limit."""
    group = cgroup_memory_limit_mb()
    suggested = int(math.ceil(2 * peak_mb / 1024) * 1024) if peak_mb else None
    advice: dict[str, Any] = {
        "peak_rss_mb_during_import": round(peak_mb, 1),
        "cgroup_limit_mb": group,
        "suggested_memory_mb": suggested,
    }
    if suggested and group and suggested > group:
        advice["warning"] = (
            f"the import peaks at {peak_mb:.0f} MB; twice that exceeds this cgroup's "
            f"{group} MB: give the container more memory"
        )
    return advice


def run_firstrun(
    paths: LeanPaths,
    out: Path,
    *,
    timeout_s: float,
    make: Callable[[LeanPaths, Callable[[Exchange], None]], WarmVerifier] | None = None,
) -> dict[str, Any]:
    """`make(paths, recorder)` builds the warm verifier (tests: a fake REPL), recording into
    `out` through `recorder`."""
    pins = read_pins(paths.project)
    write = LeanRecorder(out, toolchain=pins.toolchain, mathlib_rev=pins.mathlib_rev).write
    warm = make(paths, write) if make else WarmVerifier(WarmSettings(paths=paths), recorder=write)
    rec = warm
    ctx = LeanContext(header=HEADER)
    found: dict[str, Any] = {"pins": read_pins(paths.project).summary(), "checks": {}}
    try:
        start = time.monotonic()
        with PeakMemory(warm._backend.memory_mb) as peak:
            first = accept(rec, ctx, CANDIDATES["clean"], "paperlint_sq", timeout_s=timeout_s)
        found["header_import_and_first_check_s"] = round(time.monotonic() - start, 2)
        found["rss_mb_after_header"] = round(warm._backend.memory_mb(), 1)
        found["memory"] = memory_advice(peak.peak_mb)
        found["checks"]["clean"] = _summary(first)
        for label, text in CANDIDATES.items():
            if label != "clean":
                found["checks"][label] = _summary(rec.check(ctx, text, timeout_s=timeout_s))
        found["probes"] = _probes(warm, ctx, out, timeout_s)
        found["timeout_path"] = _timeout_path(rec, warm, ctx, timeout_s)
        found["final"] = _finals(rec, timeout_s)
    finally:
        rec.close()
    return found


def _probes(warm: WarmVerifier, ctx: LeanContext, out: Path, timeout_s: float) -> dict[str, Any]:
    results: dict[str, Any] = {}
    env = warm._prepare(ctx)
    with (out / "probes.jsonl").open("a", encoding="utf-8") as log:
        for label, text in PROBES.items():
            try:
                raw: Any = warm._backend.run(text, env, timeout_s=timeout_s, keep=False)
            except Exception as exc:  # a probe records what happened, whatever it was
                raw = {"exception": f"{type(exc).__name__}: {exc}"}
            results[label] = raw
            log.write(json.dumps({"label": label, "cmd": text, "response": raw}) + "\n")
        for label, text in DECLARATION_PROBES.items():
            try:
                raw = warm._backend.run(
                    text, env, timeout_s=timeout_s, keep=False, declarations=True
                )
            except Exception as exc:
                raw = {"exception": f"{type(exc).__name__}: {exc}"}
            results[label] = raw
            log.write(json.dumps({"label": label, "cmd": text, "response": raw}) + "\n")
    return results


def _timeout_path(
    rec: WarmVerifier, warm: WarmVerifier, ctx: LeanContext, timeout_s: float
) -> dict[str, Any]:
    slow = "theorem paperlint_slow : (List.range 4000).sum = 7998000 := by decide"
    start = time.monotonic()
    timed = rec.check(ctx, slow, timeout_s=0.5)
    after = time.monotonic()
    rebuilt = rec.check(ctx, CANDIDATES["clean"], timeout_s=timeout_s)
    return {
        "slow": _summary(timed),
        "slow_wall_s": round(after - start, 2),
        "rebuild_and_check_s": round(time.monotonic() - after, 2),
        "rebuilt_accepted": rebuilt.accepted,
        "restarts": [r.reason for r in warm.restarts],
    }


def _finals(rec: WarmVerifier, timeout_s: float) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="paperlint-firstrun-") as tmp:
        for label, text, names in (
            ("ok", FINAL_OK, ["Paper.paperlint_sq"]),
            ("sorry", FINAL_BAD, ["paperlint_sorry"]),
        ):
            file = Path(tmp) / f"Final_{label}.lean"
            file.write_text(text, encoding="utf-8")
            final = rec.final_check(file, names, timeout_s=timeout_s)
            results[label] = final.model_dump(exclude={"output"}) | {"output": final.output[:4000]}
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paperlint.lean.firstrun")
    parser.add_argument("--out", type=Path, default=Path("fixtures/lean_replay/recorded"))
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    paths = locate()
    ready, reason = lean_ready(paths)
    if not ready:
        print(reason, file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    found = run_firstrun(paths, args.out, timeout_s=args.timeout)
    print(json.dumps(found, indent=2, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
