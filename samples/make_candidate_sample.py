"""Make ``samples/candidate-sample.json``: one complete Candidate game (one deal).

Run from the project root: ``python samples/make_candidate_sample.py``. The game is
dealt from seed 2024 and played through the engine by the *greedy* policy below, the
same for both players:

* ``deal``: deal the hands from the first pile (S);
* ``lobby`` and ``draw``: take from the pile with the most cards left (the first such
  pile on a tie), keeping the piles even;
* ``play``: play the longest legal play (the lowest action id on a tie); pass only when
  no card can be played.

Every move goes through the checked ``apply``, so the sample is a legal game by
construction; ``cardtable replay samples/candidate-sample.json`` replays and checks it.
"""

from __future__ import annotations

from pathlib import Path

from cardtable.games.candidate import GAME, CandidateState
from cardtable.games.candidate.actions import PASS, PLAY_BASE, play_cards
from cardtable.record import dump_record

SEED = 2024
PLAYERS = ("Ann", "Bob")
OUT = Path(__file__).with_name("candidate-sample.json")


def greedy_action(state: CandidateState) -> int:
    """The greedy policy's move (see the module docstring)."""
    legal = state.legal_actions()
    decision = state.decision
    if decision in ("lobby", "draw"):
        return max(legal, key=lambda a: (len(state.pile(a % 4)), -a))
    if decision == "play":
        plays = [a for a in legal if a >= PLAY_BASE]
        if not plays:
            return PASS
        return max(plays, key=lambda a: (len(play_cards(a)), -a))
    return legal[0]


def play_sample(seed: int = SEED) -> dict[str, object]:
    """The sample game's record."""
    state = GAME.new_initial_state(seed, {"deals": 1})
    while not state.is_terminal():
        state.apply(greedy_action(state))
    return state.to_record(PLAYERS)


def main() -> None:
    OUT.write_text(dump_record(play_sample()), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
