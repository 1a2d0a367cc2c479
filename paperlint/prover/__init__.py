"""The prover's Lean tool surface (issue #13): tools, declaration search, automation, the loop.

Nothing here imports lean-interact or litellm at import time: Lean is reached through
`paperlint.lean`'s verifier and the small `Probe` protocol of `probe.py`; models through the
`ToolModel` protocol of `model.py`.
"""
