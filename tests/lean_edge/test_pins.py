from paperlint.lean import pins


def test_pins_read_from_the_project_files(repo_root):
    found = pins.read_pins(repo_root / "lean-project")
    assert found.toolchain == "leanprover/lean4:v4.35.0"
    assert found.lean_version == "v4.35.0"
    assert found.mathlib_tag == "v4.35.0"
    assert found.repl_tag == "v1.3.19_lean-toolchain-v4.35.0"
    assert found.lean_interact_installed == pins.LEAN_INTERACT_PIN
    summary = found.summary()
    assert summary["mathlib_rev_expected"] == pins.MATHLIB_REV_EXPECTED
    assert summary["repl_git"] == pins.REPL_GIT_URL


def test_repl_pin_matches_the_installed_lean_interact():
    # Drift guard: lean-interact picks the fork tag from its own default REPL version.
    from lean_interact import utils

    assert utils.DEFAULT_REPL_VERSION == pins.REPL_VERSION
    assert utils.DEFAULT_REPL_GIT_URL == pins.REPL_GIT_URL


def test_manifest_rev_and_paths(tmp_path, monkeypatch):
    (tmp_path / "lean-toolchain").write_text("leanprover/lean4:v4.35.0\n")
    (tmp_path / "lake-manifest.json").write_text(
        '{"packages": [{"name": "batteries", "rev": "x"}, {"name": "mathlib", "rev": "abc"}]}'
    )
    assert pins.read_manifest_rev(tmp_path) == "abc"
    monkeypatch.delenv("PAPERLINT_REPL_DIR", raising=False)
    monkeypatch.delenv("PAPERLINT_LEAN_CACHE", raising=False)
    paths = pins.locate(tmp_path, lake="/x/lake")
    assert (
        paths.repl_dir
        == (
            tmp_path.parent / ".li-cache/augustepoiroux/repl/repl_v1.3.19_lean-toolchain-v4.35.0"
        ).resolve()
    )
    assert paths.repl_binary.name == "repl" and paths.lake == "/x/lake"
    monkeypatch.setenv("PAPERLINT_REPL_DIR", str(tmp_path / "r"))
    assert pins.resolve_paths(str(tmp_path)).repl_dir == (tmp_path / "r").resolve()
