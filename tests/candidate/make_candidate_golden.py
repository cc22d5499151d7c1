"""Regenerate the golden Candidate replays in ``tests/candidate/golden/``.

Run from the project root after an intended change of the engine's output:

    .venv/bin/python tests/candidate/make_candidate_golden.py

then review ``git diff tests/candidate/golden`` before committing. Each game is dealt
from a seed and played by uniformly random legal moves from a seeded generator; for
each, ``NAME.json`` is the record, ``NAME.en.txt``/``NAME.uk.txt`` its transcripts and
``NAME.summary.json`` its replay summary.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardtable.games.candidate import GAME, replay_record
from cardtable.record import dump_record

GOLDEN = Path(__file__).with_name("golden")
#: name: (seed, decks, deals)
GAMES: dict[str, tuple[int, int, int]] = {
    "one-deck": (1, 1, 1),
    "two-decks-two-deals": (2, 2, 2),
    "three-decks": (3, 3, 1),
}


def golden_record(seed: int, decks: int, deals: int) -> dict[str, Any]:
    """A complete game played by seeded random legal moves."""
    state = GAME.new_initial_state(seed, {"decks": decks, "deals": deals})
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record(["Ann", "Bob"])


def outputs(record: dict[str, Any]) -> dict[str, str]:
    """The files of one golden game, by suffix."""
    replay = replay_record(record)
    return {
        ".json": dump_record(record),
        ".en.txt": replay.transcript("en"),
        ".uk.txt": replay.transcript("uk"),
        ".summary.json": dump_record(replay.summary()),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (seed, decks, deals) in GAMES.items():
        for suffix, text in outputs(golden_record(seed, decks, deals)).items():
            (GOLDEN / f"{name}{suffix}").write_text(text, encoding="utf-8")
            print(f"wrote {GOLDEN / (name + suffix)}")


if __name__ == "__main__":
    main()
