"""The built wheel is complete (#28): installed in a fresh venv outside the repository, it runs
`setup --dry-run`, `doctor` and a replayed check, and writes nothing under site-packages.

A non-editable build installs preflight/, blueprint/ and reports/ inside `paperlint`; nothing
generic (`reports`, `preflight`) may land at the top of site-packages; the data files a run needs
(prompt templates, report template and CSS, every .lean file of the Lake project `setup` runs)
ship, and nothing Lake built or fetched (lean-project/.lake/) does. The wheel is built from a
copy of this checkout that also holds a new Lean module and a fake `.lake/` tree, so the
package-data rule is tested on what a developer's checkout can hold.
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, checkout_files, copy_checkout

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
NEW_MODULE = "PaperLint/NewCheck.lean"  # as another change adds PaperLint/Checker.lean
BUILT = ".lake/packages/mathlib/Mathlib/Fake.lean"


@pytest.fixture(scope="module")
def wheel_file(tmp_path_factory):
    source = copy_checkout(tmp_path_factory.mktemp("checkout"))
    for name in (NEW_MODULE, BUILT):
        (source / "lean-project" / name).parent.mkdir(parents=True, exist_ok=True)
        (source / "lean-project" / name).write_text("-- a module\n")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("paperlint-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel_names(wheel_file):
    with zipfile.ZipFile(wheel_file) as archive:
        return set(archive.namelist())


def test_mapped_packages_install_inside_paperlint(wheel_names):
    tops = {name.split("/", 1)[0] for name in wheel_names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"paperlint"}
    for module in (
        "preflight/inventory.py",
        "blueprint/build.py",
        "reports/write.py",
        "engine/run.py",
        "lean/verifier.py",
    ):
        assert f"paperlint/{module}" in wheel_names


def test_data_files_ship(wheel_names):
    assert "paperlint/agents/templates/prover.j2" in wheel_names
    assert any(n.startswith("paperlint/reports/") and n.endswith(".css") for n in wheel_names)
    assert "paperlint/py.typed" in wheel_names


def test_every_lean_file_of_the_lake_project_ships_and_nothing_lake_built(wheel_names):
    tracked = checkout_files("lean-project")
    lean = [name.removeprefix("lean-project/") for name in tracked if name.endswith(".lean")]
    assert "PaperLint/Extract.lean" in lean  # `setup` runs it
    for name in [*lean, NEW_MODULE, "lakefile.toml", "lean-toolchain"]:
        assert f"paperlint/lean_project/{name}" in wheel_names, name
    assert not [n for n in wheel_names if "/.lake/" in n]


@pytest.fixture(scope="module")
def installed(wheel_file, tmp_path_factory):
    """The wheel pip-installed into a new venv outside the repository. Its dependencies are
    borrowed from this venv through a .pth line (no network here): the line adds the folder
    to sys.path without running its own .pth files, so this checkout's editable finder stays
    out and `paperlint` comes from the wheel."""
    import site
    import venv

    base = tmp_path_factory.mktemp("fresh")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = "\n".join(p for p in site.getsitepackages() if "site-packages" in p)
    (Path(purelib) / "borrowed-deps.pth").write_text(deps + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel_file)],
        check=True,
        capture_output=True,
    )
    home = base / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "NO_COLOR": "1"}
    return env_dir / "bin" / "paperlint", Path(purelib), home, env


def _run(installed, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    paperlint, _purelib, _home, env = installed
    return subprocess.run(
        [str(paperlint), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def _package_files(purelib: Path) -> set[str]:
    return {str(p.relative_to(purelib)) for p in (purelib / "paperlint").rglob("*")}


def test_setup_dry_run_doctor_and_a_replayed_check_run_from_the_wheel(installed, tmp_path):
    paperlint, purelib, home, env = installed
    before = _package_files(purelib)
    user_project = home / ".local" / "share" / "paperlint" / "lean-project"
    bundled = purelib / "paperlint" / "lean_project"

    empty = tmp_path / "empty"
    empty.mkdir()
    setup = _run(installed, "setup", "--dry-run", cwd=empty)
    out = setup.stdout + setup.stderr
    assert setup.returncode == 0, out
    assert f"would copy the bundled Lake project {bundled} to {user_project}" in out
    runs_in = [line.split(": ", 1)[0] for line in out.splitlines() if line.startswith("would run")]
    assert runs_in and all(str(purelib) not in line for line in runs_in), runs_in
    assert f"would run in {user_project}: lake build" in out  # where a real setup builds

    doctor = _run(installed, "doctor", cwd=empty)
    out = doctor.stdout + doctor.stderr
    assert doctor.returncode == 1, out  # not ready: no Lean here
    assert f"[OK  ] lean: Lake project: {bundled} (bundled with paperlint, read-only;" in out
    assert f"copies it to {user_project} and builds it there)" in out  # the folder setup names
    for bad in ("None", "PosixPath(", ": ?", "?)"):
        assert bad not in out, (bad, out)
    assert "lean-toolchain pins a v4 release: leanprover/lean4:" in out
    lines = out.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("[MISS]"):
            assert lines[index + 1].strip().startswith("fix: "), line

    paper = tmp_path / "paper"
    shutil.copytree(ROOT / "fixtures" / "sample-variance", paper)
    check = _run(
        installed, "check", "paper.tex", "--replay", "replay", "--workdir", "out", cwd=paper
    )
    out = check.stdout + check.stderr
    assert check.returncode == 1, out  # the example's two issues, as its answer key says
    assert "REPLAY — issue: 2, verified_conditional: 1, verified_unconditional: 1" in out
    assert (paper / "out" / "report" / "report.html").is_file()
    assert _package_files(purelib) == before  # nothing written under site-packages
    assert not (bundled / ".lake").exists() and not (purelib / "paperlint" / ".li-cache").exists()
