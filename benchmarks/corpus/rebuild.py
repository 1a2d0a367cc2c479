#!/usr/bin/env python3
"""Rebuild the extra measurement corpus from pinned repository snapshots.

    python benchmarks/corpus/rebuild.py OUT_DIR [--mirror /work/.mirror] [--texgt TEXGT.py]
                                        [--only NAME ...]

`manifest.json` (beside this file) lists each paper: `name`, `repo`, `commit`, `main`
(relative to the repository), `class`, `features`. For each one this writes
`OUT_DIR/<name>/src/` (the repository tree at `commit`, read with `git archive` from the
snapshot `MIRROR/<owner>+<name>/repo`; an entry with `local` copies that folder of this
repository over it, or alone when there is no `repo`: our own faithful minimal papers of a
publisher's conventions, compiled against the publisher's class from the pinned snapshot),
`meta.json` (the manifest entry) and
`groundtruth.json`: the committed one from `groundtruth/<name>.json`, or, with `--texgt`,
LaTeX's own record made again by compiling `src/` (the committed one is then left alone).
Nothing of the papers is kept in this repository: only the manifest, the ground truth we
computed and the hand-checked keys (`keys/`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def load_manifest() -> list[dict[str, object]]:
    data = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
    papers: list[dict[str, object]] = data["papers"]
    return papers


def extract(mirror: Path, repo: str, commit: str, dest: Path) -> None:
    """Write the tree at `commit` under `dest`; blobs a snapshot lacks (large files) are
    skipped, and so is anything that is not a plain file (links, submodules)."""
    git_dir = mirror / repo.replace("/", "+") / "repo"
    if not git_dir.exists():
        raise SystemExit(f"{repo}: no snapshot at {git_dir} (bring it with the fetch tool)")
    git = ["git", "-C", str(git_dir)]
    listing = subprocess.run(
        [*git, "ls-tree", "-r", "-z", commit], check=True, capture_output=True
    ).stdout.split(b"\0")
    entries: list[tuple[str, str]] = []
    for line in filter(None, listing):
        meta, _, name = line.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        path = name.decode("utf-8", "replace")
        if kind == "blob" and mode in ("100644", "100755") and _inside(path):
            entries.append((sha, path))
    batch = subprocess.run(
        [*git, "cat-file", "--batch"],
        input="".join(f"{sha}\n" for sha, _ in entries).encode(),
        check=True,
        capture_output=True,
    ).stdout
    pos = 0
    for _, path in entries:
        header_end = batch.index(b"\n", pos)
        header = batch[pos:header_end].split()
        pos = header_end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue  # "<sha> missing": not in this snapshot
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(batch[pos : pos + size])
        pos += size + 1


# Stand-ins for font packages this TeX Live lacks (texlive-fonts-extra is 1.4 GB). They only
# change glyphs, never numbering; a paper that needs one lists it under `stubs`, and the
# stand-in is written beside its main file before compiling (the paper's files are untouched).
STUBS = {
    "bbm": "\\ProvidesPackage{bbm}\\providecommand\\mathbbm[1]{\\mathbf{#1}}"
    "\\providecommand\\mathbbmss[1]{\\mathbf{#1}}\\providecommand\\mathbbmtt[1]{\\mathbf{#1}}",
    "dsfont": "\\ProvidesPackage{dsfont}\\providecommand\\mathds[1]{\\mathbf{#1}}",
    "libertine": "\\ProvidesPackage{libertine}",
    "beramono": "\\ProvidesPackage{beramono}\\DeclareOption*{}\\ProcessOptions",
    "esvect": "\\ProvidesPackage{esvect}\\DeclareOption*{}\\ProcessOptions"
    "\\providecommand\\vv[1]{\\vec{#1}}",
    "ifsym": "\\ProvidesPackage{ifsym}\\DeclareOption*{}\\ProcessOptions",
    "libertinust1math": "\\ProvidesPackage{libertinust1math}",
    "cmll": "\\ProvidesPackage{cmll}\\providecommand\\parr{\\mathbin{\\wp}}"
    "\\providecommand\\with{\\mathbin{\\&}}\\providecommand\\oc{!}\\providecommand\\wn{?}"
    "\\providecommand\\shpos{!}\\providecommand\\shneg{?}\\providecommand\\bot{\\perp}",
}


def write_stubs(paper: dict[str, object], src: Path) -> None:
    folder = (src / str(paper["main"])).parent
    for name in paper.get("stubs", []) or []:  # type: ignore[union-attr]
        target = folder / f"{name}.sty"
        if not target.exists():
            target.write_text(STUBS[str(name)] + "\n", encoding="utf-8")


def overlay(folder: Path, src: Path) -> None:
    """Copy one of our own papers (`local`, relative to the repository root) into `src`,
    over the pinned snapshot's files when the entry names one (a class we may not commit)."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and rel.parts[0] != "expected":
            target = src / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


def _inside(name: str) -> bool:
    parts = Path(name).parts
    return not Path(name).is_absolute() and ".." not in parts


def rebuild(
    paper: dict[str, object], out: Path, mirror: Path, texgt: Path | None, *, force: bool
) -> str:
    name = str(paper["name"])
    folder = out / name
    src = folder / "src"
    if not src.exists():
        if paper.get("repo"):
            extract(mirror, str(paper["repo"]), str(paper["commit"]), src)
        if paper.get("local"):
            overlay(ROOT / str(paper["local"]), src)
    write_stubs(paper, src)
    (folder / "meta.json").write_text(json.dumps(paper, indent=1), encoding="utf-8")
    truth = HERE / "groundtruth" / f"{name}.json"
    if texgt is not None and (force or not (folder / "groundtruth.json").is_file()):
        command = [sys.executable, str(texgt), str(src / str(paper["main"])), "--root", str(src)]
        command += ["--json", str(folder / "groundtruth.json")]
        if paper.get("engine"):
            command += ["--engine", str(paper["engine"])]
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        return f"{name}: texgt rc={done.returncode} {done.stderr.strip()[-200:]}"
    if truth.is_file():
        (folder / "groundtruth.json").write_text(truth.read_text(encoding="utf-8"))
        return f"{name}: ok"
    if (folder / "groundtruth.json").is_file():
        return f"{name}: ground truth kept"
    return f"{name}: no committed ground truth (run with --texgt)"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--texgt", type=Path, default=None)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--force", action="store_true", help="with --texgt: compile again")
    args = parser.parse_args(argv)
    for paper in load_manifest():
        if args.only and paper["name"] not in args.only:
            continue
        print(rebuild(paper, args.out, args.mirror, args.texgt, force=args.force), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
