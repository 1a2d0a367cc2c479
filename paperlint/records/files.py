"""The small JSON records a check keeps beside results.json (library-offered.json,
strategy.json, convergence.json): written atomically, read back strictly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from paperlint.errors import InputError
from paperlint.store import write_text_atomic

M = TypeVar("M", bound=BaseModel)


def write_model(path: Path, record: BaseModel) -> None:
    text = json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    write_text_atomic(path, text)


def read_model(path: Path, model: type[M], what: str) -> M | None:
    """The record at `path`, None when there is none; a broken one is an input error."""
    if not path.is_file():
        return None
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise InputError(
            f"the workspace's {what} is unreadable: {exc}",
            path=path,
            hint="start the check again with --fresh",
        ) from exc
