/-
The declaration index's extraction: every constant of the pinned environment, one JSON object
per line, for `paperlint setup` (issue #13). Trusted code of ours: it reads the environment and
writes one file, nothing else.

Run (from lean-project/):  lake env lean --run PaperLint/Extract.lean OUT.jsonl

Output (`paperlint.decl_extract/1`), one JSON object per line:
  first line  {"schema": "paperlint.decl_extract/1", "lean": "<Lean.versionString>",
               "modules": ["Mathlib"]}
  one line per constant
              {"name": "le_max_left", "kind": "theorem", "module": "Mathlib.Order.Lattice",
               "type": "∀ {α : Type u_1} [inst : LinearOrder α] (a b : α), a ≤ max a b",
               "doc": null}
  last line   {"end": <number of constant lines>, "skipped": <constants whose type failed to print>}
The last line is the done-marker: the Python reader refuses a file without it, so an
interrupted extraction is redone, never trusted. The file is written to OUT.jsonl.part and
renamed at the end.

Lean 4.35 APIs used: `CoreM.withImportModules` (Mathlib.Lean.CoreM), `Environment.constants`
(an `SMap`, iterated with `fold`), `Name.isBlackListed` (Mathlib.Lean.Expr.Basic: internal,
auxiliary recursors, no-confusion, matchers), `Environment.getModuleIdxFor?` +
`allImportedModuleNames[idx.toNat]?`, `findDocString?`, `Meta.ppExpr`.
-/
import Mathlib.Lean.CoreM
import Mathlib.Lean.Expr.Basic
import Mathlib

open Lean Meta

namespace PaperLint.Extract

def kindOf : ConstantInfo → String
  | .axiomInfo _ => "axiom"
  | .defnInfo _ => "def"
  | .thmInfo _ => "theorem"
  | .opaqueInfo _ => "opaque"
  | .quotInfo _ => "quot"
  | .inductInfo _ => "inductive"
  | .ctorInfo _ => "constructor"
  | .recInfo _ => "recursor"

/-- One line of output, or `none` when the type cannot be pretty-printed. -/
def line (env : Environment) (name : Name) (info : ConstantInfo) : MetaM (Option String) := do
  let modName := (env.getModuleIdxFor? name).bind fun idx => env.allImportedModuleNames[idx.toNat]?
  let doc ← findDocString? env name
  try
    -- One line, wide enough that a type is never wrapped.
    let type := (← ppExpr info.type).pretty 100000
    let fields : List (String × Json) := [
      ("name", Json.str name.toString),
      ("kind", Json.str (kindOf info)),
      ("module", (modName.map fun m => Json.str m.toString).getD Json.null),
      ("type", Json.str type),
      ("doc", (doc.map Json.str).getD Json.null)]
    return some (Json.mkObj fields).compress
  catch _ =>
    return none

def run (out : System.FilePath) : MetaM (Nat × Nat) := do
  let env ← getEnv
  if let some dir := out.parent then IO.FS.createDirAll dir
  let part : System.FilePath := out.toString ++ ".part"
  let handle ← IO.FS.Handle.mk part .write
  let header := Json.mkObj [
    ("schema", Json.str "paperlint.decl_extract/1"),
    ("lean", Json.str Lean.versionString),
    ("modules", Json.arr #[Json.str "Mathlib"])]
  handle.putStrLn header.compress
  let mut written := 0
  let mut skipped := 0
  -- Sorted by name, so two extractions of one environment are byte-identical.
  let names := (env.constants.fold (init := #[]) fun acc n _ => acc.push n).qsort
    fun a b => a.toString < b.toString
  for name in names do
    if ← name.isBlackListed then continue
    let some info := env.find? name | continue
    match ← line env name info with
    | some text =>
      handle.putStrLn text
      written := written + 1
    | none => skipped := skipped + 1
  handle.putStrLn (Json.mkObj [("end", toJson written), ("skipped", toJson skipped)]).compress
  handle.flush
  IO.FS.rename part out
  return (written, skipped)

end PaperLint.Extract

def main (args : List String) : IO UInt32 := do
  let [out] := args
    | IO.eprintln "usage: lake env lean --run PaperLint/Extract.lean OUT.jsonl"; return 2
  let searchPath ← addSearchPathFromEnv (← getBuiltinSearchPath (← findSysroot))
  let options : Options := maxHeartbeats.set {} 0
  let (written, skipped) ← CoreM.withImportModules #[`Mathlib] (searchPath := searchPath)
      (options := options) (trustLevel := 1024) (PaperLint.Extract.run out).run'
  IO.println s!"extracted {written} declarations ({skipped} skipped) to {out}"
  return 0
