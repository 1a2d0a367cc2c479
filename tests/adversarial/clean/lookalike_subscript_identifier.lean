-- `x₀instance` is one identifier to Lean: `₀` and `i` are both identifier characters
theorem main (x₀instance : Prop) (h : x₀instance) : x₀instance := h
