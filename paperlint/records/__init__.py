"""On-disk records: versioned schemas and the one atomic write helper."""

from paperlint.store import (
    EventLog,
    WorkspaceLock,
    read_record,
    write_json_atomic,
    write_record,
    write_text_atomic,
)

__all__ = [
    "EventLog",
    "WorkspaceLock",
    "read_record",
    "write_json_atomic",
    "write_record",
    "write_text_atomic",
]
