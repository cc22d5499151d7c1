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


def test_sample_race_is_current_and_complete() -> None:
    """samples/spy-sample.json is what samples/make_spy_sample.py makes, and complete."""
    import importlib.util
    from pathlib import Path

    from cardtable.games.spy.records import replay_record

    root = Path(__file__).resolve().parents[2] / "samples"
    spec = importlib.util.spec_from_file_location("make_spy_sample", root / "make_spy_sample.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stored = (root / "spy-sample.json").read_text(encoding="utf-8")
    assert module.make_sample() == stored
    summary = replay_record(load_record(stored)).summary()
    assert summary["complete"] is True
    assert summary["winners"] == [summary["rounds"][0]["finisher"]]
