"""A tiny game for the server's tests, behind the same seam as the real ones.

:class:`FakeGame` is a :class:`~cardtable.games.base.Game` and :class:`FakeMatch` a
:class:`~cardtable.games.base.Match`: the server, the table and the bots reach it
exactly as they reach Candidate and Spy, so a test on it shows what any game gets.

Each seat is dealt ``hand`` cards from a seeded deck, hidden from the others.
Turn-based (``fake``): seats play one card each in turn (``play QS``), seat 0 first.
Real-time (``fakerace``): anyone plays any of their cards at any time (``1 play QS``).
The match ends when every hand is empty; a seat scores the sum of its cards' ranks
(higher is better). An action id is ``seat * 52 + card kind``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.errors import BadOptions, CardParseError, IllegalMove
from cardtable.games.base import ANYONE, Applied, GameInfo, MatchEvent, Result, SegmentResult

MAX_SEATS = 4


@dataclass(frozen=True)
class FakeInfo:
    """What a seat's bot may know: its legal actions and its own hand."""

    seat: int
    legal_actions: tuple[int, ...]
    hand: tuple[int, ...]


class FakeMatch:
    def __init__(
        self, info: GameInfo, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> None:
        self.info = info
        self.players = tuple(players)
        self.options = dict(options)
        self.realtime = info.realtime
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

    def legal_actions(self, seat: int) -> list[int]:
        if self.is_terminal() or (not self.realtime and seat != self.turn):
            return []
        return sorted(seat * 52 + k for k in self.hands[seat])

    def legal_moves(self, seat: int) -> list[str]:
        return [self.text(a) for a in self.legal_actions(seat)]

    def text(self, action: int) -> str:
        seat, kind = divmod(action, 52)
        prefix = f"{seat} " if self.realtime else ""
        return f"{prefix}play {KIND_TEXT[kind]}"

    def apply(self, seat: int, move: int | str) -> Applied:
        kind = self._kind(seat, move)
        if self.is_terminal():
            raise IllegalMove("the game is over", self.text(seat * 52 + kind))
        if not self.realtime and seat != self.turn:
            raise IllegalMove("not your turn", self.text(seat * 52 + kind))
        if kind not in self.hands[seat]:
            raise IllegalMove(f"{KIND_TEXT[kind]} is not in your hand", self.text(seat * 52 + kind))
        self.hands[seat].remove(kind)
        self.played[seat].append(kind)
        text = self.text(seat * 52 + kind)
        self.moves.append(text)
        event = MatchEvent({"type": "play", "seat": seat, "card": KIND_TEXT[kind]})
        if not self.realtime:
            for step in range(1, self.seats + 1):
                nxt = (self.turn + step) % self.seats
                if self.hands[nxt]:
                    self.turn = nxt
                    break
            affected = frozenset(range(self.seats))
        else:
            affected = frozenset({seat})
        return Applied(
            seat=seat,
            action=seat * 52 + kind,
            text=text,
            events=(event,),
            affected=affected,
            segment_ended=self.is_terminal(),
        )

    def _kind(self, seat: int, move: int | str) -> int:
        if isinstance(move, int):
            if move // 52 != seat:
                raise IllegalMove("a move must be your own")
            return move % 52
        words = move.split()
        if self.realtime:
            if not words or words[0] != str(seat):
                raise IllegalMove("a move must start with your seat number", move)
            words = words[1:]
        if len(words) != 2 or words[0] != "play":
            raise IllegalMove("expected 'play CARD'", move)
        try:
            return parse_card_kind(words[1])
        except CardParseError as exc:
            raise IllegalMove(str(exc), move) from None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "viewer": seat,
            "hand": None if seat is None else [KIND_TEXT[k] for k in self.hands[seat]],
            "counts": [len(h) for h in self.hands],
            "played": [[KIND_TEXT[k] for k in p] for p in self.played],
            "totals": self.totals(),
        }

    def bot_info(self, seat: int) -> FakeInfo:
        return FakeInfo(seat, tuple(self.legal_actions(seat)), tuple(self.hands[seat]))

    def segment(self) -> int:
        return 1

    def totals(self) -> list[int]:
        return [sum(k % 13 + 2 for k in p) for p in self.played]

    def is_terminal(self) -> bool:
        return not any(self.hands)

    def segment_results(self) -> tuple[SegmentResult, ...]:
        return ()  # one segment: it ends with the match

    def result(self) -> Result:
        return Result.of(self.totals(), higher_is_better=True)

    def record(self) -> dict[str, Any]:
        return {
            "game": self.info.name,
            "options": self.options,
            "players": list(self.players),
            "deal": [[KIND_TEXT[k] for k in h] for h in self.deal],
            "moves": list(self.moves),
        }

    def hidden_from(self, seat: int | None) -> set[str]:
        """Card texts seat may not see now: the others' hands."""
        return {KIND_TEXT[k] for i, h in enumerate(self.hands) if i != seat for k in h}


class FakeReplay:
    """A fake record replayed: the totals of its moves."""

    def __init__(self, game: FakeGame, record: Mapping[str, Any]) -> None:
        self.match = game.new_match(seed=0, players=record["players"], options=record["options"])
        self.match.deal = [[parse_card_kind(c) for c in h] for h in record["deal"]]
        self.match.hands = [list(h) for h in self.match.deal]
        for text in record["moves"]:
            seat = self.match.turn if not self.match.realtime else int(text.split()[0])
            self.match.apply(seat, text)

    def summary(self) -> dict[str, Any]:
        result = self.match.result()
        return {
            "game": self.match.info.name,
            "complete": self.match.is_terminal(),
            "totals": list(result.totals),
            "winners": list(result.winners),
        }

    def transcript(self, lang: str = "en") -> str:
        return "\n".join(self.match.moves)


class FakeGame:
    def __init__(self, name: str = "fake", realtime: bool = False) -> None:
        self.name = name
        self.title = f"Fake ({'race' if realtime else 'turns'})"
        self.info = GameInfo(
            name=name,
            titles={"en": self.title},
            min_players=2,
            max_players=MAX_SEATS,
            realtime=realtime,
            num_distinct_actions=52 * MAX_SEATS,
            higher_is_better=True,
            segment="hand",
        )

    def check_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        unknown = set(options) - {"hand", "realtime"}
        if unknown:
            raise BadOptions(f"unknown option {sorted(unknown)[0]!r}")
        hand = options.get("hand", 3)
        if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= 6:
            raise BadOptions("options.hand: expected an integer from 1 to 6")
        return {"hand": hand, "realtime": self.info.realtime}

    def new_match(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> FakeMatch:
        return FakeMatch(self.info, seed, players, options)

    def utility_bounds(self, options: Mapping[str, Any]) -> tuple[float, float]:
        return (0.0, 14.0 * int(options.get("hand", 3)))

    def max_game_length(self, options: Mapping[str, Any]) -> int | None:
        return MAX_SEATS * int(options.get("hand", 3))

    def new_record(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        return self.new_match(seed=seed, players=players, options=options).record()

    def replay(self, record: Mapping[str, Any]) -> FakeReplay:
        return FakeReplay(self, record)

    def display_summary(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return self.replay(record).summary()


@dataclass(frozen=True)
class FakeBot:
    """The fake game's bot: a seeded random legal action (every level plays alike)."""

    seed: int

    def think(self, info: FakeInfo) -> int:
        return random.Random(self.seed).choice(info.legal_actions)


def fake_bots(game: str, level: str, seed: int, seat: int) -> FakeBot:
    """The server's bot maker for the fake games."""
    return FakeBot(seed)


def fake_games() -> dict[str, FakeGame]:
    return {"fake": FakeGame("fake", False), "fakerace": FakeGame("fakerace", True)}


def state_hash(match: Any) -> str:
    """A digest of everything every seat and a spectator can see of ``match``.

    Two matches with equal hashes look the same to every client; the crash-recovery
    tests compare it before a kill and after the restart. It is never sent to clients
    (a hash of hidden state could be searched for the hidden cards).
    """
    views = [match.view(seat) for seat in range(match.seats)]
    views.append(match.view(None))
    text = json.dumps(views, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
