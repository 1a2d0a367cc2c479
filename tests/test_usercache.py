"""The user's cache (`paperlint.usercache`): jinja2's compiled templates kept between
processes, never served for an edited template or for an environment that compiles otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment, StrictUndefined

from paperlint.usercache import cache_dir, jinja_bytecode

ROOT = Path(__file__).resolve().parents[1]


def _env(templates: dict[str, str], **options: object) -> Environment:
    env = Environment(loader=DictLoader(templates), undefined=StrictUndefined, **options)  # type: ignore[arg-type]
    env.bytecode_cache = jinja_bytecode(env)
    return env


def test_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "paperlint"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "paperlint"


def test_compiled_code_is_reused_and_an_edit_is_compiled_afresh(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = _env({"t": "<{{ x }}>"}, autoescape=True)
    assert first.get_template("t").render(x="&") == "<&amp;>"
    files = list((tmp_path / "paperlint" / "jinja2").rglob("*.cache"))
    assert len(files) == 1
    # the same source in another environment is not compiled again: its code is loaded
    again = _env({"t": "<{{ x }}>"}, autoescape=True)

    def no_compile(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although the cache holds the code")

    again.compile = no_compile  # type: ignore[method-assign]
    assert again.get_template("t").render(x="&") == "<&amp;>"
    # a second environment (another process in use) loads the stored code, not the source's:
    # jinja2 compares the source's checksum, so an edited template is compiled again
    edited = _env({"t": "[{{ x }}]"}, autoescape=True)
    assert edited.get_template("t").render(x="&") == "[&amp;]"
    assert _env({"t": "<{{ x }}>"}, autoescape=True).get_template("t").render(x="&") == "<&amp;>"


def test_environments_that_compile_otherwise_do_not_share_code(monkeypatch, tmp_path):
    # autoescape is compiled into a template's code, and jinja2 keys its cache by name and
    # source only: a shared folder would serve an escaping template unescaped, or the reverse
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    template = {"t": "{{ x }}"}
    assert _env(template, autoescape=True).get_template("t").render(x="<b>") == "&lt;b&gt;"
    assert _env(template, autoescape=False).get_template("t").render(x="<b>") == "<b>"
    assert _env(template, autoescape=True).get_template("t").render(x="<b>") == "&lt;b&gt;"
    folders = sorted(p.name for p in (tmp_path / "paperlint" / "jinja2").iterdir())
    assert len(folders) == 2
    # the folder names are stable across processes (no object addresses in them)
    code = (
        "from jinja2 import Environment, StrictUndefined\n"
        "from paperlint.usercache import jinja_bytecode\n"
        "env = Environment(autoescape=True, undefined=StrictUndefined)\n"
        "print(jinja_bytecode(env).directory)\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        ).stdout
        for _ in range(2)
    ]
    assert out[0] == out[1]
    assert Path(out[0].strip()).name in folders


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permissions")
def test_an_unwritable_cache_is_no_cache(monkeypatch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.setenv("XDG_CACHE_HOME", str(locked))
    env = _env({"t": "{{ x }}"})
    assert env.bytecode_cache is None
    assert env.get_template("t").render(x=1) == "1"


def test_a_cache_path_that_is_a_file_is_no_cache(monkeypatch, tmp_path):
    (tmp_path / "paperlint").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    env = _env({"t": "{{ x }}"})
    assert env.bytecode_cache is None
    assert env.get_template("t").render(x=1) == "1"
