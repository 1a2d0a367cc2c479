-- family: target
-- attack: the target declared in another namespace
-- refused: command-not-allowed @ 6
-- checker: target-missing
-- facts: {"candidate": null}
namespace Hidden
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := h
end Hidden
