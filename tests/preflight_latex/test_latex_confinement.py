"""`preflight --latex` reads nothing outside the paper's folder, and nothing TeX read leaks.

A hostile paper `\\openin`s and `\\read`s `/etc/hostname` and `/proc/self/environ` (which holds
the environment, secrets included) and `\\input`s an absolute path. With `openin_any=p` TeX
refuses every one of them before opening it: strace shows no open of those paths by any
process, and the secret planted in the environment appears in no output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperlint.preflight.latexrun import safe_env

needs_latexmk = pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")
needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace not installed")

SECRET = "paperlint-test-secret-7f3a9c"
HOSTILE = r"""\documentclass{article}
\newtheorem{theorem}{Theorem}
\newread\secretfile
\begin{document}
\openin\secretfile=/etc/hostname
\ifeof\secretfile NOHOST\else\read\secretfile to\hostline \message{HOST[\hostline]}
  \hostline\fi
\openin\secretfile=/proc/self/environ
\ifeof\secretfile NOENV\else\read\secretfile to\envline \message{ENV[\envline]}\envline\fi
\IfFileExists{/proc/self/environ}{\input{/proc/self/environ}}{}
\begin{theorem}\label{thm:a} A claim. \end{theorem}
\end{document}
"""
# What TeX itself may open: its installation, the dynamic loader, and the scratch copy.
ALLOWED = (
    "/usr/",
    "/lib",
    "/etc/texmf",
    "/etc/ld.so",
    "/etc/LatexMk",
    "/etc/localtime",
    "/var/lib/texmf",
    "/dev/null",
    "/dev/urandom",
    "/dev/tty",
)
_TEX = re.compile(r"/(latexmk|pdflatex|xelatex|pdftex|xetex|perl)(\d[\d.]*)?$")


def test_tex_runs_with_paranoid_reads_and_writes():
    env = safe_env()
    assert (env["openin_any"], env["openout_any"], env["shell_escape"]) == ("p", "p", "f")


def _run_preflight(paper: Path, out: Path, *, strace: Path | None = None):
    env = dict(os.environ, PAPERLINT_FAKE_SECRET=SECRET)
    command = [sys.executable, "-m", "paperlint", "preflight", str(paper), "--latex"]
    command += ["--format", "json", "-o", str(out)]
    if strace is not None:
        command = [
            "strace",
            "-f",
            "-qq",
            "-e",
            "trace=open,openat,openat2,execve,clone,clone3,vfork,fork",
            "-o",
            str(strace),
            *command,
        ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.latex
@needs_latexmk
def test_nothing_tex_could_read_outside_appears_in_any_output(tmp_path):
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(HOSTILE)
    out = tmp_path / "inventory.json"
    done = _run_preflight(paper, out)
    assert done.returncode == 0, done.stderr
    everything = done.stdout + done.stderr + out.read_text()
    assert SECRET not in everything
    assert "PAPERLINT_FAKE_SECRET" not in everything
    host = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").is_file() else ""
    if len(host) >= 6:  # a short hostname like "vm" occurs by chance anywhere
        assert host not in everything
    inventory = json.loads(out.read_text())
    assert [r["id"] for r in inventory["results"]] == ["thm:a"]
    assert inventory["results"][0]["number_source"] == "latex"


def _tex_opens(trace: str) -> tuple[set[str], list[str]]:
    """The pids of TeX's processes (latexmk and its children) and every path any pid opened."""
    tex: set[str] = set()
    opened: list[tuple[str, str]] = []
    for line in trace.splitlines():
        match = re.match(r"(\d+)\s+(\w+)\((.*)", line)
        if not match:
            continue
        pid, call, rest = match.groups()
        path = re.search(r'"([^"]*)"', rest)
        if call == "execve" and path and _TEX.search(path.group(1)):
            tex.add(pid)
        elif call in ("clone", "clone3", "vfork", "fork") and pid in tex:
            child = re.search(r"=\s*(\d+)\s*$", rest)
            if child:
                tex.add(child.group(1))
        elif call.startswith("open") and path:
            opened.append((pid, path.group(1)))
    absolute = [p for pid, p in opened if pid in tex and p.startswith("/")]
    return tex, absolute + [f"any:{p}" for _, p in opened]


@pytest.mark.latex
@needs_latexmk
@needs_strace
def test_strace_shows_tex_opens_nothing_outside_the_scratch_copy(tmp_path):
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(HOSTILE)
    trace = tmp_path / "strace.out"
    done = _run_preflight(paper, tmp_path / "inventory.json", strace=trace)
    if "ptrace" in done.stderr or "Operation not permitted" in done.stderr:
        pytest.skip(f"strace cannot trace here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr
    tex, paths = _tex_opens(trace.read_text())
    assert tex, "no TeX process was seen in the trace"
    every = [p.removeprefix("any:") for p in paths if p.startswith("any:")]
    assert not [p for p in every if p in ("/etc/hostname", "/proc/self/environ")]
    assert not [p for p in every if re.fullmatch(r"/proc/\d+/environ", p)]
    by_tex = [p for p in paths if not p.startswith("any:")]
    outside = sorted(
        {p for p in by_tex if not p.startswith(ALLOWED) and "/paperlint-latex-" not in p}
        - {p for p in by_tex if p.startswith(str(Path.home())) and "texlive" in p}
        - {p for p in by_tex if p.startswith(str(Path.home() / "texmf"))}
    )
    assert outside == [], outside
