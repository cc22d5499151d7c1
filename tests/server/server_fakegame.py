"""A tiny game for the server's tests: hidden hands, turns or a race, a record.

Each seat is dealt ``hand`` cards from a seeded deck, hidden from the others. Turn-based
(``realtime`` false): seats play one card each in turn (``play QS``), seat 0 first.
Real-time: anyone plays any of their cards at any time (``1 play QS``). The match ends
when every hand is empty; a seat scores the sum of its cards' ranks (higher is better).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.errors import BadOptions, CardParseError, IllegalMove
from cardtable.server.games import ANYONE, Applied, ranks_from_totals


class FakeSession:
    def __init__(self, seed: int, players: Sequence[str], options: Mapping[str, Any]) -> None:
        self.players = list(players)
        self.options = dict(options)
        self.realtime = bool(options.get("realtime", False))
        size = int(options.get("hand", 3))
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        self.deal = [deck[i * size : (i + 1) * size] for i in range(len(players))]
        self.hands = [list(h) for h in self.deal]
        self.played: list[list[int]] = [[] for _ in players]
        self.moves: list[str] = []
        self.turn = 0

    @property
    def seats(self) -> int:
        return len(self.players)

    def to_move(self) -> int | None:
        if self.is_terminal():
            return None
        return ANYONE if self.realtime else self.turn

    def legal_moves(self, seat: int) -> list[str]:
        if self.is_terminal() or (not self.realtime and seat != self.turn):
            return []
        prefix = f"{seat} " if self.realtime else ""
        return [f"{prefix}play {KIND_TEXT[k]}" for k in self.hands[seat]]

    def apply(self, seat: int, move: str) -> Applied:
        words = move.split()
        if self.realtime:
            if not words or words[0] != str(seat):
                raise IllegalMove("a move must start with your seat number", move)
            words = words[1:]
        if len(words) != 2 or words[0] != "play":
            raise IllegalMove("expected 'play CARD'", move)
        try:
            kind = parse_card_kind(words[1])
        except CardParseError as exc:
            raise IllegalMove(str(exc), move) from None
        if self.is_terminal():
            raise IllegalMove("the game is over", move)
        if not self.realtime and seat != self.turn:
            raise IllegalMove("not your turn", move)
        if kind not in self.hands[seat]:
            raise IllegalMove(f"{KIND_TEXT[kind]} is not in your hand", move)
        self.hands[seat].remove(kind)
        self.played[seat].append(kind)
        self.moves.append(move)
        if not self.realtime:
            for step in range(1, self.seats + 1):
                nxt = (self.turn + step) % self.seats
                if self.hands[nxt]:
                    self.turn = nxt
                    break
            return Applied(frozenset(range(self.seats)))
        return Applied(frozenset({seat}))

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "viewer": seat,
            "hand": None if seat is None else [KIND_TEXT[k] for k in self.hands[seat]],
            "counts": [len(h) for h in self.hands],
            "played": [[KIND_TEXT[k] for k in p] for p in self.played],
            "totals": self.totals(),
        }

    def totals(self) -> list[int]:
        return [sum(k % 13 + 2 for k in p) for p in self.played]

    def is_terminal(self) -> bool:
        return not any(self.hands)

    def result(self) -> dict[str, Any]:
        totals = self.totals()
        best = max(totals)
        return {
            "totals": totals,
            "winners": [i for i, t in enumerate(totals) if t == best],
            "ranks": ranks_from_totals(totals, higher_is_better=True),
        }

    def record(self) -> dict[str, Any]:
        return {
            "game": "fake",
            "options": self.options,
            "players": self.players,
            "deal": [[KIND_TEXT[k] for k in h] for h in self.deal],
            "moves": list(self.moves),
        }

    def hidden_from(self, seat: int | None) -> set[str]:
        """Card texts seat may not see now: the others' hands."""
        return {KIND_TEXT[k] for i, h in enumerate(self.hands) if i != seat for k in h}


class FakeKind:
    def __init__(self, name: str = "fake", realtime: bool = False) -> None:
        self.name = name
        self.title = f"Fake ({'race' if realtime else 'turns'})"
        self.realtime = realtime
        self.min_seats = 2
        self.max_seats = 4

    def check_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        unknown = set(options) - {"hand", "realtime"}
        if unknown:
            raise BadOptions(f"unknown option {sorted(unknown)[0]!r}")
        hand = options.get("hand", 3)
        if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= 6:
            raise BadOptions("options.hand: expected an integer from 1 to 6")
        return {"hand": hand, "realtime": self.realtime}

    def create(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> FakeSession:
        return FakeSession(seed, players, options)


def fake_games() -> dict[str, FakeKind]:
    return {"fake": FakeKind("fake", False), "fakerace": FakeKind("fakerace", True)}
