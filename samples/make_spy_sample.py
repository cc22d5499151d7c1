"""Regenerate ``samples/spy-sample.json``: one complete Spy vs Spy race (one round)
between two greedy racers, made by the race runner (S17).

    .venv/bin/python samples/make_spy_sample.py
"""

from __future__ import annotations

from pathlib import Path

from cardtable.games.spy import SpyOptions
from cardtable.games.spy.race import GreedyPolicy, run_race
from cardtable.record import dump_record

SAMPLE = Path(__file__).parent / "spy-sample.json"
SEED = 2026


def make_sample() -> str:
    """The sample record's text."""
    result = run_race(
        ["Ann", "Bob"], [GreedyPolicy(), GreedyPolicy()], seed=SEED, options=SpyOptions(rounds=1)
    )
    return dump_record(result.state.to_record())


if __name__ == "__main__":
    SAMPLE.write_text(make_sample(), encoding="utf-8")
    print(f"wrote {SAMPLE}")
