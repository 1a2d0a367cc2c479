import Mathlib

/-!
# Support module for paperlint

Deliberately empty of declarations for now: generated files start with `import Mathlib` (the
same header the warm REPL imports), and anything added here becomes part of the trusted base
that `#print axioms` follows. Add support definitions only with a reviewed, axiom-free proof.
-/
