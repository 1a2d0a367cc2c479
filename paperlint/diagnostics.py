"""One line per problem in the GNU form compilers print, so editors and CI annotators read it.

`file:line:column: severity: message [code]` (GNU Coding Standards, "Formatting Error
Messages"): line and column are 1-based; a part that is not known is left out, never guessed
(`file:line: …`, `file: …`). Emacs' compilation mode, Vim's quickfix, VS Code problem matchers
and GitHub's annotation matchers all parse this form.
"""

from __future__ import annotations


def gnu_line(
    file: str,
    line: int | None,
    column: int | None,
    severity: str,
    message: str,
    code: str | None = None,
) -> str:
    tail = f" [{code}]" if code else ""
    return f"{place(file, line, column)}: {severity}: {message}{tail}"


def place(file: str, line: int | None, column: int | None) -> str:
    """`file:line:column`, leaving out what is not known."""
    where = file
    if line is not None:
        where += f":{line}"
        if column is not None:
            where += f":{column}"
    return where
