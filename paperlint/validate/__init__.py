"""Re-derive verdicts from their evidence: `validate`, model-free `replay`, the vacuity probe."""
