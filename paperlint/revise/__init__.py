"""Revisions (issue #8): check a new version of a paper by re-checking only what changed.

- `match`: pair the new version's results with the kept version's (pure).
- `changes`: what changed in each, and what must be redone over the graph (pure).
- `apply`: the kept records carried over, reset ones rewound (pure).
- `revise`: the effects: new kept source and records, the config, the event.
- `snapshot`: the copy taken before a revision writes anything, and `--undo`.
- `history`: `revision.json`, every revision of a check.
- `since`: what changed since the previous version, for the report (reads records only).
"""
