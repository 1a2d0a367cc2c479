"""Where paperlint keeps per-user state: the run record and, later, the reviewed lemma library."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "PAPERLINT_DATA_DIR"


def user_data_dir(environ: dict[str, str] | None = None) -> Path:
    """`$PAPERLINT_DATA_DIR`, else `$XDG_DATA_HOME/paperlint`, else `~/.local/share/paperlint`.

    Only a path is computed here; nothing is created until something is written.
    """
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "paperlint"
