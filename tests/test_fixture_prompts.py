"""Every fixture transcript answers named questions (#28): each entry carries the hashes of the
prompt it was stamped for (`scripts/stamp_prompts.py`), so a replay never serves an answer to
another question (a revised paper, another earlier answer) as this one's."""

from pathlib import Path

import pytest

from paperlint.agents.transcript import Transcript

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = sorted((ROOT / "fixtures").glob("**/transcript.jsonl"))


def test_the_fixtures_have_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 10


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: str(p.parent.relative_to(ROOT)))
def test_every_answer_names_its_question(path: Path) -> None:
    unstamped = [
        e.key.describe()
        for e in Transcript.load(path).entries()
        if e.prompt_sha256 is None or (e.inputs_sha256 is None and not e.turn)
    ]
    assert unstamped == [], f"run scripts/stamp_prompts.py {path.parent.relative_to(ROOT)}"
