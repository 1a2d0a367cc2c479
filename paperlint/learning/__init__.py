"""Learning across checks (issue #19): the per-user run record and the strategy chooser.

- `userdata`: where per-user state lives (`$PAPERLINT_DATA_DIR`, else the XDG data folder).
- `runrecord`: one JSON line per checked obligation of every check, appended under a lock;
  `entries_of_workspace` derives them from a finished workspace's records and events (pure).
- `strategy`: named strategies (combinations of factors) and CausalEvolve's discounted-reward
  chooser, `R = (y - tau * best)+`, alternating exploration and exploitation; deterministic
  under a seed so that a replay makes the same choices.
"""
