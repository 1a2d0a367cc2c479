-- clean: a bounded heartbeat option on one helper lemma
-- facts: {"+added": [{"name": "slow_step", "module": "PROOF", "kind": "theorem", "unsafe": false, "partial": false}]}
set_option maxHeartbeats 100000 in
theorem slow_step (a b : ℝ) (h : a ≤ b) : a ≤ b := h
theorem main (a b : ℝ) (h : a ≤ b) : a ≤ b := slow_step a b h
