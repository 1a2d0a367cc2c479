import Lean

/-!
# `#paperlint_statement`: the statement Lean elaborated, printed for a stable hash

paperlint's gate approves a statement's *text*. The same text can mean something else in
another context: a new instance (`instance (priority := 10000) : LE ℝ := ⟨fun _ _ => True⟩`),
a notation, a `local` attribute or a shadowing name. So at the gate and again in the final
check paperlint runs this command on the gated declarations and compares what it prints
(`paperlint/lean/elaborated.py`). Any difference is `statement-changed`.

For each name it prints one info message

    PAPERLINT_STATEMENT <marker> {"name": …, "entries": [ … ]}

whose entries are the declaration itself and every constant *of the current file* that its
type mentions, transitively through the types and (for definitions) the values of those
constants, and the constructors of local inductive types. Each entry has the constant's kind,
universe parameters, `Expr.dbgToString` of its type (and value, for a definition) and
`Expr.hash` of the type. Imported constants stop the walk: the pinned Mathlib fixes them, and
their full names appear in the printed types, so an instance that resolves to a different
constant changes the print. A theorem's proof is never printed: only its statement counts.

paperlint sends the text below the marker line inline (the REPL cannot import mid-session,
and the final check appends it to a scratch copy), so this file is the one place it is
written. `lake build` compiles it, so a broken edit shows up in `paperlint setup`.
-/

-- paperlint: inline from here
namespace PaperlintLean.Statement

open Lean Elab Command

/-- The value that belongs to a constant's meaning: a definition's body, nothing else. -/
def meaningValue? : ConstantInfo → Option Expr
  | .defnInfo v => some v.value
  | _ => none

/-- A short name for the kind of constant. -/
def kindName : ConstantInfo → String
  | .axiomInfo _ => "axiom"
  | .defnInfo _ => "def"
  | .thmInfo _ => "theorem"
  | .opaqueInfo _ => "opaque"
  | .quotInfo _ => "quot"
  | .inductInfo _ => "inductive"
  | .ctorInfo _ => "constructor"
  | .recInfo _ => "recursor"

/-- The constants whose meaning `info`'s meaning depends on. -/
def mentions (info : ConstantInfo) : Array Name :=
  let fromValue := match meaningValue? info with
    | some value => value.getUsedConstants
    | none => #[]
  let fromCtors := match info with
    | .inductInfo v => v.ctors.toArray
    | _ => #[]
  info.type.getUsedConstants ++ fromValue ++ fromCtors

/-- The local (not imported) constants reachable from `todo`, in the order first met. -/
partial def localClosure (env : Environment) (todo : List Name) (seen : NameSet)
    (acc : Array ConstantInfo) : Array ConstantInfo :=
  match todo with
  | [] => acc
  | name :: rest =>
    if seen.contains name then
      localClosure env rest seen acc
    else
      let seen := seen.insert name
      match env.find? name with
      | none => localClosure env rest seen acc
      | some info =>
        if (env.getModuleIdxFor? name).isSome then
          localClosure env rest seen acc
        else
          localClosure env ((mentions info).toList ++ rest) seen (acc.push info)

/-- One constant as paperlint hashes it. -/
def entry (info : ConstantInfo) : Json :=
  let value : Json := match meaningValue? info with
    | some v => Json.str v.dbgToString
    | none => Json.null
  Json.mkObj [
    ("name", Json.str info.name.toString),
    ("kind", Json.str (kindName info)),
    ("levels", Json.arr (info.levelParams.toArray.map fun l => Json.str l.toString)),
    ("type", Json.str info.type.dbgToString),
    ("type_hash", toJson info.type.hash.toNat),
    ("value", value)]

/-- `#paperlint_statement "marker" n₁ n₂ …`: one `PAPERLINT_STATEMENT` line per name. -/
elab "#paperlint_statement " marker:str names:ident* : command => do
  let env ← getEnv
  for stx in names do
    let name := stx.getId
    match env.find? name with
    | none =>
      let missing := Json.mkObj [("name", Json.str name.toString), ("missing", Json.bool true)]
      logInfo m!"PAPERLINT_STATEMENT {marker.getString} {missing.compress}"
    | some _ =>
      let closure := localClosure env [name] {} #[]
      let payload := Json.mkObj [
        ("name", Json.str name.toString),
        ("entries", Json.arr (closure.map entry))]
      logInfo m!"PAPERLINT_STATEMENT {marker.getString} {payload.compress}"

end PaperlintLean.Statement
