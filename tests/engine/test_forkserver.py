"""The sweep's fork server runs commands in turn in one child (tests/forkserver.py): each with
its own output, exit code and environment, and none after the one the child died in."""

from tests import forkserver
from tests.engine.conftest import check_argv


def test_commands_in_one_child_keep_their_own_output_code_and_environment(tmp_path):
    workdir = tmp_path / "ws"
    # The first command's environment would kill the second (a check) at its first event if
    # it leaked into it.
    version, checked = forkserver.server().run_in_turn(
        [
            (["--version"], {"PAPERLINT_FAILPOINT": "after-event:1"}),
            (check_argv("convergence", workdir), {}),
        ]
    )
    assert version.code == 0 and "paperlint" in version.output
    assert "checking" not in version.output
    assert checked.code == 0, checked.output
    assert "paperlint: checking" in checked.output
    assert (workdir / "results.json").is_file()


def test_no_command_runs_after_the_one_the_child_died_in(tmp_path):
    workdir = tmp_path / "ws"
    runs = forkserver.server().run_in_turn(
        [
            (check_argv("convergence", workdir), {"PAPERLINT_FAILPOINT": "after-event:3"}),
            (["validate", str(workdir)], {}),
        ]
    )
    assert [run.code for run in runs] == [77]
    assert len((workdir / "events.jsonl").read_text().splitlines()) == 3  # died at the failpoint
