-- The library target `lake build` needs. Importing it pulls in all of Mathlib, so a built
-- project has every Mathlib .olean that generated files may import.
import PaperlintLean.Basic
-- `#paperlint_statement`, the command the gate and the final check compare statements with.
import PaperlintLean.Statement
