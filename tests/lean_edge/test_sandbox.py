"""Lean never runs unconfined: the bubblewrap command line, and real runs under bwrap.

The command construction is tested as data. Where bubblewrap works on this machine, harmless
programs run under the real thing: a socket cannot reach the network, a write outside the
scratch folder fails, one inside it works, and no environment variable leaks in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paperlint.errors import LeanSetupError
from paperlint.lean import sandbox
from paperlint.lean.sandbox import Confinement, bwrap_argv, confinement, probe, sandbox_status

BWRAP = sandbox_status("auto")
needs_bwrap = pytest.mark.skipif(not BWRAP.active, reason=f"sandbox unavailable: {BWRAP.detail}")


def test_argv_unshares_everything_and_binds_only_what_it_is_given(tmp_path):
    ro, rw = tmp_path / "project", tmp_path / "scratch"
    argv = bwrap_argv(
        "/usr/bin/bwrap",
        ["lake", "env", "lean", "F.lean"],
        readonly=[ro, ro],
        writable=[rw],
        cwd=ro,
        env={"HOME": "/tmp", "PATH": "/usr/bin"},
        system_dirs=("/usr",),
        system_files=("/etc/ld.so.cache",),
    )
    assert argv[:5] == [
        "/usr/bin/bwrap",
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ]
    joined = " ".join(argv)
    assert f"--ro-bind {ro} {ro}" in joined and joined.count(f"--ro-bind {ro}") == 1
    assert f"--bind {rw} {rw}" in joined
    assert "--share-net" not in argv
    assert joined.index("--tmpfs /tmp") < joined.index(f"--bind {rw}")  # scratch wins over /tmp
    assert argv[-5:] == ["--", "lake", "env", "lean", "F.lean"]
    assert argv[argv.index("--chdir") + 1] == str(ro)
    assert "--setenv HOME /tmp" in joined and "--setenv PATH /usr/bin" in joined


def test_kept_env_drops_secrets_and_homes_the_process_in_its_own_tmp(tmp_path):
    env = sandbox.kept_env({"PATH": "/bin", "OPENAI_API_KEY": "sk-x", "AWS_SECRET": "y",
                            "HOME": str(tmp_path)})  # fmt: skip
    assert env == {"PATH": "/bin", "HOME": "/tmp"}  # the sandbox's own tmpfs, not the host's


def test_with_the_home_moved_elan_is_still_found(tmp_path):
    """elan's proxies look in `$HOME/.elan` unless `$ELAN_HOME` says otherwise: inside the
    sandbox the home is its own /tmp, so the host's elan folder is named explicitly."""
    (tmp_path / ".elan").mkdir()
    env = sandbox.kept_env({"PATH": "/bin", "HOME": str(tmp_path)})
    assert env["ELAN_HOME"] == str((tmp_path / ".elan").resolve()) and env["HOME"] == "/tmp"
    assert sandbox.kept_env({"HOME": str(tmp_path), "ELAN_HOME": "/opt/elan"})["ELAN_HOME"] == (
        "/opt/elan"
    )
    assert "ELAN_HOME" not in sandbox.kept_env({"HOME": str(tmp_path / "none")})


def test_a_confinement_binds_only_the_named_writable_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "sandbox_status", lambda mode: sandbox.SandboxStatus(
        True, mode, "/usr/bin/bwrap", "/usr/bin/bwrap"))  # fmt: skip
    out = tmp_path / "out"
    found = confinement("required", readonly=[tmp_path], writable=[out], environ={"HOME": "/root"})
    assert found is not None and found.writable == (out,) and found.env["HOME"] == "/tmp"
    argv = found.argv(["lean"], cwd=tmp_path)
    binds = [argv[i + 1] for i, a in enumerate(argv) if a == "--bind"]
    assert binds == [str(out)]  # never /tmp, never the home


def test_required_without_bubblewrap_refuses_to_start(monkeypatch):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    sandbox.probe.cache_clear()
    with pytest.raises(LeanSetupError, match="required"):
        confinement("required", readonly=[], writable=[])
    assert confinement("auto", readonly=[], writable=[]) is None
    assert not sandbox_status("auto").active and "not installed" in sandbox_status("auto").detail
    sandbox.probe.cache_clear()


def test_off_is_never_active():
    assert not sandbox_status("off").active


def test_final_check_refuses_when_the_sandbox_is_required_and_missing(monkeypatch, tmp_path):
    from paperlint.lean.final import FinalChecker
    from paperlint.lean.pins import LeanPaths
    from paperlint.lean.verifier import Outcome

    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    sandbox.probe.cache_clear()
    file = tmp_path / "R.lean"
    file.write_text("theorem t : True := trivial\n")
    paths = LeanPaths(project=tmp_path, cache=tmp_path, repl_dir=tmp_path, lake="/bin/false")
    check = FinalChecker(paths, sandbox="required").final_check(file, ["t"], timeout_s=5)
    assert check.outcome is Outcome.UNAVAILABLE and "required" in (check.hint or "")
    sandbox.probe.cache_clear()


def _confined(tmp_path: Path) -> tuple[Confinement, Path]:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    found = confinement(
        "required",
        readonly=[Path(sys.prefix), Path(sys.base_prefix), Path(__file__).resolve().parent],
        writable=[scratch],
        environ={"PATH": "/usr/bin:/bin", "PAPERLINT_SECRET": "s3cret"},
    )
    assert found is not None
    return found, scratch


def _run(confined: Confinement, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = confined.argv([sys.executable, "-c", code], cwd=cwd)
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


@needs_bwrap
def test_real_bwrap_runs_a_harmless_command():
    assert probe(BWRAP.bwrap) == (True, BWRAP.bwrap)
    argv = bwrap_argv(
        BWRAP.bwrap or "bwrap", ["/bin/true"], readonly=[], writable=[], cwd=Path("/"), env={}
    )
    assert subprocess.run(argv, timeout=30, check=False).returncode == 0


@needs_bwrap
def test_real_bwrap_has_no_network(tmp_path):
    confined, scratch = _confined(tmp_path)
    code = (
        "import socket\n"
        "s = socket.socket()\n"
        "s.settimeout(3)\n"
        "try:\n    s.connect(('1.1.1.1', 80)); print('CONNECTED')\n"
        "except OSError as e:\n    print('BLOCKED', e.errno)\n"
    )
    done = _run(confined, code, scratch)
    assert "BLOCKED" in done.stdout and "CONNECTED" not in done.stdout, done.stderr


@needs_bwrap
def test_real_bwrap_writes_only_to_scratch(tmp_path):
    confined, scratch = _confined(tmp_path)
    outside = tmp_path / "outside.txt"
    project = Path(__file__).resolve().parent / "planted.txt"
    code = (
        f"open({str(scratch / 'ok.txt')!r}, 'w').write('ok')\n"
        f"for target in ({str(outside)!r}, {str(project)!r}):\n"
        "    try:\n        open(target, 'w').write('x'); print('WROTE', target)\n"
        "    except OSError as e:\n        print('DENIED', target)\n"
    )
    done = _run(confined, code, scratch)
    assert (scratch / "ok.txt").read_text() == "ok", done.stderr
    # Outside the scratch, /tmp is the sandbox's own tmpfs: a write there never reaches the
    # host; a read-only bind (the project, the toolchain) refuses the write outright.
    assert not outside.exists() and not project.exists()
    assert f"DENIED {project}" in done.stdout


@needs_bwrap
def test_real_bwrap_leaks_no_environment(tmp_path):
    confined, scratch = _confined(tmp_path)
    done = _run(confined, "import os; print(sorted(os.environ))", scratch)
    assert "PAPERLINT_SECRET" not in done.stdout and "s3cret" not in done.stdout
    assert "'HOME'" in done.stdout


@needs_bwrap
def test_lake_wrapper_script_runs_its_program_confined(tmp_path):
    confined, scratch = _confined(tmp_path)
    fake = tmp_path / "fake-lake"
    fake.write_text("#!/bin/sh\necho args:$*\ntouch /tmp/inside-only\nls /tmp\n")
    fake.chmod(0o755)
    confined = Confinement(
        confined.bwrap, (*confined.readonly, tmp_path), confined.writable, confined.env
    )
    script = sandbox.wrapper_script(confined, str(fake), tmp_path / "bin", cwd=scratch)
    done = subprocess.run(
        [str(script), "env", "repl"], capture_output=True, text=True, timeout=60, check=False
    )
    assert "args:env repl" in done.stdout, done.stderr
    assert not Path("/tmp/inside-only").exists()  # a fresh /tmp inside the sandbox
