/-- A helper whose doc mentions `0instance` and `#checkx`: doc text is not code. -/
theorem helper (p : Prop) (h : p) : p := h

theorem main (p : Prop) (h : p) : p := helper p h
