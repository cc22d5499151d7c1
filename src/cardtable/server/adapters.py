"""The two real games behind the server's adapter interface (:mod:`.games`).

:class:`CandidateKind` wraps ``cardtable.games.candidate`` (turn-based, two seats) and
:class:`SpyKind` wraps ``cardtable.games.spy`` (a race of 2-8 seats). Both hand views out
exactly as the engines build them (``state.view(seat).to_dict()``) and records exactly as
the engines write them.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from cardtable.cards import parse_card_kind
from cardtable.errors import BadOptions, CardtableError, IllegalMove
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
from cardtable.games.spy.actions import action_to_text as spy_text
from cardtable.games.spy.actions import player_of, text_to_action
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS, SpyOptions, check_player_count
from cardtable.games.spy.race import GreedyPolicy, Policy
from cardtable.games.spy.state import SpyState
from cardtable.games.spy.views import SeatWindow
from cardtable.server.bots import LEVELS, BotBook, RandomBot
from cardtable.server.games import ANYONE, Applied, GameKind, ranks_from_totals

log = logging.getLogger("cardtable.server")

_BOTH = frozenset({0, 1})


class CandidateSession:
    """A Candidate match (RULINGS.md C1-C17): one seat decides at a time."""

    def __init__(self, state: CandidateState, players: Sequence[str]) -> None:
        self.state = state
        self.players = list(players)

    @property
    def seats(self) -> int:
        """Always two (C1)."""
        return 2

    def to_move(self) -> int | None:
        """The seat to decide (deal, lobby, play or draw), ``None`` once over."""
        return None if self.state.is_terminal() else self.state.current_player

    def legal_moves(self, seat: int) -> list[str]:
        """The deciding seat's legal moves; nothing for the other seat."""
        if self.state.is_terminal() or seat != self.state.current_player:
            return []
        return self.state.legal_moves()

    def apply(self, seat: int, move: str) -> Applied:
        """Checked: the seat must be the one deciding, the move legal."""
        if self.state.is_terminal():
            raise IllegalMove("the match is over: no more moves", move)
        if seat != self.state.current_player:
            raise IllegalMove("it is not your turn", move)
        self.state.apply(move)
        return Applied(_BOTH)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view (a spectator sees no hand)."""
        return self.state.view(seat).to_dict()

    def is_terminal(self) -> bool:
        """Every deal played (C17)."""
        return self.state.is_terminal()

    def result(self) -> dict[str, Any]:
        """Totals, winners (highest total, C17) and ranks."""
        totals = list(self.state.totals())
        return {
            "totals": totals,
            "winners": list(self.state.winners()),
            "ranks": ranks_from_totals(totals, higher_is_better=True),
        }

    def record(self) -> dict[str, Any]:
        """The record as the engine writes it."""
        return self.state.to_record(self.players)


class CandidateKind:
    """Candidate («Кандидат»): two players, turn by turn."""

    name = "candidate"
    title = "Candidate («Кандидат»)"
    realtime = False
    min_seats = 2
    max_seats = 2

    def check_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """``decks`` (1-3) and ``deals`` (at least 1), defaults filled in."""
        try:
            return CandidateOptions.from_dict(options).to_dict()
        except BadOptions:
            raise
        except CardtableError as exc:
            raise BadOptions(str(exc)) from None

    def create(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> CandidateSession:
        """A match dealt from ``seed`` (the first dealer by lot, C2)."""
        state = CandidateState.new(seed, CandidateOptions.from_dict(options))
        return CandidateSession(state, players)


class SpySession:
    """A Spy vs Spy match (RULINGS.md S1-S17): every seat moves whenever it likes.

    A move may be given with or without its leading seat number (``place waste 4`` from
    seat 1 means ``1 place waste 4``); a seat number other than the mover's is refused.
    """

    def __init__(self, state: SpyState) -> None:
        self.state = state

    @property
    def seats(self) -> int:
        """The number of players."""
        return self.state.num_players

    def to_move(self) -> int | None:
        """:data:`ANYONE` while the match is on (S17: moves are ordered as they come)."""
        return None if self.state.is_terminal() else ANYONE

    def legal_moves(self, seat: int) -> list[str]:
        """``seat``'s legal moves, with the seat number, as the record writes them."""
        return [spy_text(a) for a in self.state.legal_actions(seat)]

    def apply(self, seat: int, move: str) -> Applied:
        """Checked; affects only the mover unless the move ends a round or the match."""
        text = move.strip()
        if text[:1].isalpha():
            text = f"{seat} {text}"
        action = text_to_action(text)
        if player_of(action) != seat:
            raise IllegalMove(f"you are player {seat}: a move must start with {seat}", move)
        state = self.state
        round_before = state.round_number
        state.apply(action)
        if state.round_number != round_before or state.is_terminal() or state.round_over:
            return Applied(frozenset(range(self.seats)))
        return Applied(frozenset({seat}))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view: every seat's public position (S4-S5)."""
        return self.state.view(seat).to_dict()

    def is_terminal(self) -> bool:
        """Every round played (S16)."""
        return self.state.is_terminal()

    def result(self) -> dict[str, Any]:
        """Totals, winners (lowest total, S16) and ranks."""
        totals = list(self.state.totals)
        return {
            "totals": totals,
            "winners": list(self.state.winners()),
            "ranks": ranks_from_totals(totals, higher_is_better=False),
        }

    def record(self) -> dict[str, Any]:
        """The record as the engine writes it."""
        return self.state.to_record()


class SpyKind:
    """Spy vs Spy («Шпигун проти шпигуна»): a race of 2-8 players."""

    name = "spy"
    title = "Spy vs Spy («Шпигун проти шпигуна»)"
    realtime = True
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS

    def check_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """``full_decks``, ``bonus``, ``count_points_pile``, ``rounds``; defaults filled in."""
        try:
            check_player_count(seats)
            return SpyOptions.from_dict(options).to_dict()
        except (CardtableError, ValueError) as exc:
            raise BadOptions(str(exc)) from None

    def create(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> SpySession:
        """A match whose rounds are dealt from ``seed``."""
        return SpySession(
            SpyState.deal(list(players), seed=seed, options=SpyOptions.from_dict(options))
        )


def default_games() -> dict[str, GameKind]:
    """The games this installation can host."""
    return {"candidate": CandidateKind(), "spy": SpyKind()}


class _ViewWindow:
    """A Spy policy's window (``SeatWindow``'s attributes) built from a seat's view.

    The server's bots see views, never positions; this gives the engine's policies the
    same public facts (S4-S5) from the view's JSON.
    """

    __slots__ = ("_seat",)

    def __init__(self, seat: Mapping[str, Any]) -> None:
        self._seat = seat

    @property
    def player(self) -> int:
        return int(self._seat["player"])

    @property
    def points_top(self) -> int | None:
        top = self._seat["points_top"]
        return None if top is None else parse_card_kind(top)

    @property
    def points_count(self) -> int:
        return int(self._seat["points_count"])

    @property
    def pile_tops(self) -> tuple[int, ...]:
        return tuple(parse_card_kind(p["top"]) for p in self._seat["piles"])

    @property
    def deck_count(self) -> int:
        return int(self._seat["deck_count"])

    @property
    def waste_top(self) -> int | None:
        top = self._seat["waste_top"]
        return None if top is None else parse_card_kind(top)

    @property
    def waste_count(self) -> int:
        return int(self._seat["waste_count"])

    @property
    def moves(self) -> int:
        return int(self._seat["moves"])

    @property
    def blocked(self) -> bool:
        return bool(self._seat["blocked"])


class SpyPolicyBot:
    """A server bot playing Spy with one of the engine's race policies (``race.Policy``)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._round = -1

    def choose(
        self, view: Mapping[str, Any], legal_moves: Sequence[str], rng: random.Random
    ) -> str:
        """The policy's choice among ``legal_moves``, from the bot's own seat in ``view``."""
        me = view["viewer"]
        seat = next(s for s in view["seats"] if s["player"] == me)
        window = cast(SeatWindow, _ViewWindow(seat))
        if view["round"] != self._round:
            self._round = view["round"]
            self.policy.start_round(window, rng)
        legal = sorted(text_to_action(m) for m in legal_moves)
        return spy_text(self.policy.choose(window, legal))


def default_bots() -> BotBook:
    """The bots available, by game and level.

    Spy: the engine's :class:`GreedyPolicy` at every level; the levels differ in speed
    (:data:`~cardtable.server.bots.DEFAULT_SPEEDS`). Candidate: uniformly random legal
    moves at every level until stronger bots exist.
    """
    book = BotBook()
    for level in LEVELS:
        book.register("spy", level, lambda: SpyPolicyBot(GreedyPolicy()))
        book.register("candidate", level, RandomBot)
    return book


__all__ = [
    "CandidateKind",
    "CandidateSession",
    "SpyKind",
    "SpyPolicyBot",
    "SpySession",
    "default_bots",
    "default_games",
]
