#!/usr/bin/env python3
"""Print line-and-branch coverage per package from the `.coverage` that `./dev test` wrote.

    python scripts/coverage_summary.py [--detail]

preflight/, blueprint/ and reports/ are installed inside paperlint (paperlint.preflight etc.),
which coverage cannot see from package names; [tool.coverage.run] names their folders. This
prints one line per package and fails when one of them was not measured at all, so a wrong
coverage setting cannot again silently leave three packages out. `--detail` adds coverage's
own table of every file that is not fully covered.
"""

from __future__ import annotations

import io
import sys
import tomllib
from pathlib import Path

import coverage
from coverage.exceptions import NoDataError

ROOT = Path(__file__).resolve().parents[1]


def mapped_packages() -> dict[str, str]:
    """Package name -> folder, from the one place that says it: setuptools' package-dir."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return mapping


def main(argv: list[str]) -> int:
    cov = coverage.Coverage(
        data_file=str(ROOT / ".coverage"), config_file=str(ROOT / "pyproject.toml")
    )
    cov.load()
    if not cov.get_data().measured_files():
        print("coverage: no data (no test ran)")
        return 0
    if "--detail" in argv:
        cov.report(skip_covered=True, sort="cover")
    print("coverage, lines and branches:")
    failed = []
    for package, folder in mapped_packages().items():
        if not any((ROOT / folder).rglob("*.py")):
            print(f"  {package:<22} no Python ({folder}/)")
            continue  # lean-project/ ships as package data: nothing to measure
        try:
            percent = cov.report(include=[f"{ROOT / folder}/*"], file=io.StringIO())
        except NoDataError:
            failed.append(package)
            print(f"  {package:<22} not measured ({folder}/)")
            continue
        print(f"  {package:<22} {percent:5.1f} %  ({folder}/)")
    print(f"  {'total':<22} {cov.report(file=io.StringIO()):5.1f} %")
    if failed:
        print(f"coverage did not measure {', '.join(failed)}: see [tool.coverage.run]")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
