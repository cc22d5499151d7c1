"""Golden replays: stored records, summaries and transcripts must not drift.

Regenerate after an intended change with ``.venv/bin/python tests/spy/make_spy_golden.py``
and review the diff.
"""

from __future__ import annotations

import json

import pytest
from make_spy_golden import CASES, GOLDEN, outputs

from cardtable.record import load_record


@pytest.mark.parametrize("name", sorted(CASES))
def test_stored_record_replays_to_the_stored_summary_and_transcripts(name: str) -> None:
    record = load_record((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    for suffix, text in outputs(record).items():
        stored = (GOLDEN / f"{name}{suffix}").read_text(encoding="utf-8")
        assert text == stored, f"{name}{suffix} differs: regenerate and review the diff"


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_race_runner_still_makes_the_stored_record(name: str) -> None:
    stored = load_record((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert CASES[name]() == stored


def test_golden_cases_cover_every_ending() -> None:
    summaries = {
        name: json.loads((GOLDEN / f"{name}.summary.json").read_text(encoding="utf-8"))
        for name in CASES
    }
    assert summaries["greedy-match"]["complete"] is True
    assert summaries["unfinished"]["complete"] is False
    assert summaries["both-blocked"]["rounds"][0]["blocked"] == [True, True]
    assert summaries["all-resign"]["rounds"][0]["finisher"] is None
    assert summaries["three-full-decks"]["rounds"][0]["finisher"] is not None
