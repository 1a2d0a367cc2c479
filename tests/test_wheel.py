"""A non-editable build installs preflight/, blueprint/ and reports/ inside `paperlint`.

Nothing generic (`reports`, `preflight`) may land at the top of site-packages, and the data
files a run needs (prompt templates, report template and CSS) must ship in the wheel.
"""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("paperlint-*.whl")
    with zipfile.ZipFile(wheel) as archive:
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


@pytest.fixture(scope="module")
def wheel_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheelfile")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("paperlint-*.whl")
    return wheel


def test_the_wheel_carries_the_pinned_lake_project(wheel_names):
    for name in (
        "lakefile.toml",
        "lean-toolchain",
        "PaperlintLean.lean",
        "PaperlintLean/Basic.lean",
    ):
        assert f"paperlint/lean_project/{name}" in wheel_names


def test_doctor_from_an_empty_folder_in_a_fresh_venv_names_the_bundled_project(
    wheel_file, tmp_path
):
    """pip install of the built wheel into a new venv (its dependencies are borrowed from this
    venv through a .pth line, since there is no network), then `paperlint doctor` run from an
    empty folder with an empty home."""
    import site
    import venv

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # A .pth line adds the folder to sys.path without running its own .pth files, so this
    # checkout's editable finder stays out and `paperlint` comes from the wheel.
    deps = "\n".join(p for p in site.getsitepackages() if "site-packages" in p)
    (Path(purelib) / "borrowed-deps.pth").write_text(deps + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel_file)],
        check=True,
        capture_output=True,
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    done = subprocess.run(
        [str(env_dir / "bin" / "paperlint"), "doctor"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out  # not ready: no Lean here
    bundled = Path(purelib) / "paperlint" / "lean_project"
    assert f"[OK  ] lean: Lake project: {bundled} (bundled with paperlint" in out
    for bad in ("None", "PosixPath(", ": ?", "?)"):
        assert bad not in out, (bad, out)
    assert "lean-toolchain pins a v4 release: leanprover/lean4:" in out
    for line in out.splitlines():
        if line.startswith("[MISS]"):
            index = out.splitlines().index(line)
            assert out.splitlines()[index + 1].strip().startswith("fix: "), line
