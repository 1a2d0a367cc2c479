-- family: target
-- attack: the target declared as a definition
-- refused: command-not-allowed @ 6
-- checker: target-not-theorem
-- facts: {"candidate": {"kind": "def"}}
def main (a b : ℝ) (h : a ≤ b) : a ≤ b := h
