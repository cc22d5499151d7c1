"""Find a Spy vs Spy seed whose round shows every idea of the tutorial, quickly.

The tutorial (src/cardtable/server/tutorial.py) follows one real round of the engine.
This script plays seat 0 of each seed with a simple rule — the points card where it
fits, a fifth pile with it, the waste card where it fits, else turn — until the points
pile is empty, and prints the shortest rounds that put a points card on a pile first,
open a pile, play from the waste and turn an empty racing deck (S6-S10). The chosen
seed and its moves are copied into the lesson definitions by hand.

    PYTHONPATH=src python scripts/tutorial_seeds.py [--seeds N] [--show K]
"""

from __future__ import annotations

import argparse

from cardtable.games.registry import find_game

PREFERENCE = ("place points", "open points", "place waste", "turn")


def round_path(seed: int, limit: int = 80) -> list[tuple[str, int]] | None:
    """Seat 0's moves up to its call, each with the racing deck's size before it."""
    match = find_game("spy").new_match(seed=seed, players=["You", "Opponent"], options={})
    path: list[tuple[str, int]] = []
    while len(path) < limit:
        legal = [m.split(" ", 1)[1] for m in match.legal_moves(0)]
        seat = match.view(0)["seats"][0]
        if "call" in legal:
            return [*path, ("call", seat["deck_count"])]
        allowed = (
            PREFERENCE
            if len(seat["piles"]) < 5
            else tuple(p for p in PREFERENCE if p != "open points")
        )
        move = next((m for p in allowed for m in legal if m.startswith(p)), None)
        if move is None:
            return None
        path.append((move, seat["deck_count"]))
        match.apply(0, move)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3000)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    found = []
    for seed in range(1, args.seeds):
        path = round_path(seed)
        if not path or not path[0][0].startswith("place points"):
            continue
        moves = [m for m, _ in path]
        if (
            any(m == "turn" and deck == 0 for m, deck in path)
            and any(m.startswith("place waste") for m in moves)
            and "open points" in moves
        ):
            found.append((len(path), seed, moves))
    for length, seed, moves in sorted(found)[: args.show]:
        print(length, seed, moves)


if __name__ == "__main__":
    main()
