"""Golden replays: complete games whose transcripts and summaries are kept in files.

The files are made by ``tests/candidate/make_candidate_golden.py`` (see its docstring
for how to regenerate them); these tests replay each stored record and diff the output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from make_candidate_golden import GAMES, GOLDEN, golden_record, outputs

from cardtable.record import read_record_file


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_replay_matches_stored_transcripts_and_summary(name: str) -> None:
    record = read_record_file(GOLDEN / f"{name}.json")
    for suffix, text in outputs(record).items():
        stored = (GOLDEN / f"{name}{suffix}").read_text(encoding="utf-8")
        assert text == stored, f"{name}{suffix} differs from the replay"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_games_are_still_what_the_engine_plays(name: str) -> None:
    stored = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert golden_record(*GAMES[name]) == stored


def test_golden_summaries_are_complete_games() -> None:
    for name in GAMES:
        summary = json.loads((GOLDEN / f"{name}.summary.json").read_text(encoding="utf-8"))
        assert summary["complete"] is True
        assert summary["next"] is None
        totals = [sum(d["scores"][p] for d in summary["deals"]) for p in (0, 1)]
        assert summary["totals"] == totals


def test_sample_is_a_complete_legal_game() -> None:
    from cardtable.games.candidate import replay_record

    sample = Path(__file__).parents[2] / "samples" / "candidate-sample.json"
    summary = replay_record(read_record_file(sample)).summary()
    assert summary["complete"] is True
    assert len(summary["deals"]) == 1
