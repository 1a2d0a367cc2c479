/-/ a comment whose first character is a slash -/
theorem main (p : Prop) (h : p) : p := h
