"""Generate `docs/config.md` from the pydantic config models: every key, type, default, meaning.

`python -m paperlint.cli.config_docs` rewrites the file; `tests/cli/test_config_docs.py` fails
when it is stale or when a key has no description.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

HEADER = """# Configuration reference

Generated from the config models in `paperlint/config.py` by
`python -m paperlint.cli.config_docs`; do not edit by hand.

The project config is `paperlint.toml` (or the `[tool.paperlint]` table of a `pyproject.toml`),
found as ruff and pytest find theirs: in the paper's own folder first (the folder itself when
PAPER is a folder, so `check DIR` and `check DIR/paper.tex` read the same file), then each
folder upwards, stopping at the repository root (a folder holding `.git`). The walk passes
over a check's workspace (`paper.paperlint/`): the `paperlint.toml` there is the run's record of
the config it ran with (with `[run]` and `[versions]`), so from `paper.paperlint/source/` the
paper's own config is read, and `--config` refuses the record. Below it sits the user config,
`paperlint.toml` in `$PAPERLINT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/paperlint/`, else
`~/.config/paperlint/`. Command-line flags win over the project file, the project file over
the user file (key by key), the user file over the defaults; `--config F` replaces both files.
`paperlint config [PAPER]` prints the files read and every value with its origin. An unknown
key is an error, and every unknown key is reported with the nearest known one.
"""


def _type(annotation: Any) -> str:
    text = getattr(annotation, "__name__", None) if isinstance(annotation, type) else None
    text = text or str(annotation).replace("typing.", "")
    return text.replace(" | ", " or ")  # a bare `|` would split the Markdown table cell


def _default(field: Any) -> str:
    if field.default_factory is not None:
        return f"`{json.dumps(field.default_factory())}`"
    if field.default is PydanticUndefined:
        return "required"
    if field.default is None:
        return "unset"
    return f"`{json.dumps(field.default)}`"


def keys(model: type[BaseModel]) -> list[tuple[str, str, Any]]:
    """(section, key, field) for every leaf key, in the models' order."""
    out = []
    for section, field in model.model_fields.items():
        sub = field.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel):
            out += [(section, key, f) for key, f in sub.model_fields.items()]
            continue
        # a table of named entries (`[roles.<role>]`, `[prices.<model>]`): its value's keys
        value = typing.get_args(sub)[-1] if typing.get_args(sub) else None
        assert isinstance(value, type) and issubclass(value, BaseModel), section
        out += [(f"{section}.<name>", key, f) for key, f in value.model_fields.items()]
    return out


def render_config_docs() -> str:
    from paperlint.config import Config

    lines = [HEADER.rstrip()]
    section_now = None
    for section, key, field in keys(Config):
        if section != section_now:
            top = Config.model_fields[section.split(".", 1)[0]]
            sub = top.annotation
            doc = (getattr(sub, "__doc__", "") or "").strip().splitlines()
            if "." in section:  # a table of named entries: its own description says what
                doc = [top.description or ""]
            lines += ["", f"## `[{section}]`", ""]
            if doc and not doc[0].startswith(("A base", "Usage docs")):
                lines += [doc[0], ""]
            lines += ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
            section_now = section
        meaning = (field.description or "").replace("|", "\\|")
        lines.append(f"| `{key}` | `{_type(field.annotation)}` | {_default(field)} | {meaning} |")
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    target = Path(__file__).resolve().parents[2] / "docs" / "config.md"
    target.write_text(render_config_docs(), encoding="utf-8")
    print(target)


if __name__ == "__main__":
    main()
