import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {
    "preflight": "paperlint.preflight",
    "blueprint": "paperlint.blueprint",
    "reports": "paperlint.reports",
    "paperlint": "paperlint",
}


def _package_folders():
    for top, name in MAPPED.items():
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top)
            yield ".".join([name, *rel.parts]) if rel.parts else name


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    assert set(_package_folders()) <= listed


def test_cli_import_pulls_in_no_heavy_library():
    code = (
        "import sys; import paperlint.cli; import paperlint.cli.root as r; r._register_commands();"
        "heavy = {'litellm', 'lean_interact', 'pdfminer', 'networkx', 'jinja2'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
