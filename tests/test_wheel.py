"""A non-editable build installs preflight/, blueprint/ and reports/ inside `paperlint`.

Nothing generic (`reports`, `preflight`) may land at the top of site-packages, and the data
files a run needs (prompt templates, report template and CSS) must ship in the wheel.
"""

import subprocess
import sys
import zipfile

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
