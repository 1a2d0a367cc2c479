"""What a check has spent and what it may spend: the one budget rule.

The spend is read from `events.jsonl` (`journal.Tally`) and kept as a floor in `spend.json`,
rewritten with every charge: a deleted or shortened event log can only make a check stop
sooner, never let it spend again. The rule is asked before every request, by
the queue before an action starts (`engine.plan.ready`) and by the model edge before each
request an action makes beyond its first (a repair, a retry, a tool-loop turn).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

SPEND_FILE: Final = "spend.json"


@dataclass(frozen=True)
class Spend:
    calls: int = 0
    cost_usd: float = 0.0


def read_floor(path: Path) -> Spend:
    """The spend `spend.json` records (nothing: 0). Unreadable counts as nothing: the event
    log still holds the spend, and the file only ever raises it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Spend(calls=int(data["calls"]), cost_usd=float(data["cost_usd"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Spend()


def write_floor(path: Path, spend: Spend) -> None:
    from paperlint.store import write_bytes_atomic

    data = json.dumps({"calls": spend.calls, "cost_usd": spend.cost_usd}) + "\n"
    write_bytes_atomic(path, data.encode(), durable=False)  # rewritten on every charge


@dataclass(frozen=True)
class Budget:
    """`--max-calls` and `--max-cost` (`[budget] max_calls`, `max_cost_usd`); None: no cap."""

    max_calls: int | None = None
    max_cost_usd: float | None = None

    def refusal(self, spent: Spend) -> str | None:
        """Why one more request may not be made after `spent`, or None when it may."""
        if self.max_calls is not None and spent.calls + 1 > self.max_calls:
            return f"the next request would pass --max-calls {self.max_calls}"
        if self.max_cost_usd is not None and spent.cost_usd >= self.max_cost_usd:
            return f"${spent.cost_usd:.4f} spent of --max-cost {self.max_cost_usd:g}"
        return None
