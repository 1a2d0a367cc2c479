# ruff: noqa: E501  (one declaration per line reads better than wrapped Lean types)
"""Write fixtures/decl_index/extract.jsonl: a HAND-WRITTEN extraction output.

Not recorded from Lean (no toolchain on the machine that wrote it). It has the exact shape
`lean-project/PaperLint/Extract.lean` writes (`paperlint.decl_extract/1`: header line, one
object per constant sorted by name, `{"end": n, "skipped": 0}` last). Names, modules and types
are Mathlib's as the author knows them for v4.35-era Mathlib; pretty-printing details (binder
names, `inst✝`) are plausible, not verified. Replace it with a real extraction on the first
machine with Lean. Run:

    python -m tests.prover.build_index_fixture

`test_fixture_is_up_to_date` fails when the committed file drifts from this script.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "fixtures" / "decl_index" / "extract.jsonl"

LO = "∀ {α : Type u_1} [inst : LinearOrder α]"
ORD = "∀ {α : Type u_1} [inst : Preorder α]"
ORING = "∀ {α : Type u_1} [inst : Semiring α] [inst_1 : PartialOrder α] [inst_2 : IsOrderedRing α]"
SORING = "∀ {α : Type u_1} [inst : Semiring α] [inst_1 : PartialOrder α] [inst_2 : IsStrictOrderedRing α]"
FIELD = (
    "∀ {α : Type u_1} [inst : Field α] [inst_1 : LinearOrder α] [inst_2 : IsStrictOrderedRing α]"
)
GRP = "∀ {α : Type u_1} [inst : Lattice α] [inst_1 : AddGroup α]"
AOM = "∀ {α : Type u_1} [inst : AddZeroClass α] [inst_1 : Preorder α] [inst_2 : AddLeftMono α]"
MET = "∀ {α : Type u_1} [inst : PseudoMetricSpace α]"
TOP = "∀ {X : Type u_1} {Y : Type u_2} {Z : Type u_3} [inst : TopologicalSpace X] [inst_1 : TopologicalSpace Y] [inst_2 : TopologicalSpace Z]"

LAT = "Mathlib.Order.Lattice"
OMM = "Mathlib.Order.MinMax"
RL = "Mathlib.Algebra.Order.Ring.Lemmas"
RD = "Mathlib.Algebra.Order.Ring.Defs"
GA = "Mathlib.Algebra.Order.Group.Abs"
GU = "Mathlib.Algebra.Order.Group.Unbundled.Abs"
MO = "Mathlib.Algebra.Order.Monoid.Lemmas"
EXP = "Mathlib.Analysis.SpecialFunctions.Exp"
EXPB = "Mathlib.Analysis.Complex.Exponential"
LOG = "Mathlib.Analysis.SpecialFunctions.Log.Basic"
SQRT = "Mathlib.Analysis.SpecialFunctions.Pow.NNRpow"
SQ = "Mathlib.Analysis.SpecialFunctions.Sqrt"
SQB = "Mathlib.Analysis.SpecialFunctions.Pow.Real"
RSQ = "Mathlib.Analysis.SpecialFunctions.Sqrt"
MS = "Mathlib.Topology.MetricSpace.Pseudo.Defs"
FS = "Mathlib.Algebra.Order.BigOperators.Group.Finset"
BIG = "Mathlib.Algebra.BigOperators.Group.Finset.Basic"
GEOM = "Mathlib.Algebra.GeomSum"
CONT = "Mathlib.Topology.Continuous"
DVD = "Mathlib.Algebra.Group.Basic"
FLD = "Mathlib.Algebra.Order.Field.Basic"
NAT = "Mathlib.Order.Basic"
INIT = "Init.Prelude"

DECLS: list[tuple[str, str, str, str, str | None]] = [
    # (name, kind, module, type, doc)
    ("le_max_left", "theorem", LAT, f"{LO} (a b : α), a ≤ max a b", None),
    ("le_max_right", "theorem", LAT, f"{LO} (a b : α), b ≤ max a b", None),
    ("max_le", "theorem", LAT, f"{LO} {{a b c : α}}, a ≤ c → b ≤ c → max a b ≤ c", None),
    ("max_le_iff", "theorem", LAT, f"{LO} {{a b c : α}}, max a b ≤ c ↔ a ≤ c ∧ b ≤ c", None),
    ("le_max_of_le_left", "theorem", LAT, f"{LO} {{a b c : α}}, a ≤ b → a ≤ max b c", None),
    ("max_comm", "theorem", LAT, f"{LO} (a b : α), max a b = max b a", None),
    ("max_self", "theorem", LAT, f"{LO} (a : α), max a a = a", None),
    ("min_le_left", "theorem", LAT, f"{LO} (a b : α), min a b ≤ a", None),
    ("min_le_right", "theorem", LAT, f"{LO} (a b : α), min a b ≤ b", None),
    ("le_min", "theorem", LAT, f"{LO} {{a b c : α}}, a ≤ b → a ≤ c → a ≤ min b c", None),
    ("min_comm", "theorem", LAT, f"{LO} (a b : α), min a b = min b a", None),
    ("min_le_max", "theorem", OMM, f"{LO} {{a b : α}}, min a b ≤ max a b", None),
    (
        "max_sub_min_eq_abs",
        "theorem",
        GU,
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LinearOrder α] [inst_2 : AddLeftMono α] (a b : α), max a b - min a b = |a - b|",
        None,
    ),
    (
        "le_refl",
        "theorem",
        NAT,
        f"{ORD} (a : α), a ≤ a",
        "The relation `≤` on a preorder is reflexive.",
    ),
    (
        "le_trans",
        "theorem",
        NAT,
        f"{ORD} {{a b c : α}}, a ≤ b → b ≤ c → a ≤ c",
        "The relation `≤` on a preorder is transitive.",
    ),
    ("lt_of_le_of_lt", "theorem", NAT, f"{ORD} {{a b c : α}}, a ≤ b → b < c → a < c", None),
    ("lt_of_lt_of_le", "theorem", NAT, f"{ORD} {{a b c : α}}, a < b → b ≤ c → a < c", None),
    ("le_of_lt", "theorem", NAT, f"{ORD} {{a b : α}}, a < b → a ≤ b", None),
    ("lt_irrefl", "theorem", NAT, f"{ORD} (a : α), ¬a < a", None),
    (
        "le_antisymm",
        "theorem",
        NAT,
        "∀ {α : Type u_1} [inst : PartialOrder α] {a b : α}, a ≤ b → b ≤ a → a = b",
        None,
    ),
    ("le_total", "theorem", NAT, f"{LO} (a b : α), a ≤ b ∨ b ≤ a", None),
    (
        "sq_nonneg",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Semiring α] [inst_1 : LinearOrder α] [inst_2 : ExistsAddOfLE α] [inst_3 : PosMulMono α] [inst_4 : AddLeftMono α] (a : α), 0 ≤ a ^ 2",
        None,
    ),
    (
        "sq_abs",
        "theorem",
        GA,
        "∀ {α : Type u_1} [inst : Ring α] [inst_1 : LinearOrder α] (a : α), |a| ^ 2 = a ^ 2",
        None,
    ),
    (
        "pow_two_nonneg",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Semiring α] [inst_1 : LinearOrder α] [inst_2 : ExistsAddOfLE α] [inst_3 : PosMulMono α] [inst_4 : AddLeftMono α] (a : α), 0 ≤ a ^ 2",
        None,
    ),
    (
        "mul_self_nonneg",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Semiring α] [inst_1 : LinearOrder α] [inst_2 : ExistsAddOfLE α] [inst_3 : PosMulMono α] [inst_4 : AddLeftMono α] (a : α), 0 ≤ a * a",
        None,
    ),
    ("sq_pos_of_pos", "theorem", RL, f"{SORING} {{a : α}}, 0 < a → 0 < a ^ 2", None),
    ("pow_pos", "theorem", RL, f"{SORING} {{a : α}}, 0 < a → ∀ (n : ℕ), 0 < a ^ n", None),
    ("pow_nonneg", "theorem", RL, f"{ORING} {{a : α}}, 0 ≤ a → ∀ (n : ℕ), 0 ≤ a ^ n", None),
    (
        "pow_le_pow_left₀",
        "theorem",
        RL,
        f"{ORING} {{a b : α}}, 0 ≤ a → a ≤ b → ∀ (n : ℕ), a ^ n ≤ b ^ n",
        None,
    ),
    (
        "mul_pos",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Mul α] [inst_1 : Zero α] [inst_2 : Preorder α] [inst_3 : PosMulStrictMono α] {a b : α}, 0 < a → 0 < b → 0 < a * b",
        None,
    ),
    (
        "mul_nonneg",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Mul α] [inst_1 : Zero α] [inst_2 : Preorder α] [inst_3 : PosMulMono α] {a b : α}, 0 ≤ a → 0 ≤ b → 0 ≤ a * b",
        None,
    ),
    (
        "mul_pos_of_neg_of_neg",
        "theorem",
        RL,
        f"{SORING} {{a b : α}}, a < 0 → b < 0 → 0 < a * b",
        None,
    ),
    (
        "mul_le_mul",
        "theorem",
        RL,
        f"{ORING} {{a b c d : α}}, a ≤ b → c ≤ d → 0 ≤ c → 0 ≤ b → a * c ≤ b * d",
        None,
    ),
    (
        "mul_lt_mul_of_pos_left",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Mul α] [inst_1 : Zero α] [inst_2 : Preorder α] [inst_3 : PosMulStrictMono α] {a b c : α}, b < c → 0 < a → a * b < a * c",
        None,
    ),
    (
        "add_pos",
        "theorem",
        MO,
        "∀ {α : Type u_1} [inst : AddZeroClass α] [inst_1 : Preorder α] [inst_2 : AddLeftStrictMono α] {a b : α}, 0 < a → 0 < b → 0 < a + b",
        None,
    ),
    ("add_nonneg", "theorem", MO, f"{AOM} {{a b : α}}, 0 ≤ a → 0 ≤ b → 0 ≤ a + b", None),
    (
        "add_pos_of_pos_of_nonneg",
        "theorem",
        MO,
        f"{AOM} {{a b : α}}, 0 < a → 0 ≤ b → 0 < a + b",
        None,
    ),
    (
        "add_le_add",
        "theorem",
        MO,
        "∀ {α : Type u_1} [inst : Add α] [inst_1 : Preorder α] [inst_2 : AddLeftMono α] [inst_3 : AddRightMono α] {a b c d : α}, a ≤ b → c ≤ d → a + c ≤ b + d",
        None,
    ),
    (
        "add_lt_add",
        "theorem",
        MO,
        "∀ {α : Type u_1} [inst : Add α] [inst_1 : Preorder α] [inst_2 : AddLeftStrictMono α] [inst_3 : AddRightStrictMono α] {a b c d : α}, a < b → c < d → a + c < b + d",
        None,
    ),
    (
        "sub_nonneg",
        "theorem",
        "Mathlib.Algebra.Order.Group.Defs",
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LE α] [inst_2 : AddRightMono α] {a b : α}, 0 ≤ a - b ↔ b ≤ a",
        None,
    ),
    (
        "sub_pos",
        "theorem",
        "Mathlib.Algebra.Order.Group.Defs",
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LT α] [inst_2 : AddRightStrictMono α] {a b : α}, 0 < a - b ↔ b < a",
        None,
    ),
    (
        "neg_nonpos",
        "theorem",
        "Mathlib.Algebra.Order.Group.Defs",
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LE α] [inst_2 : AddLeftMono α] {a : α}, -a ≤ 0 ↔ 0 ≤ a",
        None,
    ),
    (
        "two_mul_le_add_sq",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : CommRing α] [inst_1 : LinearOrder α] [inst_2 : IsStrictOrderedRing α] (a b : α), 2 * a * b ≤ a ^ 2 + b ^ 2",
        None,
    ),
    (
        "add_sq",
        "theorem",
        "Mathlib.Algebra.Ring.Commute",
        "∀ {R : Type u_1} [inst : CommSemiring R] (a b : R), (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2",
        None,
    ),
    (
        "sub_sq",
        "theorem",
        "Mathlib.Algebra.Ring.Commute",
        "∀ {R : Type u_1} [inst : CommRing R] (a b : R), (a - b) ^ 2 = a ^ 2 - 2 * a * b + b ^ 2",
        None,
    ),
    (
        "add_pow_le_pow_mul_pow_of_sq_le_sq",
        "theorem",
        "Mathlib.Algebra.Order.Ring.Lemmas",
        "∀ {R : Type u_1} [inst : CommSemiring R] [inst_1 : PartialOrder R] [inst_2 : IsOrderedRing R] (n : ℕ) {a b c : R}, a ^ 2 ≤ b * c → (a + a) ^ n ≤ (b + b) ^ n * (c + c) ^ n",
        None,
    ),
    (
        "four_mul_le_sq_add",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : CommRing α] [inst_1 : LinearOrder α] [inst_2 : IsStrictOrderedRing α] (a b : α), 4 * a * b ≤ (a + b) ^ 2",
        None,
    ),
    (
        "inv_pos",
        "theorem",
        FLD,
        "∀ {α : Type u_1} [inst : DivisionRing α] [inst_1 : PartialOrder α] [inst_2 : PosMulStrictMono α] {a : α}, 0 < a⁻¹ ↔ 0 < a",
        None,
    ),
    (
        "inv_nonneg",
        "theorem",
        FLD,
        "∀ {α : Type u_1} [inst : DivisionRing α] [inst_1 : PartialOrder α] [inst_2 : PosMulStrictMono α] {a : α}, 0 ≤ a⁻¹ ↔ 0 ≤ a",
        None,
    ),
    (
        "inv_lt_inv₀",
        "theorem",
        FLD,
        f"{FIELD} {{a b : α}}, 0 < a → 0 < b → (a⁻¹ < b⁻¹ ↔ b < a)",
        None,
    ),
    ("one_div_pos", "theorem", FLD, f"{FIELD} {{a : α}}, 0 < 1 / a ↔ 0 < a", None),
    (
        "div_pos",
        "theorem",
        FLD,
        "∀ {α : Type u_1} [inst : DivisionRing α] [inst_1 : PartialOrder α] [inst_2 : PosMulStrictMono α] {a b : α}, 0 < a → 0 < b → 0 < a / b",
        None,
    ),
    (
        "div_nonneg",
        "theorem",
        FLD,
        "∀ {α : Type u_1} [inst : DivisionRing α] [inst_1 : PartialOrder α] [inst_2 : PosMulStrictMono α] {a b : α}, 0 ≤ a → 0 ≤ b → 0 ≤ a / b",
        None,
    ),
    (
        "div_le_iff₀",
        "theorem",
        FLD,
        "∀ {G₀ : Type u_1} [inst : GroupWithZero G₀] [inst_1 : PartialOrder G₀] [inst_2 : PosMulReflectLT G₀] {a b c : G₀}, 0 < c → (a / c ≤ b ↔ a ≤ b * c)",
        None,
    ),
    (
        "le_div_iff₀",
        "theorem",
        FLD,
        "∀ {G₀ : Type u_1} [inst : GroupWithZero G₀] [inst_1 : PartialOrder G₀] [inst_2 : PosMulReflectLT G₀] {a b c : G₀}, 0 < c → (a ≤ b / c ↔ a * c ≤ b)",
        None,
    ),
    (
        "div_le_div_of_nonneg_left",
        "theorem",
        FLD,
        f"{FIELD} {{a b c : α}}, 0 ≤ a → 0 < b → b ≤ c → a / c ≤ a / b",
        None,
    ),
    (
        "abs_nonneg",
        "theorem",
        GU,
        f"{GRP} [inst_2 : AddLeftMono α] (a : α), 0 ≤ |a|",
        "The absolute value of an element of a lattice ordered group is nonnegative.",
    ),
    (
        "abs_pos",
        "theorem",
        GU,
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LinearOrder α] [inst_2 : AddLeftMono α] {a : α}, 0 < |a| ↔ a ≠ 0",
        None,
    ),
    (
        "abs_add_le",
        "theorem",
        GU,
        "∀ {α : Type u_1} [inst : Lattice α] [inst_1 : AddCommGroup α] [inst_2 : AddLeftMono α] (a b : α), |a + b| ≤ |a| + |b|",
        "The absolute value satisfies the triangle inequality.",
    ),
    ("abs_sub_comm", "theorem", GU, f"{GRP} (a b : α), |a - b| = |b - a|", None),
    (
        "abs_le",
        "theorem",
        GU,
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LinearOrder α] [inst_2 : AddLeftMono α] {a b : α}, |a| ≤ b ↔ -b ≤ a ∧ a ≤ b",
        None,
    ),
    (
        "abs_mul",
        "theorem",
        GA,
        "∀ {α : Type u_1} [inst : Ring α] [inst_1 : LinearOrder α] [inst_2 : IsOrderedRing α] (a b : α), |a * b| = |a| * |b|",
        None,
    ),
    ("le_abs_self", "theorem", GU, f"{GRP} (a : α), a ≤ |a|", None),
    ("Real.exp_pos", "theorem", EXPB, "∀ (x : ℝ), 0 < Real.exp x", None),
    ("Real.exp_nonneg", "theorem", EXPB, "∀ (x : ℝ), 0 ≤ Real.exp x", None),
    ("Real.exp_zero", "theorem", EXPB, "Real.exp 0 = 1", None),
    (
        "Real.exp_add",
        "theorem",
        EXPB,
        "∀ (x y : ℝ), Real.exp (x + y) = Real.exp x * Real.exp y",
        None,
    ),
    (
        "Real.exp_sub",
        "theorem",
        EXPB,
        "∀ (x y : ℝ), Real.exp (x - y) = Real.exp x / Real.exp y",
        None,
    ),
    ("Real.exp_lt_exp", "theorem", EXPB, "∀ {x y : ℝ}, Real.exp x < Real.exp y ↔ x < y", None),
    ("Real.exp_le_exp", "theorem", EXPB, "∀ {x y : ℝ}, Real.exp x ≤ Real.exp y ↔ x ≤ y", None),
    ("Real.add_one_le_exp", "theorem", EXPB, "∀ (x : ℝ), x + 1 ≤ Real.exp x", None),
    ("Real.add_one_lt_exp", "theorem", EXPB, "∀ {x : ℝ}, x ≠ 0 → x + 1 < Real.exp x", None),
    ("Real.exp_log", "theorem", LOG, "∀ {x : ℝ}, 0 < x → Real.exp (Real.log x) = x", None),
    ("Real.log_exp", "theorem", LOG, "∀ (x : ℝ), Real.log (Real.exp x) = x", None),
    (
        "Real.exp",
        "def",
        EXPB,
        "ℝ → ℝ",
        "The real exponential function, defined as the real part of the complex exponential",
    ),
    (
        "Real.log",
        "def",
        LOG,
        "ℝ → ℝ",
        "The real logarithm function, equal to the inverse of the exponential for `x > 0`,\nto `log |x|` for `x < 0`, and to `0` for `0`. We use this unconventional extension to\n`(-∞, 0]` as it gives the formula `log (x * y) = log x + log y` for all nonzero `x` and `y`,\nand the derivative of `log` is `1/x` away from `0`.",
    ),
    (
        "Real.log_mul",
        "theorem",
        LOG,
        "∀ {x y : ℝ}, x ≠ 0 → y ≠ 0 → Real.log (x * y) = Real.log x + Real.log y",
        None,
    ),
    (
        "Real.log_div",
        "theorem",
        LOG,
        "∀ {x y : ℝ}, x ≠ 0 → y ≠ 0 → Real.log (x / y) = Real.log x - Real.log y",
        None,
    ),
    ("Real.log_pow", "theorem", LOG, "∀ (n : ℕ) (x : ℝ), Real.log (x ^ n) = ↑n * Real.log x", None),
    (
        "Real.log_lt_log",
        "theorem",
        LOG,
        "∀ {x y : ℝ}, 0 < x → x < y → Real.log x < Real.log y",
        None,
    ),
    (
        "Real.log_le_log",
        "theorem",
        LOG,
        "∀ {x y : ℝ}, 0 < x → x ≤ y → Real.log x ≤ Real.log y",
        None,
    ),
    (
        "Real.log_lt_log_iff",
        "theorem",
        LOG,
        "∀ {x y : ℝ}, 0 < x → 0 < y → (Real.log x < Real.log y ↔ x < y)",
        None,
    ),
    ("Real.log_pos", "theorem", LOG, "∀ {x : ℝ}, 1 < x → 0 < Real.log x", None),
    ("Real.log_nonneg", "theorem", LOG, "∀ {x : ℝ}, 1 ≤ x → 0 ≤ Real.log x", None),
    ("Real.log_one", "theorem", LOG, "Real.log 1 = 0", None),
    ("Real.log_zero", "theorem", LOG, "Real.log 0 = 0", None),
    ("Real.log_le_sub_one_of_pos", "theorem", LOG, "∀ {x : ℝ}, 0 < x → Real.log x ≤ x - 1", None),
    ("Real.strictMonoOn_log", "theorem", LOG, "StrictMonoOn Real.log (Set.Ioi 0)", None),
    (
        "Real.sqrt",
        "def",
        RSQ,
        "ℝ → ℝ",
        "The square root of a real number. This returns 0 for negative inputs.\n\nThis has notation `√x`. Note that `√x⁻¹` is parsed as `√(x⁻¹)`.",
    ),
    ("Real.sq_sqrt", "theorem", RSQ, "∀ {x : ℝ}, 0 ≤ x → √x ^ 2 = x", None),
    ("Real.sqrt_sq", "theorem", RSQ, "∀ {x : ℝ}, 0 ≤ x → √(x ^ 2) = x", None),
    ("Real.sqrt_nonneg", "theorem", RSQ, "∀ (x : ℝ), 0 ≤ √x", None),
    ("Real.sqrt_pos", "theorem", RSQ, "∀ {x : ℝ}, 0 < √x ↔ 0 < x", None),
    ("Real.sqrt_le_sqrt", "theorem", RSQ, "∀ {x y : ℝ}, x ≤ y → √x ≤ √y", None),
    ("Real.sqrt_mul_self", "theorem", RSQ, "∀ {a : ℝ}, 0 ≤ a → √(a * a) = a", None),
    ("Real.mul_self_sqrt", "theorem", RSQ, "∀ {a : ℝ}, 0 ≤ a → √a * √a = a", None),
    (
        "Real.sqrt_eq_iff_sq_eq",
        "theorem",
        RSQ,
        "∀ {x y : ℝ}, 0 ≤ x → 0 ≤ y → (√x = y ↔ y ^ 2 = x)",
        None,
    ),
    ("Real.rpow_natCast", "theorem", SQB, "∀ (x : ℝ) (n : ℕ), x ^ ↑n = x ^ n", None),
    ("dist_triangle", "theorem", MS, f"{MET} (x y z : α), dist x z ≤ dist x y + dist y z", None),
    ("dist_comm", "theorem", MS, f"{MET} (x y : α), dist x y = dist y x", None),
    ("dist_nonneg", "theorem", MS, f"{MET} {{x y : α}}, 0 ≤ dist x y", None),
    ("dist_self", "theorem", MS, f"{MET} (x : α), dist x x = 0", None),
    (
        "dist_triangle_left",
        "theorem",
        MS,
        f"{MET} (x y z : α), dist x y ≤ dist z x + dist z y",
        None,
    ),
    (
        "norm_add_le",
        "theorem",
        "Mathlib.Analysis.Normed.Group.Basic",
        "∀ {E : Type u_5} [inst : SeminormedAddGroup E] (a b : E), ‖a + b‖ ≤ ‖a‖ + ‖b‖",
        "**Triangle inequality** for the norm.",
    ),
    (
        "norm_nonneg",
        "theorem",
        "Mathlib.Analysis.Normed.Group.Basic",
        "∀ {E : Type u_5} [inst : SeminormedAddGroup E] (a : E), 0 ≤ ‖a‖",
        None,
    ),
    (
        "abs_real_inner_le_norm",
        "theorem",
        "Mathlib.Analysis.InnerProductSpace.Basic",
        "∀ {F : Type u_3} [inst : SeminormedAddCommGroup F] [inst_1 : InnerProductSpace ℝ F] (x y : F), |inner ℝ x y| ≤ ‖x‖ * ‖y‖",
        "Cauchy–Schwarz inequality with norm",
    ),
    (
        "Dvd.intro",
        "theorem",
        DVD,
        "∀ {α : Type u_1} [inst : Mul α] [inst_1 : Semigroup α] {a b : α} (k : α), a * k = b → a ∣ b",
        None,
    ),
    (
        "Dvd.dvd.mul_right",
        "theorem",
        DVD,
        "∀ {α : Type u_1} [inst : Monoid α] {a b : α}, a ∣ b → ∀ (c : α), a ∣ b * c",
        None,
    ),
    (
        "dvd_mul_right",
        "theorem",
        DVD,
        "∀ {α : Type u_1} [inst : Monoid α] (a b : α), a ∣ a * b",
        None,
    ),
    (
        "dvd_mul_left",
        "theorem",
        DVD,
        "∀ {α : Type u_1} [inst : CommMonoid α] (a b : α), a ∣ b * a",
        None,
    ),
    ("dvd_refl", "theorem", DVD, "∀ {α : Type u_1} [inst : Monoid α] (a : α), a ∣ a", None),
    (
        "dvd_trans",
        "theorem",
        DVD,
        "∀ {α : Type u_1} [inst : Semigroup α] {a b c : α}, a ∣ b → b ∣ c → a ∣ c",
        None,
    ),
    (
        "dvd_add",
        "theorem",
        "Mathlib.Algebra.Ring.Basic",
        "∀ {α : Type u_1} [inst : Add α] [inst_1 : Semigroup α] [inst_2 : LeftDistribClass α] {a b c : α}, a ∣ b → a ∣ c → a ∣ b + c",
        None,
    ),
    (
        "Nat.dvd_sub",
        "theorem",
        "Init.Data.Nat.Dvd",
        "∀ {k m n : ℕ}, k ∣ m → k ∣ n → k ∣ m - n",
        None,
    ),
    ("Nat.succ_pos", "theorem", "Init.Prelude", "∀ (n : ℕ), 0 < n.succ", None),
    ("Nat.lt_two_pow_self", "theorem", "Init.Data.Nat.Basic", "∀ {n : ℕ}, n < 2 ^ n", None),
    (
        "Nat.factorial_pos",
        "theorem",
        "Mathlib.Data.Nat.Factorial.Basic",
        "∀ (n : ℕ), 0 < n !",
        None,
    ),
    (
        "Finset.sum_nonneg",
        "theorem",
        FS,
        "∀ {ι : Type u_1} {N : Type u_5} [inst : AddCommMonoid N] [inst_1 : PartialOrder N] [inst_2 : IsOrderedAddMonoid N] {f : ι → N} {s : Finset ι}, (∀ i ∈ s, 0 ≤ f i) → 0 ≤ ∑ i ∈ s, f i",
        None,
    ),
    (
        "Finset.sum_pos",
        "theorem",
        FS,
        "∀ {ι : Type u_1} {M : Type u_4} [inst : AddCommMonoid M] [inst_1 : PartialOrder M] [inst_2 : IsOrderedCancelAddMonoid M] {f : ι → M} {s : Finset ι}, (∀ i ∈ s, 0 < f i) → s.Nonempty → 0 < ∑ i ∈ s, f i",
        None,
    ),
    (
        "Finset.sum_le_sum",
        "theorem",
        FS,
        "∀ {ι : Type u_1} {N : Type u_5} [inst : AddCommMonoid N] [inst_1 : PartialOrder N] [inst_2 : IsOrderedAddMonoid N] {f g : ι → N} {s : Finset ι}, (∀ i ∈ s, f i ≤ g i) → ∑ i ∈ s, f i ≤ ∑ i ∈ s, g i",
        None,
    ),
    (
        "Finset.prod_nonneg",
        "theorem",
        "Mathlib.Algebra.Order.BigOperators.Ring.Finset",
        "∀ {ι : Type u_1} {R : Type u_2} [inst : CommMonoidWithZero R] [inst_1 : PartialOrder R] [inst_2 : ZeroLEOneClass R] [inst_3 : PosMulMono R] {f : ι → R} {s : Finset ι}, (∀ i ∈ s, 0 ≤ f i) → 0 ≤ ∏ i ∈ s, f i",
        None,
    ),
    (
        "Finset.sum_const",
        "theorem",
        BIG,
        "∀ {β : Type u} {α : Type v} {s : Finset α} [inst : AddCommMonoid β] (b : β), ∑ _x ∈ s, b = s.card • b",
        None,
    ),
    (
        "Finset.sum_add_distrib",
        "theorem",
        BIG,
        "∀ {β : Type u} {α : Type v} {s : Finset α} {f g : α → β} [inst : AddCommMonoid β], ∑ i ∈ s, (f i + g i) = ∑ i ∈ s, f i + ∑ i ∈ s, g i",
        None,
    ),
    (
        "Finset.mul_sum",
        "theorem",
        "Mathlib.Algebra.BigOperators.Ring.Finset",
        "∀ {ι : Type u_1} {α : Type u_3} [inst : NonUnitalNonAssocSemiring α] (s : Finset ι) (f : ι → α) (b : α), b * ∑ i ∈ s, f i = ∑ i ∈ s, b * f i",
        None,
    ),
    (
        "Finset.sum_range_succ",
        "theorem",
        BIG,
        "∀ {β : Type u} [inst : AddCommMonoid β] (f : ℕ → β) (n : ℕ), ∑ x ∈ Finset.range (n + 1), f x = ∑ x ∈ Finset.range n, f x + f n",
        None,
    ),
    (
        "Finset.sum_range_id_mul_two",
        "theorem",
        "Mathlib.Algebra.BigOperators.Intervals",
        "∀ (n : ℕ), (∑ i ∈ Finset.range n, i) * 2 = n * (n - 1)",
        "Gauss' summation formula",
    ),
    (
        "Finset.card_union_le",
        "theorem",
        "Mathlib.Data.Finset.Card",
        "∀ {α : Type u_1} [inst : DecidableEq α] (s t : Finset α), (s ∪ t).card ≤ s.card + t.card",
        None,
    ),
    (
        "Finset.inner_mul_le_norm_mul_norm",
        "theorem",
        "Mathlib.Analysis.InnerProductSpace.Basic",
        "∀ {ι : Type u_1} (s : Finset ι) (f g : ι → ℝ), ∑ i ∈ s, f i * g i ≤ √(∑ i ∈ s, f i ^ 2) * √(∑ i ∈ s, g i ^ 2)",
        "**Cauchy-Schwarz inequality** for finsets using square roots",
    ),
    (
        "geom_sum_eq",
        "theorem",
        GEOM,
        "∀ {α : Type u} [inst : DivisionRing α] {x : α}, x ≠ 1 → ∀ (n : ℕ), ∑ i ∈ Finset.range n, x ^ i = (x ^ n - 1) / (x - 1)",
        None,
    ),
    (
        "geom_sum_mul",
        "theorem",
        GEOM,
        "∀ {α : Type u} [inst : Ring α] (x : α) (n : ℕ), (∑ i ∈ Finset.range n, x ^ i) * (x - 1) = x ^ n - 1",
        None,
    ),
    (
        "tsum_geometric_of_lt_one",
        "theorem",
        "Mathlib.Analysis.SpecificLimits.Basic",
        "∀ {r : ℝ}, 0 ≤ r → r < 1 → ∑' (n : ℕ), r ^ n = (1 - r)⁻¹",
        None,
    ),
    (
        "one_add_mul_le_pow",
        "theorem",
        "Mathlib.Algebra.Order.Ring.Lemmas",
        "∀ {R : Type u_3} [inst : Ring R] [inst_1 : LinearOrder R] [inst_2 : IsStrictOrderedRing R] {a : R}, -2 ≤ a → ∀ (n : ℕ), 1 + ↑n * a ≤ (1 + a) ^ n",
        "**Bernoulli's inequality** for `n : ℕ`, `-2 ≤ a`.",
    ),
    (
        "one_add_mul_self_le_rpow_one_add",
        "theorem",
        "Mathlib.Analysis.Convex.SpecificFunctions.Basic",
        "∀ {s : ℝ}, -1 ≤ s → ∀ {p : ℝ}, 1 ≤ p → 1 + p * s ≤ (1 + s) ^ p",
        "**Bernoulli's inequality** for real exponents, non-strict version: for `1 ≤ p` and `-1 ≤ s`\nwe have `1 + p * s ≤ (1 + s) ^ p`.",
    ),
    (
        "Continuous.comp",
        "theorem",
        CONT,
        f"{TOP} {{g : Y → Z}} {{f : X → Y}}, Continuous g → Continuous f → Continuous (g ∘ f)",
        None,
    ),
    (
        "Continuous.add",
        "theorem",
        "Mathlib.Topology.Algebra.Monoid.Defs",
        "∀ {X : Type u_1} {M : Type u_3} [inst : TopologicalSpace X] [inst_1 : TopologicalSpace M] [inst_2 : Add M] [inst_3 : ContinuousAdd M] {f g : X → M}, Continuous f → Continuous g → Continuous fun x => f x + g x",
        None,
    ),
    (
        "Continuous.mul",
        "theorem",
        "Mathlib.Topology.Algebra.Monoid.Defs",
        "∀ {X : Type u_1} {M : Type u_3} [inst : TopologicalSpace X] [inst_1 : TopologicalSpace M] [inst_2 : Mul M] [inst_3 : ContinuousMul M] {f g : X → M}, Continuous f → Continuous g → Continuous fun x => f x * g x",
        None,
    ),
    (
        "continuous_id",
        "theorem",
        CONT,
        "∀ {X : Type u_1} [inst : TopologicalSpace X], Continuous id",
        None,
    ),
    (
        "continuous_const",
        "theorem",
        CONT,
        "∀ {X : Type u_1} {Y : Type u_2} [inst : TopologicalSpace X] [inst_1 : TopologicalSpace Y] {y : Y}, Continuous fun (x : X) => y",
        None,
    ),
    (
        "ContinuousAt.comp",
        "theorem",
        CONT,
        f"{TOP} {{g : Y → Z}} {{f : X → Y}} {{x : X}}, ContinuousAt g (f x) → ContinuousAt f x → ContinuousAt (g ∘ f) x",
        None,
    ),
    (
        "Continuous",
        "inductive",
        CONT,
        "{X : Type u} → {Y : Type v} → [TopologicalSpace X] → [TopologicalSpace Y] → (X → Y) → Prop",
        "A function between topological spaces is continuous if the preimage\nof every open set is open. Registered as a structure to make sure it is not unfolded by Lean.",
    ),
    ("Real.continuous_exp", "theorem", EXP, "Continuous Real.exp", None),
    (
        "HasDerivAt.comp",
        "theorem",
        "Mathlib.Analysis.Calculus.Deriv.Comp",
        "∀ {𝕜 : Type u} [inst : NontriviallyNormedField 𝕜] {𝕜' : Type u_1} [inst_1 : NontriviallyNormedField 𝕜'] [inst_2 : NormedAlgebra 𝕜 𝕜'] {h₂ : 𝕜' → 𝕜'} {h : 𝕜 → 𝕜'} {h' h₂' : 𝕜'} (x : 𝕜), HasDerivAt h₂ h₂' (h x) → HasDerivAt h h' x → HasDerivAt (h₂ ∘ h) (h₂' * h') x",
        "The chain rule.",
    ),
    (
        "Monotone.comp",
        "theorem",
        "Mathlib.Order.Monotone.Defs",
        "∀ {α : Type u} {β : Type v} {γ : Type w} [inst : Preorder α] [inst_1 : Preorder β] [inst_2 : Preorder γ] {g : β → γ} {f : α → β}, Monotone g → Monotone f → Monotone (g ∘ f)",
        None,
    ),
    (
        "Function.comp_apply",
        "theorem",
        "Init.Core",
        "∀ {β : Sort u_1} {δ : Sort u_2} {α : Sort u_3} {f : β → δ} {g : α → β} {x : α}, (f ∘ g) x = f (g x)",
        None,
    ),
    (
        "MeasureTheory.integral_mono",
        "theorem",
        "Mathlib.MeasureTheory.Integral.Bochner.Basic",
        "∀ {α : Type u_1} {m : MeasurableSpace α} {μ : MeasureTheory.Measure α} {f g : α → ℝ}, MeasureTheory.Integrable f μ → MeasureTheory.Integrable g μ → f ≤ g → ∫ (a : α), f a ∂μ ≤ ∫ (a : α), g a ∂μ",
        None,
    ),
    (
        "MeasureTheory.integral_nonneg",
        "theorem",
        "Mathlib.MeasureTheory.Integral.Bochner.Basic",
        "∀ {α : Type u_1} {m : MeasurableSpace α} {μ : MeasureTheory.Measure α} {f : α → ℝ}, 0 ≤ f → 0 ≤ ∫ (a : α), f a ∂μ",
        None,
    ),
    (
        "ProbabilityTheory.variance_nonneg",
        "theorem",
        "Mathlib.Probability.Variance",
        "∀ {Ω : Type u_1} {mΩ : MeasurableSpace Ω} (X : Ω → ℝ) (μ : MeasureTheory.Measure Ω), 0 ≤ ProbabilityTheory.variance X μ",
        None,
    ),
    (
        "inner_mul_le_norm_mul_norm",
        "theorem",
        "Mathlib.Analysis.InnerProductSpace.Basic",
        "∀ {F : Type u_3} [inst : SeminormedAddCommGroup F] [inst_1 : InnerProductSpace ℝ F] (x y : F), inner ℝ x y * inner ℝ x y ≤ ‖x‖ * ‖x‖ * (‖y‖ * ‖y‖)",
        None,
    ),
    (
        "zero_lt_one",
        "theorem",
        "Mathlib.Algebra.Order.ZeroLEOne",
        "∀ {α : Type u_1} [inst : Zero α] [inst_1 : One α] [inst_2 : PartialOrder α] [inst_3 : ZeroLEOneClass α] [inst_4 : NeZero 1], 0 < 1",
        None,
    ),
    (
        "zero_lt_two",
        "theorem",
        "Mathlib.Algebra.Order.Monoid.NatCast",
        "∀ {α : Type u_1} [inst : AddMonoidWithOne α] [inst_1 : PartialOrder α] [inst_2 : ZeroLEOneClass α] [inst_3 : NeZero 1] [inst_4 : AddLeftStrictMono α], 0 < 2",
        None,
    ),
    (
        "two_mul",
        "theorem",
        "Mathlib.Algebra.Ring.Defs",
        "∀ {α : Type u} [inst : NonAssocSemiring α] (a : α), 2 * a = a + a",
        None,
    ),
    (
        "mul_comm",
        "theorem",
        "Mathlib.Algebra.Group.Defs",
        "∀ {G : Type u_1} [inst : CommMagma G] (a b : G), a * b = b * a",
        None,
    ),
    (
        "add_comm",
        "theorem",
        "Mathlib.Algebra.Group.Defs",
        "∀ {G : Type u_1} [inst : AddCommMagma G] (a b : G), a + b = b + a",
        None,
    ),
    (
        "mul_add",
        "theorem",
        "Mathlib.Algebra.Ring.Defs",
        "∀ {R : Type x} [inst : Mul R] [inst_1 : Add R] [inst_2 : LeftDistribClass R] (a b c : R), a * (b + c) = a * b + a * c",
        None,
    ),
    (
        "add_mul",
        "theorem",
        "Mathlib.Algebra.Ring.Defs",
        "∀ {R : Type x} [inst : Mul R] [inst_1 : Add R] [inst_2 : RightDistribClass R] (a b c : R), (a + b) * c = a * c + b * c",
        None,
    ),
    (
        "Real.exp_sum",
        "theorem",
        EXPB,
        "∀ {α : Type u_1} (s : Finset α) (f : α → ℝ), Real.exp (∑ x ∈ s, f x) = ∏ x ∈ s, Real.exp (f x)",
        None,
    ),
    (
        "Real.log_prod",
        "theorem",
        LOG,
        "∀ {α : Type u_1} (s : Finset α) (f : α → ℝ), (∀ x ∈ s, f x ≠ 0) → Real.log (∏ i ∈ s, f i) = ∑ i ∈ s, Real.log (f i)",
        None,
    ),
    (
        "Nat.le_of_lt_succ",
        "theorem",
        "Init.Data.Nat.Basic",
        "∀ {m n : ℕ}, m < n.succ → m ≤ n",
        None,
    ),
    ("Nat.pos_of_ne_zero", "theorem", "Init.Data.Nat.Basic", "∀ {n : ℕ}, n ≠ 0 → 0 < n", None),
    (
        "Int.emod_emod_of_dvd",
        "theorem",
        "Init.Data.Int.DivModLemmas",
        "∀ (n : ℤ) {m k : ℤ}, m ∣ k → n % k % m = n % m",
        None,
    ),
    (
        "Finset.card_le_card",
        "theorem",
        "Mathlib.Data.Finset.Card",
        "∀ {α : Type u_1} {s t : Finset α}, s ⊆ t → s.card ≤ t.card",
        None,
    ),
    (
        "Set.mem_setOf_eq",
        "theorem",
        "Mathlib.Data.Set.Defs",
        "∀ {α : Type u} {a : α} {p : α → Prop}, (a ∈ {x | p x}) = p a",
        None,
    ),
    (
        "Set.Subset.trans",
        "theorem",
        "Mathlib.Data.Set.Basic",
        "∀ {α : Type u} {a b c : Set α}, a ⊆ b → b ⊆ c → a ⊆ c",
        None,
    ),
    (
        "sq_le_sq'",
        "theorem",
        RL,
        "∀ {α : Type u_1} [inst : Ring α] [inst_1 : LinearOrder α] [inst_2 : IsStrictOrderedRing α] {a b : α}, -b ≤ a → a ≤ b → a ^ 2 ≤ b ^ 2",
        None,
    ),
    (
        "abs_le_abs",
        "theorem",
        GU,
        "∀ {α : Type u_1} [inst : AddGroup α] [inst_1 : LinearOrder α] [inst_2 : AddLeftMono α] {a b : α}, a ≤ b → -b ≤ a → |a| ≤ |b|",
        None,
    ),
    (
        "le_sup_left",
        "theorem",
        LAT,
        "∀ {α : Type u} [inst : SemilatticeSup α] {a b : α}, a ≤ a ⊔ b",
        None,
    ),
    ("max_lt", "theorem", LAT, f"{LO} {{a b c : α}}, a < c → b < c → max a b < c", None),
    ("lt_max_iff", "theorem", OMM, f"{LO} {{a b c : α}}, a < max b c ↔ a < b ∨ a < c", None),
]


def lines() -> list[str]:
    header = {"schema": "paperlint.decl_extract/1", "lean": "4.35.0", "modules": ["Mathlib"]}
    rows = sorted(DECLS, key=lambda row: row[0])
    out = [json.dumps(header, ensure_ascii=False)]
    for name, kind, module, type_text, doc in rows:
        record = {"name": name, "kind": kind, "module": module, "type": type_text, "doc": doc}
        out.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    out.append(json.dumps({"end": len(rows), "skipped": 0}))
    return out


def main() -> None:
    OUT.write_text("\n".join(lines()) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(DECLS)} declarations)")


if __name__ == "__main__":
    main()
