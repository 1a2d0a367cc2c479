"""Real Lean processes under paperlint's process handling: sandbox, timeout, memory, builds.

Driven through the public functions every Lean run goes through: `final.run_process` (its
own session, a wall-clock timeout that kills the whole process group, RLIMIT_AS) and
`sandbox.confinement` (bubblewrap). Where bubblewrap cannot run the sandbox tests skip, saying
why. The sandbox is shown from inside a real Lean process: Lean loads a small native library
(`--load-dynlib`) that tries, while Lean runs, what code that slipped past the scan could try —
write outside the output folder, read a file that was not bound in, open a network connection —
and prints what happened.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from paperlint.lean import sandbox
from paperlint.lean.final import ProcessRun, final_from_runs, run_process
from paperlint.lean.sandbox import Confinement
from paperlint.lean.verifier import FailureCode, Outcome

BWRAP = sandbox.sandbox_status("auto")
needs_bwrap = pytest.mark.skipif(not BWRAP.active, reason=f"no sandbox here: {BWRAP.detail}")
SMALL = "prelude\ninductive T : Prop | intro\ntheorem u : T := T.intro\n"
# Unary numerals doubled 2^20 times: the elaborator works on this for minutes.
SLOW = """prelude
universe u
inductive N | z | s (n : N)
inductive Eq {α : Sort u} (a : α) : α → Prop | refl : Eq a a
noncomputable def add (n m : N) : N := @N.rec (fun _ => N) n (fun _ r => N.s r) m
noncomputable def dbl (n : N) : N := add n n
noncomputable def f (n : N) : N := @N.rec (fun _ => N) (N.s N.z) (fun _ r => dbl r) n
noncomputable def k : N :=
  N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s
  (N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s (N.s N.z)))))))))))))))))))
set_option maxRecDepth 100000000 in
set_option maxHeartbeats 0 in
theorem big : @Eq N (f k) (f (N.s k)) := @Eq.refl N (f k)
"""
PROBE_C = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
__attribute__((constructor)) static void probe(void) {
    char out[4096] = "", in[4096] = "", net[8] = "";
    FILE *cfg = fopen("probe.cfg", "r");
    if (!cfg || fscanf(cfg, "%4095s %4095s %7s", out, in, net) != 3) {
        puts("PROBE no cfg");
        return;
    }
    fclose(cfg);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    printf("PROBE write %s\n", fd >= 0 ? "ok" : strerror(errno));
    if (fd >= 0) { if (write(fd, "x", 1) < 0) {} close(fd); }
    fd = open(in, O_RDONLY);
    printf("PROBE read %s\n", fd >= 0 ? "ok" : strerror(errno));
    if (fd >= 0) close(fd);
    if (strcmp(net, "net") == 0) {
        struct sockaddr_in to = {0};
        to.sin_family = AF_INET;
        to.sin_port = htons(80);
        inet_pton(AF_INET, "1.1.1.1", &to.sin_addr);
        int s = socket(AF_INET, SOCK_STREAM, 0);
        int c = s >= 0 ? connect(s, (struct sockaddr *)&to, sizeof to) : -1;
        printf("PROBE connect %s\n", c == 0 ? "ok" : strerror(errno));
    }
    fflush(stdout);
}
"""


def _lean_root(lean: Path) -> Path:
    return lean.resolve().parent.parent  # bin/lean and lib/libleanshared.so


def _confine(lean: Path, *, readonly: list[Path], writable: list[Path], home: Path) -> Confinement:
    found = sandbox.confinement(
        "required",
        readonly=[_lean_root(lean), *readonly],
        writable=writable,
        home=home,
        environ={"PATH": "/usr/bin:/bin"},
    )
    assert found is not None
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1]
    except OSError:
        return False
    return state != "Z"


def _running(marker: str) -> list[int]:
    """Processes whose command line holds `marker` (outside or inside a sandbox)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in command and _alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def test_a_timeout_kills_lean_and_everything_it_started(lean_oracle: Path, tmp_path: Path):
    (tmp_path / "Slow.lean").write_text(SLOW)
    # Lean as a grandchild (as under `lake env lean`): the shell starts it and waits.
    script = f"{lean_oracle} Slow.lean & echo $! > lean.pid; wait"
    run = run_process(["sh", "-c", script], tmp_path, timeout_s=2, memory_mb=None)
    assert run.timed_out and run.exit_code is None and 2 <= run.duration_s < 20
    pid = int((tmp_path / "lean.pid").read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the timeout left Lean running"
    verdict = final_from_runs("0" * 64, ["big"], run, None)
    assert (verdict.outcome, verdict.code) == (Outcome.TIMEOUT, FailureCode.TIMEOUT)


def test_the_memory_limit_reaches_lean(lean_oracle: Path, tmp_path: Path):
    """RLIMIT_AS is Lean's too: Lean 4.35 reserves gigabytes of address space for its threads
    at start-up and aborts under 2 GB, and paperlint calls that the machine's limit (unavailable),
    not the candidate's error. Under the default limit (16 GB) the same file builds."""
    (tmp_path / "T.lean").write_text(SMALL)
    tight = run_process([str(lean_oracle), "T.lean"], tmp_path, timeout_s=60, memory_mb=2048)
    assert tight.exit_code not in (0, None) and "failed to create thread" in tight.output
    verdict = final_from_runs("0" * 64, [], tight, None)
    assert (verdict.outcome, verdict.code) == (Outcome.UNAVAILABLE, FailureCode.UNAVAILABLE)
    assert "memory" in (verdict.hint or "")
    roomy = run_process([str(lean_oracle), "T.lean"], tmp_path, timeout_s=60, memory_mb=16384)
    assert roomy.exit_code == 0, roomy.output
    assert final_from_runs("0" * 64, [], roomy, None).outcome is Outcome.ACCEPTED


def _folders(lean: Path, tmp_path: Path, *extra: str) -> tuple[dict[str, Path], Confinement]:
    """`src` (holding T.lean, read-only inside), `out` (writable) and `extra` (not bound)."""
    folders = {name: tmp_path / name for name in ("src", "out", *extra)}
    for folder in folders.values():
        folder.mkdir()
    (folders["src"] / "T.lean").write_text(SMALL)
    src, out = folders["src"], folders["out"]
    return folders, _confine(lean, readonly=[src], writable=[out], home=out)


def _lean(command: list[str], cwd: Path, confined: Confinement | None = None) -> ProcessRun:
    return run_process(command, cwd, timeout_s=120, memory_mb=16384, confined=confined)


@needs_bwrap
def test_a_module_builds_under_the_sandbox(lean_oracle: Path, tmp_path: Path):
    folders, confined = _folders(lean_oracle, tmp_path)
    out = folders["out"]
    command = [str(lean_oracle), "-o", str(out / "T.olean"), "-i", str(out / "T.ilean"), "T.lean"]
    run = _lean(command, folders["src"], confined)
    assert run.exit_code == 0, run.output
    header = (out / "T.olean").read_bytes()[:128]
    assert header.startswith(b"olean") and b"4.35.0" in header and (out / "T.ilean").is_file()


@needs_bwrap
def test_sandboxed_lean_writes_only_its_output_folder(lean_oracle: Path, tmp_path: Path):
    folders, confined = _folders(lean_oracle, tmp_path, "elsewhere")
    source, elsewhere = folders["src"], folders["elsewhere"]
    for target in (elsewhere / "T.olean", source / "T.olean"):  # unbound, and read-only
        run = _lean([str(lean_oracle), "-o", str(target), "T.lean"], source, confined)
        assert run.exit_code != 0 and not target.exists(), run.output
    control = _lean([str(lean_oracle), "-o", str(elsewhere / "T.olean"), "T.lean"], source)
    assert control.exit_code == 0 and (elsewhere / "T.olean").is_file()


@needs_bwrap
def test_sandboxed_lean_reads_only_what_is_bound(lean_oracle: Path, tmp_path: Path):
    folders, confined = _folders(lean_oracle, tmp_path, "hidden")
    (folders["hidden"] / "Secret.lean").write_text(SMALL)
    command = [str(lean_oracle), str(folders["hidden"] / "Secret.lean")]
    run = _lean(command, folders["src"], confined)
    assert run.exit_code != 0 and "no such file" in run.output.lower(), run.output
    assert _lean(command, folders["src"]).exit_code == 0  # the control


@pytest.fixture
def probe_library(tmp_path: Path) -> Path:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler to build the probe library")
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "probe.c").write_text(PROBE_C)
    library = folder / "probe.so"
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-o", str(library), str(folder / "probe.c")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot build the probe library: {done.stderr[:200]}")
    return library


@needs_bwrap
def test_code_inside_a_sandboxed_lean_cannot_write_read_or_connect(
    lean_oracle: Path, tmp_path: Path, probe_library: Path
):
    folders, _ = _folders(lean_oracle, tmp_path, "secret")
    source, out, secret = folders["src"], folders["out"], folders["secret"]
    (secret / "key.txt").write_text("s3cret")
    planted = source / "planted.txt"  # the checked file's folder: bound read-only
    (source / "probe.cfg").write_text(f"{planted} {secret / 'key.txt'} net\n")
    confined = _confine(
        lean_oracle, readonly=[source, probe_library.parent], writable=[out], home=out
    )
    command = [str(lean_oracle), f"--load-dynlib={probe_library}", "T.lean"]
    run = _lean(command, source, confined)
    assert run.exit_code == 0, run.output  # Lean ran, and the probe ran inside it
    lines = [line for line in run.output.splitlines() if line.startswith("PROBE")]
    assert lines[0] == "PROBE write Read-only file system"
    assert not planted.exists()
    assert lines[1] == "PROBE read No such file or directory"
    assert lines[2].startswith("PROBE connect") and lines[2] != "PROBE connect ok"
    # The control: the same probe in an unconfined Lean writes and reads (no connection tried).
    (source / "probe.cfg").write_text(f"{planted} {secret / 'key.txt'} nonet\n")
    control = _lean(command, source)
    assert "PROBE write ok" in control.output and "PROBE read ok" in control.output
    assert planted.read_text() == "x"


@needs_bwrap
def test_a_timeout_kills_a_sandboxed_lean(lean_oracle: Path, tmp_path: Path):
    marker = f"Slow{uuid.uuid4().hex}"
    (tmp_path / f"{marker}.lean").write_text(SLOW)
    (tmp_path / "home").mkdir()
    confined = _confine(lean_oracle, readonly=[tmp_path], writable=[], home=tmp_path / "home")
    command = [str(lean_oracle), f"{marker}.lean"]
    seen: list[int] = []

    def watch() -> None:  # while Lean runs: the check below can see it
        deadline = time.monotonic() + 1.8
        while not seen and time.monotonic() < deadline:
            seen.extend(_running(marker))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    run = run_process(command, tmp_path, timeout_s=2, memory_mb=16384, confined=confined)
    watcher.join()
    assert run.timed_out and seen
    deadline = time.monotonic() + 5
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running(marker) == [], "Lean survived its sandbox's timeout"
