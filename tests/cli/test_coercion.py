"""paperlint.cli.coercion converts plain parameters as typer's pydantic adapters do (values,
errors and messages), and a preflight run that needs no contract imports no pydantic."""

import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from typer import _click as click
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param, resolve_type_descriptor
from typer.core import TyperCommand
from typer.models import OptionInfo

from paperlint.cli.coercion import converter

ROOT = Path(__file__).resolve().parents[2]


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


CASES: list[tuple[Any, dict[str, Any], Any]] = [
    *((str, {}, v) for v in ["x", "", " a b ", "ä", b"bytes"]),
    *((int, {}, v) for v in ["3", " 3 ", "1_000", "1.0", "1.5", "-2", "+4", "x", "", "０", 7]),
    *((int, {"min": 1}, v) for v in ["0", "1", "-5", "9"]),
    *((int, {"max": 4, "min": 0}, v) for v in ["4", "5", "-1"]),
    *((float, {}, v) for v in ["3", "1.5", " 2 ", "1e3", "inf", "NaN", "1_000.5", "x", "", "０"]),
    *((float, {}, v) for v in ["infinity", "1e", 3, 2.5, ".5"]),
    *((float, {"min": 0}, v) for v in ["-0.5", "0", "7.25"]),
    *((bool, {}, v) for v in [True, False, "yes", "No", "1", "0", "off", " on ", "", "maybe"]),
    *((Colour, {}, v) for v in ["red", "blue", "RED", "green", Colour.RED]),
    *((Colour, {"case_sensitive": False}, v) for v in ["RED", "Blue", "x"]),
    *((Path, {}, v) for v in ["a/b.tex", ".", "", Path("p")]),
    *((Path, {"exists": True}, v) for v in [str(ROOT), str(ROOT / "no-such-file")]),
    *((list[str], {}, v) for v in [["a", "b"], ("c",), "d", []]),
    *((list[Colour], {}, v) for v in [["red"], ["red", "green"]]),
    *((int | None, {}, v) for v in ["5", "z"]),
]


def _outcome(convert: Any, value: Any) -> tuple[str, Any]:
    try:
        return "ok", convert(value)
    except BadParameter as exc:
        return "error", exc.message


@pytest.mark.parametrize(("annotation", "options", "value"), CASES)
def test_plain_conversion_answers_as_typer_does(annotation, options, value):
    info = OptionInfo(**options)
    ours = converter(annotation, info)
    assert ours is not None, annotation
    typers = build_runtime_param(resolve_type_descriptor(annotation, info))
    command = TyperCommand("c")
    ctx = click.Context(command)
    param = None
    want = _outcome(lambda v: typers._coerce_value(v, param=param, ctx=ctx), value)
    got = _outcome(lambda v: ours(v, param, ctx), value)
    assert repr(got) == repr(want)  # repr: nan equals nan
    if want[0] == "ok":
        assert type(got[1]) is type(want[1])


@pytest.mark.parametrize(
    ("annotation", "options"),
    [(int, {"clamp": True, "min": 1}), (tuple[int, int], {}), (str, {"min": 1})],
)
def test_anything_else_keeps_typers_conversion(annotation, options):
    assert converter(annotation, OptionInfo(**options)) is None


def test_a_preflight_that_writes_no_contract_imports_no_pydantic(tmp_path):
    code = (
        "import sys\n"
        "from paperlint.cli.root import run\n"
        "code = run(sys.argv[1:])\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
    )
    paper = ROOT / "fixtures" / "sample-variance" / "paper.tex"
    argv = [sys.executable, "-c", code, "preflight", str(paper), "--fail-on", "error", "-q"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout.split("\n")[-2] == "0 []", out.stdout[-500:]
    # the contract is still what `-o` writes and `--format json` prints
    json_run = subprocess.run(
        [*argv[:-3], "--format", "json"], capture_output=True, text=True, check=True
    )
    assert '"schema": "paperlint.inventory/1"' in json_run.stdout
    assert "pydantic" in json_run.stdout.split("\n")[-2]
