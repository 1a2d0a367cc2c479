"""The prover's Lean tool surface (issue #13): tools, declaration search, automation, the loop.

Nothing here imports lean-interact or litellm at import time: Lean is reached through
`paperlint.lean`'s verifier (acceptance, and the tools' probe commands); models through the
`ToolModel` protocol of `model.py` (the agents' model client).
"""
