"""`paperlint.preflight.lazyre`: a kept program is the one `re` itself hands its engine, and a
pattern compiled from the cache matches as `re.compile`'s does; a missing, foreign or damaged
cache file means a plain compile."""

from __future__ import annotations

import importlib
import marshal
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import paperlint.preflight as preflight_package
from paperlint.preflight import lazyre


def _preflight_patterns() -> list[tuple[str, int]]:
    """Every module-level pattern of preflight, as (source, flags) as written."""
    found: dict[tuple[str, int], None] = {}
    for info in pkgutil.walk_packages(preflight_package.__path__, "paperlint.preflight."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, lazyre._Pending):
                found[(value._source, int(value._flags))] = None
            elif isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[(value.pattern, int(value.flags))] = None
    return list(found)


PATTERNS = _preflight_patterns()


def _handed_by_re(source: str, flags: int, monkeypatch: pytest.MonkeyPatch) -> Any:
    """What `re._compiler.compile` hands to `_sre.compile` after the pattern."""
    from re import _compiler  # type: ignore[attr-defined]

    handed: list[tuple[Any, ...]] = []
    engine = _compiler._sre

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        def compile(self, *args: Any) -> Any:
            handed.append(args)
            return engine.compile(*args)

    with monkeypatch.context() as patch:
        patch.setattr(_compiler, "_sre", Spy())
        _compiler.compile(source, flags)
    _pattern, made_flags, code, groups, groupindex, indexgroup = handed[0]
    return (made_flags, [int(op) for op in code], groups, dict(groupindex), indexgroup)


def test_every_pattern_of_preflight_is_found() -> None:
    assert len(PATTERNS) > 60  # the walk over preflight's modules saw them


@pytest.mark.parametrize("source,flags", PATTERNS)
def test_the_kept_program_is_res_own(
    source: str, flags: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert lazyre._program(source, flags) == _handed_by_re(source, flags, monkeypatch)


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache, and lazyre as a new process finds it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(lazyre, "_programs", None)
    monkeypatch.setattr(lazyre, "_added", {})
    monkeypatch.setattr(lazyre, "_usable", True)
    return tmp_path


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazyre, "_programs", None)
    monkeypatch.setattr(lazyre, "_added", {})


SAMPLES = [
    r"\begin{theorem}[Main]\label{thm:a} x % c" + "\n" + r"\end{theorem} \ref{thm:a} \cite{k}",
    "\\newcommand{\\R}{\\mathbb{R}}\n\\section{Intro}\nLemma~2.3 and Theorem 4 \\verb|%x|",
    "\\iffalse hidden \\fi \\def\\x#1{#1} {\\bf Proof.} $a_{1}$ \\\\ \\% 50\\%",
]


def test_a_program_made_is_kept_and_served_to_the_next_process(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for source, flags in PATTERNS:
        lazyre.compile_kept(source, flags)
    assert len(lazyre._added) == len(PATTERNS)
    lazyre._save()
    assert lazyre.cache_file().is_relative_to(fresh_cache)

    _new_process(monkeypatch)
    made: list[str] = []
    real = lazyre._program
    monkeypatch.setattr(lazyre, "_program", lambda s, f: made.append(s) or real(s, f))
    for source, flags in PATTERNS:
        kept = lazyre.compile_kept(source, flags)
        plain = re.compile(source, flags)
        assert (kept.pattern, kept.flags, kept.groups, kept.groupindex) == (
            plain.pattern,
            plain.flags,
            plain.groups,
            plain.groupindex,
        )
        for text in SAMPLES:
            assert [m.span() for m in kept.finditer(text)] == [
                m.span() for m in plain.finditer(text)
            ]
            assert [m.groups() for m in kept.finditer(text)] == [
                m.groups() for m in plain.finditer(text)
            ]
    assert made == [] and lazyre._added == {}  # every one from the file


def test_a_second_process_adds_to_the_file(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lazyre.compile_kept(r"\\first", 0)
    lazyre._save()
    _new_process(monkeypatch)
    lazyre.compile_kept(r"\\second", re.S)
    lazyre._save()
    data = marshal.loads(lazyre.cache_file().read_bytes())
    assert set(data["programs"]) == {(r"\\first", 0), (r"\\second", int(re.S))}
    assert data["python"] == sys.version


@pytest.mark.parametrize(
    "content",
    [
        b"not marshal at all",
        marshal.dumps({"python": "2.7.18 (another build)", "programs": {("a", 0): 1}}),
        marshal.dumps(["a list"]),
        # this build's file, with a program the engine refuses and one of the wrong shape
        None,
    ],
    ids=["garbage", "other-python", "not-a-dict", "bad-programs"],
)
def test_a_foreign_or_damaged_file_means_a_plain_compile(
    content: bytes | None, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = r"\\label\s*\{([^}]*)\}"
    if content is None:
        refused = (0, [999999, 1, 2], 0, {}, (None,))
        programs = {(source, 0): refused, (r"x+", 0): "oops"}
        content = marshal.dumps({"python": sys.version, "programs": programs})
    path = lazyre.cache_file()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    for pattern in (source, r"x+"):
        compiled = lazyre.compile_kept(pattern, 0)
        assert compiled.pattern == pattern
    assert lazyre.compile_kept(source).match(r"\label {thm:a}").group(1) == "thm:a"  # type: ignore[union-attr]
    assert lazyre.compile_kept(r"x+").match("xxx").end() == 3  # type: ignore[union-attr]


def test_an_invalid_pattern_raises_as_re_does(fresh_cache: Path) -> None:
    with pytest.raises(re.error):
        lazyre.compile_kept(r"(unclosed", 0)


def test_a_cache_folder_that_cannot_be_written_is_no_error(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = fresh_cache / "paperlint"
    blocker.write_text("a file where the folder would be")
    assert lazyre.compile_kept(r"a|b").search("xb").group(0) == "b"  # type: ignore[union-attr]
    lazyre._save()  # nothing written, nothing raised
    assert blocker.read_text() == "a file where the folder would be"
