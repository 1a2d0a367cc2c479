-- 0instance, 0x1Faxiom, 1.5e3run_cmd and sᶜaxiom in a comment are words of a comment
/- a block comment: 0b1axiom «x»elab_rules #checkx /- nested: 2.instance -/ -/
theorem main (p : Prop) (h : p) : p := h
