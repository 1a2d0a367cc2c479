"""Every confined Lean process has a home of its own, and none can write to the host's /tmp.

paperlint once gave the final check and the warm REPL `home=/tmp`, which bound the host's real
`/tmp` writable inside the sandbox. Here each of the three edges that start Lean — the final
check (`FinalChecker`), the trusted checker's compiles (`TrustedChecker`) and the warm REPL's
`lake` (`confined_lake`) — starts the real Lean 4.35.0 through a stand-in `lake` that loads a
small native library into it (`--load-dynlib`). While Lean runs, the library writes a file into
the host's `/tmp` by its absolute path and one into `$HOME`, and prints what happened. Inside
the sandbox both writes land in the process's own tmpfs; on the host neither file appears.
"""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from paperlint.lean import sandbox

BWRAP = sandbox.sandbox_status("auto")
pytestmark = pytest.mark.skipif(not BWRAP.active, reason=f"no sandbox here: {BWRAP.detail}")
SMALL = "prelude\ninductive T : Prop | intro\ntheorem u : T := T.intro\n"
PROBE_C = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void probe(void) {
    char target[4096] = "", name[256] = "", path[4400];
    FILE *cfg = fopen("probe.cfg", "r");
    if (!cfg || fscanf(cfg, "%4095s %255s", target, name) != 2) {
        puts("PROBE no cfg");
        return;
    }
    fclose(cfg);
    int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    printf("PROBE tmp %s\n", fd >= 0 ? "written" : strerror(errno));
    if (fd >= 0) close(fd);
    const char *home = getenv("HOME");
    snprintf(path, sizeof path, "%s/%s", home ? home : "", name);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    printf("PROBE home %s %s\n", home ? home : "-", fd >= 0 ? "written" : strerror(errno));
    if (fd >= 0) close(fd);
    fflush(stdout);
}
"""
# `lake env lean ARGS` (final check, trusted compiles) or `lake env repl` (the warm REPL): the
# real Lean with the probe loaded; the REPL's stand-in builds the project's T.lean.
LAKE = """#!/bin/sh
[ "$1" = env ] && shift
[ "$1" = lean ] && shift
[ "$1" = repl ] && set -- T.lean
exec {lean} --load-dynlib={probe} "$@"
"""


class Rig:
    """A Lake project (holding the probe, its config and T.lean) and a stand-in `lake`."""

    def __init__(self, lean: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            pytest.skip("no C compiler to build the probe library")
        self.project = tmp_path / "project"
        self.project.mkdir()
        (self.project / "probe.c").write_text(PROBE_C)
        probe = self.project / "probe.so"
        done = subprocess.run(
            [compiler, "-shared", "-fPIC", "-o", str(probe), str(self.project / "probe.c")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            pytest.skip(f"cannot build the probe library: {done.stderr[:200]}")
        (self.project / "T.lean").write_text(SMALL)
        self.name = f"paperlint-probe-{uuid.uuid4().hex}"
        self.host_file = Path("/tmp") / self.name
        (self.project / "probe.cfg").write_text(f"{self.host_file} {self.name}.home\n")
        tool = tmp_path / "toolchain" / "bin"
        tool.mkdir(parents=True)
        self.lake = tool / "lake"
        self.lake.write_text(LAKE.format(lean=lean.resolve(), probe=probe))
        self.lake.chmod(0o755)
        # The toolchain the sandbox binds read-only: elan's home (here, the oracle's folder)
        # and the installation `lake` sits in.
        monkeypatch.setenv("ELAN_HOME", str(lean.resolve().parent.parent))

    def assert_nothing_reached_the_host(self, output: str) -> None:
        assert "PROBE tmp written" in output, output  # Lean ran, and the probe inside it
        assert "PROBE home /tmp written" in output, output  # its home: its own tmpfs
        assert not self.host_file.exists(), "a sandboxed Lean wrote to the host's /tmp"
        assert not (Path("/tmp") / f"{self.name}.home").exists()

    def cleanup(self) -> None:
        for path in (self.host_file, Path("/tmp") / f"{self.name}.home"):
            path.unlink(missing_ok=True)


@pytest.fixture
def rig(lean_oracle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    found = Rig(lean_oracle, tmp_path, monkeypatch)
    yield found
    found.cleanup()


def test_the_final_check_cannot_write_to_the_hosts_tmp(rig: Rig, tmp_path: Path):
    from paperlint.lean.final import FinalChecker
    from paperlint.lean.pins import LeanPaths

    paths = LeanPaths(project=rig.project, cache=tmp_path, repl_dir=tmp_path, lake=str(rig.lake))
    check = FinalChecker(paths, sandbox="required").final_check(
        rig.project / "T.lean", [], timeout_s=120
    )
    assert check.exit_code == 0, check.output
    rig.assert_nothing_reached_the_host(check.output)


def test_the_trusted_checkers_compiles_cannot_write_to_the_hosts_tmp(rig: Rig):
    from paperlint.lean.modules import CheckerRequest, CheckJob, LeanModule
    from paperlint.lean.trusted import Tools, TrustedChecker

    module = LeanModule("PaperlintCheck.Reference.r_probe_00000000", SMALL)
    request = CheckerRequest("reference", "u", module.name, None)
    tools = Tools(
        lean=(str(rig.lake), "env", "lean"),
        checker=None,
        cwd=rig.project,
        readonly=tuple(sandbox.toolchain_dirs(str(rig.lake))),
    )
    run = TrustedChecker(tools, sandbox="required").trusted_check(
        CheckJob(request, (module,)), timeout_s=120
    )
    [compiled] = run.compile
    assert compiled.exit_code == 0, compiled.output
    rig.assert_nothing_reached_the_host(compiled.output)


def test_the_warm_repls_lake_cannot_write_to_the_hosts_tmp(rig: Rig, tmp_path: Path):
    from paperlint.lean.pins import LeanPaths
    from paperlint.lean.warm import confined_lake

    (tmp_path / "repl").mkdir()
    (tmp_path / "cache").mkdir()
    paths = LeanPaths(
        project=rig.project, cache=tmp_path / "cache", repl_dir=tmp_path / "repl",
        lake=str(rig.lake),
    )  # fmt: skip
    wrapper = confined_lake(paths, "required")
    assert wrapper != str(rig.lake)  # the sandboxed script lean-interact is given
    done = subprocess.run(
        [wrapper, "env", "repl"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rig.assert_nothing_reached_the_host(done.stdout)
