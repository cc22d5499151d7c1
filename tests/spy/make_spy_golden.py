"""Golden Spy vs Spy replays: records, summaries and transcripts, diffed by the tests.

Every case is made by the race runner (or cut from one of its records), so the files
pin dealing, the race clock, the policies, replay, the summary and both transcripts.
After an intended change, regenerate them and review the diff:

    .venv/bin/python tests/spy/make_spy_golden.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.race import (
    ExponentialTime,
    FixedTime,
    GreedyPolicy,
    LognormalTime,
    RandomPolicy,
    run_race,
)
from cardtable.games.spy.records import replay_record
from cardtable.record import dump_record

GOLDEN = Path(__file__).parent / "golden"


def greedy_match() -> dict[str, Any]:
    """Two greedy racers, two rounds."""
    return run_race(
        ["Ann", "Bob"], [GreedyPolicy(), GreedyPolicy()], seed=1, options=SpyOptions(rounds=2)
    ).state.to_record()


def both_blocked() -> dict[str, Any]:
    """Random racers who both end up blocked: a round with no winner (S12)."""
    return run_race(
        ["Ann", "Bob"],
        [RandomPolicy(), RandomPolicy()],
        seed=72,
        options=SpyOptions(rounds=1),
        move_limit=400,
    ).state.to_record()


def three_full_decks() -> dict[str, Any]:
    """Three players with random move times and counted points piles."""
    return run_race(
        ["Ann", "Bob", "Cy"],
        [GreedyPolicy(), RandomPolicy(), GreedyPolicy()],
        seed=2,
        options=SpyOptions(rounds=1, count_points_pile=True, bonus=10),
        times=[ExponentialTime(1.0), FixedTime(0.5), LognormalTime(1.5)],
        move_limit=200,
    ).state.to_record()


def unfinished() -> dict[str, Any]:
    """A match stopped in the middle of its second round."""
    record = greedy_match()
    record["rounds"][1]["moves"] = record["rounds"][1]["moves"][:5]
    return record


def all_resign() -> dict[str, Any]:
    """Everyone resigns: no winner, nobody blocked (S13)."""
    state = SpyState.deal(["Ann", "Bob", "Cy", "Di"], seed=9, options=SpyOptions(rounds=1))
    for move in ("2 turn", "0 resign", "3 turn", "1 resign", "2 resign", "3 resign"):
        state.apply(move)
    return state.to_record()


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "greedy-match": greedy_match,
    "both-blocked": both_blocked,
    "three-full-decks": three_full_decks,
    "unfinished": unfinished,
    "all-resign": all_resign,
}


def outputs(record: dict[str, Any]) -> dict[str, str]:
    """The files of one case: suffix -> text."""
    replayed = replay_record(record)
    return {
        ".json": dump_record(record),
        ".summary.json": json.dumps(replayed.summary(), ensure_ascii=False, indent=1) + "\n",
        ".en.txt": replayed.transcript("en"),
        ".uk.txt": replayed.transcript("uk"),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, make in CASES.items():
        for suffix, text in outputs(make()).items():
            (GOLDEN / f"{name}{suffix}").write_text(text, encoding="utf-8")
            print(f"wrote {GOLDEN / (name + suffix)}")


if __name__ == "__main__":
    main()
