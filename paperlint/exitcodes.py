"""The exit codes of docs/design.md §8, in one place."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    VERIFIED = 0  # every checked result verified (conditionally or not)
    ISSUE = 1  # at least one issue recorded (also: findings of scan/validate)
    USAGE = 2  # usage or input error
    INTERNAL = 3  # internal error; a crash log was written
    UNFINISHED = 4  # unfinished results remain and no issue
    NOTHING_TO_CHECK = 5  # the paper holds no result to check (empty, or no theorem-like one)
    INTERRUPTED = 130
