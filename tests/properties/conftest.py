"""Hypothesis settings for the property tests: bounded so the whole folder runs in seconds.

`HYPOTHESIS_PROFILE=thorough` runs many more examples (for a local hunt, not for CI).
Hypothesis keeps no example database here: a failure prints the example and the
`@reproduce_failure` line to replay it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=100,
    deadline=1000,  # ms per example: generous, the machine is shared
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=5000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
