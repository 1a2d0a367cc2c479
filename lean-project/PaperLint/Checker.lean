/-
paperlint's trusted checker (issue #25): judge a compiled proof module against the reference
module the gate locked, from the compiled environment, never from what the module printed.

Run (paperlint does, sandboxed):  lake env .lake/build/bin/paperlint_checker REQUEST.json OUT.json

The request (`paperlint.checker-request/1`, written by paperlint/lean/modules.py):
  {"schema": …, "mode": "reference" | "compare", "target": "lem_x",
   "reference_module": "PaperlintCheck.Reference.r_…",
   "candidate_module": "PaperlintCheck.Proof.r_…" | null,
   "local_prefix": "PaperlintCheck", "approved": [...]}

What it does, in this one process:
1. Reads the *local* modules (those under `local_prefix`, which paperlint built: gated, reference
   and proof modules) with `readModuleData`: their constants and extension entries are data;
   nothing of them is imported, no initializer of theirs runs.
2. Imports only the other modules those import (Lean, Mathlib, our support library), with
   `importModules` and its default `loadExts := false`: no `[init]` code runs either.
3. Replays every local constant through the kernel on top of that environment
   (`Lean.Environment.replay`, the lean4checker method): a constant added with the kernel
   check skipped, or any ill-typed one, fails the replay.
4. Compares the candidate's target with the reference module's declaration of the same name:
   `Expr.equal` of the types after renaming universe parameters, and each constant of the
   reference module that the statement mentions (an auxiliary such as `lem_x.match_1`) must be
   the candidate's constant of that name.
5. Collects the target's axioms itself by walking every constant it uses, through the values
   of definitions and theorems, in the local data and the imported environment. It never
   reads `exportedAxiomsExt`, the per-module axiom table Lean's own `collectAxioms` trusts:
   that table is written by whoever compiled the module.
6. Writes facts, not verdicts: the reference statement (type, hash, hypotheses, the modules of
   its constants), the candidate's, the axioms, the replay, every local constant (module, kind,
   unsafe, partial) and every non-empty extension entry. paperlint's Python side judges them
   (paperlint/lean/checker.py), so `validate` re-derives the verdict from this record.

Exit code 0 whenever a record was written (failures are in its `error` field), 2 on bad usage.
Every Lean API used is listed in docs/checker.md with its source; it was written against
Lean 4.35.0's sources and cannot be compiled where Mathlib is absent.
-/
import Lean

open Lean

namespace PaperLint.Checker

/-- The request paperlint writes. Field names are the JSON keys. -/
structure Request where
  schema : String
  mode : String
  target : String
  reference_module : String
  candidate_module : Option String := none
  local_prefix : String
  approved : Array String := #[]
  deriving FromJson

/-- A local module as read from its `.olean`. -/
structure Local where
  name : Name
  data : ModuleData

def kindName : ConstantInfo → String
  | .axiomInfo _ => "axiom"
  | .defnInfo _ => "def"
  | .thmInfo _ => "theorem"
  | .opaqueInfo _ => "opaque"
  | .quotInfo _ => "quot"
  | .inductInfo _ => "inductive"
  | .ctorInfo _ => "constructor"
  | .recInfo _ => "recursor"

def binderName : BinderInfo → String
  | .default => "default"
  | .implicit => "implicit"
  | .strictImplicit => "strict_implicit"
  | .instImplicit => "inst_implicit"

/-- Read one module's data straight from its `.olean` on the search path. -/
def readLocal (mod : Name) : IO ModuleData := do
  let file ← findOLean mod
  unless (← file.pathExists) do
    throw <| IO.userError s!"no .olean for {mod} (looked at {file})"
  let (data, _) ← readModuleData file
  return data

/-- The local modules reachable from `todo` through local imports, each read once. -/
partial def readClosure (pre : Name) (todo : List Name) (acc : Array Local) :
    IO (Array Local) := do
  match todo with
  | [] => return acc
  | mod :: rest =>
    if acc.any (·.name == mod) then
      readClosure pre rest acc
    else
      let data ← readLocal mod
      let deps := data.imports.toList.map (·.module) |>.filter (pre.isPrefixOf ·)
      readClosure pre (deps ++ rest) (acc.push { name := mod, data })

/-- The non-local modules the local ones import: what `importModules` loads. -/
def trustedImports (pre : Name) (locals : Array Local) : Array Import := Id.run do
  let mut seen : NameSet := {}
  let mut out : Array Import := #[]
  for loc in locals do
    for imp in loc.data.imports do
      if !pre.isPrefixOf imp.module && !seen.contains imp.module then
        seen := seen.insert imp.module
        out := out.push { module := imp.module }
  return out

/-- Every local constant with the module that declares it. A name two local modules declare
keeps the later module's constant; `added` lists both, and the policy refuses two copies that
are not all theorems (`duplicate-constant`, docs/checker.md). -/
def localConstants (locals : Array Local) : Std.HashMap Name (ConstantInfo × Name) :=
  locals.foldl (init := {}) fun acc loc =>
    loc.data.constants.foldl (init := acc) fun acc ci => acc.insert ci.name (ci, loc.name)

/-- The constant the kernel replay used: the imported environment's when it declares the name
(the replay refuses a local redeclaration, or skips a local theorem of the same statement and
keeps the imported one), else the local one. -/
def lookup (env : Environment) (locals : Std.HashMap Name (ConstantInfo × Name)) (n : Name) :
    Option ConstantInfo :=
  match env.find? n with
  | some ci => some ci
  | none => (locals[n]?).map (·.1)

/-- The module a constant comes from (None: unknown). -/
def moduleOf (env : Environment) (locals : Std.HashMap Name (ConstantInfo × Name)) (n : Name) :
    Option Name :=
  match locals[n]? with
  | some (_, mod) => some mod
  | none => (env.getModuleIdxFor? n).bind fun idx => env.allImportedModuleNames[idx.toNat]?

/-- The constants a constant's meaning depends on: its type, its value (theorems and opaque
constants included), an inductive's constructors, a constructor's type, a recursor's rules. -/
def uses (ci : ConstantInfo) : Array Name :=
  let fromValue := match ci.value? (allowOpaque := true) with
    | some v => v.getUsedConstants
    | none => #[]
  let more : Array Name := match ci with
    | .inductInfo v => v.ctors.toArray ++ v.all.toArray
    | .ctorInfo v => #[v.induct]
    | .recInfo v => v.rules.toArray.foldl (init := #[]) fun acc r =>
        (acc.push r.ctor) ++ r.rhs.getUsedConstants
    | _ => #[]
  ci.type.getUsedConstants ++ fromValue ++ more

/-- The axioms `start` depends on, and the names met that no module declares. -/
partial def collectAxioms (env : Environment) (locals : Std.HashMap Name (ConstantInfo × Name))
    (todo : List Name) (seen : NameSet) (axioms unknown : Array Name) :
    Array Name × Array Name :=
  match todo with
  | [] => (axioms, unknown)
  | n :: rest =>
    if seen.contains n then
      collectAxioms env locals rest seen axioms unknown
    else
      let seen := seen.insert n
      match lookup env locals n with
      | none => collectAxioms env locals rest seen axioms (unknown.push n)
      | some ci =>
        let axioms := if ci matches .axiomInfo _ then axioms.push n else axioms
        collectAxioms env locals ((uses ci).toList ++ rest) seen axioms unknown

/-- The leading binders of a statement: its hypotheses, with their printed types. -/
partial def hypotheses (e : Expr) (acc : Array Json) : Array Json :=
  match e with
  | .forallE n t b bi =>
    hypotheses b (acc.push (Json.mkObj [
      ("name", Json.str n.toString),
      ("type", Json.str t.dbgToString),
      ("binder", Json.str (binderName bi))]))
  | _ => acc

def names (xs : Array Name) : Json := Json.arr (xs.map fun n => Json.str n.toString)

def statement (ci : ConstantInfo) : List (String × Json) := [
  ("name", Json.str ci.name.toString),
  ("kind", Json.str (kindName ci)),
  ("levels", names ci.levelParams.toArray),
  ("type", Json.str ci.type.dbgToString),
  ("type_hash", Json.str (toString ci.type.hash))]

def optName (n : Option Name) : Json := match n with
  | some m => Json.str m.toString
  | none => Json.null

/-- Two constants with the same meaning: kind, universe parameters, type and value. -/
def sameConstant (a b : ConstantInfo) : Bool :=
  let sameValue := match a.value? (allowOpaque := true), b.value? (allowOpaque := true) with
    | some x, some y => x.equal y
    | none, none => true
    | _, _ => false
  kindName a == kindName b && a.levelParams == b.levelParams && a.type.equal b.type && sameValue

/-- The reference declaration, read from the reference module's own data. -/
def findReference (ref : ModuleData) (target : Name) : Option ConstantInfo :=
  ref.constants.find? (·.name == target)

def referenceJson (env : Environment) (locals : Std.HashMap Name (ConstantInfo × Name))
    (refMod : Name) (refData : ModuleData) (ci : ConstantInfo) : Json :=
  let constants := ci.type.getUsedConstants.map fun n =>
    let owner := if refData.constNames.contains n then some refMod else moduleOf env locals n
    Json.mkObj [("name", Json.str n.toString), ("module", optName owner)]
  Json.mkObj (statement ci ++ [
    ("hypotheses", Json.arr (hypotheses ci.type #[])),
    ("constants", Json.arr constants),
    ("imports", names (refData.imports.map (·.module)))])

/-- Each constant of the reference module that the statement mentions, transitively, compared
with the candidate's constant of that name (in `compare` mode). -/
partial def auxiliaries (refData : ModuleData) (locals : Std.HashMap Name (ConstantInfo × Name))
    (target : Name) (todo : List Name) (seen : NameSet) (acc : Array Json) : Array Json :=
  match todo with
  | [] => acc
  | n :: rest =>
    if seen.contains n || n == target then
      auxiliaries refData locals target rest seen acc
    else
      let seen := seen.insert n
      match refData.constants.find? (·.name == n) with
      | none => auxiliaries refData locals target rest seen acc
      | some ci =>
        let same := match locals[n]? with
          | some (other, _) => sameConstant ci other
          | none => false
        let acc := acc.push (Json.mkObj [("name", Json.str n.toString), ("same", Json.bool same)])
        auxiliaries refData locals target ((uses ci).toList ++ rest) seen acc

def addedJson (locals : Array Local) : Json := Json.arr <| locals.foldl (init := #[]) fun acc loc =>
  loc.data.constants.foldl (init := acc) fun acc ci => acc.push (Json.mkObj [
    ("name", Json.str ci.name.toString),
    ("module", Json.str loc.name.toString),
    ("kind", Json.str (kindName ci)),
    ("unsafe", Json.bool ci.isUnsafe),
    ("partial", Json.bool ci.isPartial)])

def entriesJson (locals : Array Local) : Json := Json.arr <| locals.foldl (init := #[]) fun acc loc =>
  loc.data.entries.foldl (init := acc) fun acc e =>
    if e.2.isEmpty then acc else acc.push (Json.mkObj [
      ("module", Json.str loc.name.toString),
      ("extension", Json.str e.1.toString),
      ("count", toJson e.2.size)])

/-- Whether a natural-number literal is the number it spells: all its decimal digits are
digits and read back to it. An `.olean` keeps a literal's number object as it was in memory, so
meta code in a proof module can plant one no numeral makes (a negative or unnormalised big
number: comparator's `olean_issue` test), on which the kernel's GMP arithmetic and its unfolding
of `Nat`'s definitions disagree, and `False` follows. Such a number prints a `*` digit or reads
back to another number (`Nat.decEq` on a big and a small number is `false`). -/
def wellFormedNat (n : Nat) : Bool :=
  let digits := Nat.toDigits 10 n
  digits.all Char.isDigit &&
    digits.foldl (fun (acc : Nat) (c : Char) => acc * 10 + (c.toNat - '0'.toNat)) 0 == n

/-- No malformed natural-number literal anywhere in `e`. -/
def literalsWellFormed (e : Expr) : Bool :=
  (e.find? fun sub => match sub with
    | .lit (.natVal n) => !wellFormedNat n
    | _ => false).isNone

/-- A local constant whose type, value or recursor rules hold a malformed literal. -/
def malformedLiteral? (locals : Std.HashMap Name (ConstantInfo × Name)) : Option Name :=
  locals.fold (init := none) fun found n v =>
    let ci := v.1
    let ok := literalsWellFormed ci.type && (match ci.value? (allowOpaque := true) with
      | some e => literalsWellFormed e
      | none => true) && (match ci with
      | .recInfo r => r.rules.all (fun rule => literalsWellFormed rule.rhs)
      | _ => true)
    if found.isSome || ok then found else some n

/-- Replay every local constant through the kernel on top of the imported environment, after
refusing any malformed natural-number literal (the kernel trusts a literal's number). -/
def replayLocals (env : Environment) (locals : Std.HashMap Name (ConstantInfo × Name)) :
    IO Json := do
  let consts : Std.HashMap Name ConstantInfo := locals.fold (init := {}) fun m n v =>
    m.insert n v.1
  if let some n := malformedLiteral? locals then
    return Json.mkObj [("ok", Json.bool false),
      ("error", Json.str s!"`{n}` holds a malformed natural-number literal"),
      ("constants", toJson consts.size)]
  try
    discard <| env.replay consts
    return Json.mkObj [("ok", Json.bool true), ("error", Json.null),
      ("constants", toJson consts.size)]
  catch e =>
    return Json.mkObj [("ok", Json.bool false), ("error", Json.str (toString e)),
      ("constants", toJson consts.size)]

def base (req : Request) : List (String × Json) := [
  ("schema", Json.str "paperlint.checker/1"),
  ("lean", Json.str Lean.versionString),
  ("mode", Json.str req.mode),
  ("target", Json.str req.target),
  ("reference_module", Json.str req.reference_module),
  ("candidate_module", match req.candidate_module with
    | some m => Json.str m
    | none => Json.null)]

/-- A record that says only why the check could not run. -/
def failure (req : Request) (why : String) : Json :=
  Json.mkObj (base req ++ [
    ("reference", Json.null), ("candidate", Json.null), ("auxiliaries", Json.arr #[]),
    ("axioms", Json.null), ("unknown", Json.arr #[]), ("replay", Json.null),
    ("added", Json.arr #[]), ("entries", Json.arr #[]), ("error", Json.str why)])

def run (req : Request) : IO Json := do
  let pre := req.local_prefix.toName
  let target := req.target.toName
  let refMod := req.reference_module.toName
  unless req.schema == "paperlint.checker-request/1" do
    return failure req s!"unknown request schema {req.schema}"
  let start ← match req.mode, req.candidate_module with
    | "reference", _ => pure refMod
    | "compare", some cand => pure cand.toName
    | _, _ => throw <| IO.userError s!"mode {req.mode} needs a candidate module"
  let refData ← readLocal refMod
  let some refInfo := findReference refData target
    | return failure req s!"the reference module declares no `{target}`"
  let closure ← readClosure pre [start] #[]
  let locals := localConstants closure
  let env ← importModules (trustedImports pre closure) {}
  let replay ← replayLocals env locals
  let reference := referenceJson env locals refMod refData refInfo
  let mut candidate := Json.null
  let mut auxs : Array Json := #[]
  let mut axioms := Json.null
  let mut unknown : Array Name := #[]
  if req.mode == "compare" then
    if let some (ci, mod) := locals[target]? then
      let renamed := refInfo.type.instantiateLevelParams refInfo.levelParams
        (ci.levelParams.map mkLevelParam)
      let equal := refInfo.levelParams.length == ci.levelParams.length && renamed.equal ci.type
      candidate := Json.mkObj (statement ci ++ [
        ("module", Json.str mod.toString), ("type_equal", Json.bool equal)])
      auxs := auxiliaries refData locals target refInfo.type.getUsedConstants.toList {} #[]
      let (axs, unk) := collectAxioms env locals [target] {} #[] #[]
      axioms := names axs
      unknown := unk
  return Json.mkObj (base req ++ [
    ("reference", reference), ("candidate", candidate), ("auxiliaries", Json.arr auxs),
    ("axioms", axioms), ("unknown", names unknown), ("replay", replay),
    ("added", addedJson closure), ("entries", entriesJson closure), ("error", Json.null)])

def write (out : System.FilePath) (json : Json) : IO Unit := do
  let part : System.FilePath := out.toString ++ ".part"
  IO.FS.writeFile part (json.compress ++ "\n")
  IO.FS.rename part out

end PaperLint.Checker

open PaperLint.Checker in
def main (args : List String) : IO UInt32 := do
  let [requestPath, outPath] := args
    | do
        IO.eprintln "usage: paperlint_checker REQUEST.json OUT.json"
        return 2
  initSearchPath (← findSysroot)
  let text ← IO.FS.readFile requestPath
  let req : Request ← IO.ofExcept (Json.parse text >>= fromJson?)
  let record ← try run req catch e => pure (failure req (toString e))
  write outPath record
  return 0
