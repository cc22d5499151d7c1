"""Find the seeds whose positions show every idea of the tutorial, quickly.

The tutorial (src/cardtable/server/tutorial.py) follows one real deal or round of the
engine per game; the chosen seed and its moves are copied into the lesson definitions
by hand.

- Spy vs Spy: seat 0 of each seed plays by a simple rule — the points card where it
  fits, a fifth pile with it, the waste card where it fits, else turn — until the points
  pile is empty; the shortest rounds that put a points card on a pile first, open a
  pile, play from the waste and turn an empty racing deck (S6-S10) are printed.
- Candidate: seeds where seat 0 deals (C2), and after a pile is dealt and its top card
  turned for the lobby (C4, C5) and the opponent passes, seat 0 can play a run of three
  onto it (C7) — and has a card that cannot be played, for the refusal.

    PYTHONPATH=src python scripts/tutorial_seeds.py [--game spy|candidate] [--seeds N] [--show K]
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


def candidate_runs(seed: int) -> list[str]:
    """For a Candidate seed: "deal X, lobby Y: play …" for each run of three seat 0 can
    play after the opponent's pass, with a card in hand that fits nowhere."""
    game = find_game("candidate")
    if game.new_match(seed=seed, players=["You", "Opponent"], options={}).to_move() != 0:
        return []
    found = []
    for suit in "SHDC":
        for lobby in "SHDC":
            match = game.new_match(seed=seed, players=["You", "Opponent"], options={})
            match.apply(0, f"deal {suit}")
            if f"lobby {lobby}" not in match.legal_moves(0):
                continue
            match.apply(0, f"lobby {lobby}")
            match.apply(1, "pass")
            plays = [m for m in match.legal_moves(0) if m.startswith("play ")]
            playable = {card for m in plays for card in m.split()[1:]}
            stuck = [c for c in match.view(0)["hand"] if c not in playable]
            found += [
                f"deal {suit}, lobby {lobby}: {m} (cannot play {stuck[0]})"
                for m in plays
                if len(m.split()) == 4 and stuck
            ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["spy", "candidate"], default="spy")
    parser.add_argument("--seeds", type=int, default=3000)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    if args.game == "candidate":
        lines = (f"{seed} {line}" for seed in range(1, args.seeds) for line in candidate_runs(seed))
        for _, line in zip(range(args.show), lines, strict=False):
            print(line)
        return
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
