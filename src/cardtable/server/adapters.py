"""The two real games behind the server's adapter interface (:mod:`.games`).

:class:`CandidateKind` wraps ``cardtable.games.candidate`` (turn-based, two seats) and
:class:`SpyKind` wraps ``cardtable.games.spy`` (a race of 2-8 seats). Both hand views out
exactly as the engines build them (``state.view(seat).to_dict()``) and records exactly as
the engines write them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import fields
from functools import lru_cache, partial
from typing import Any, cast

from cardtable.bots.registry import LEVELS as BOT_LEVELS
from cardtable.bots.registry import SPY_SPEEDS, BotSpec, make_bot
from cardtable.errors import BadOptions, CardtableError, IllegalMove
from cardtable.games.candidate.actions import action_to_text as candidate_text
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
from cardtable.games.candidate.views import CandidateView
from cardtable.games.spy.actions import action_to_text as spy_text
from cardtable.games.spy.actions import local_action, player_of, text_to_action
from cardtable.games.spy.info import SpyInfo, SpyTracker
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS, SpyOptions, check_player_count
from cardtable.games.spy.state import SpyState
from cardtable.games.spy.views import SeatWindow
from cardtable.server.bots import LEVELS, BotBook, Thinking
from cardtable.server.games import ANYONE, Applied, GameKind, GameSession, ranks_from_totals

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
        """The engine's view (a spectator sees no hand), as JSON-ready data.

        Its JSON equals that of ``CandidateView.to_dict()`` (a test proves it); the
        fields are taken as they are (tuples write as JSON lists) instead of through
        ``dataclasses.asdict``'s deep copies: a view is made for every recipient of
        every move, and ``asdict`` was most of the server's time per move.
        """
        view = self.state.view(seat)
        return {name: getattr(view, name) for name in _VIEW_FIELDS}

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


_VIEW_FIELDS = tuple(f.name for f in fields(CandidateView))


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


@lru_cache(maxsize=64)
def _engine_bot(game: str, name: str, iterations: int | None, seed: int) -> Any:
    """The registry's bot, made once per worker (bots are deterministic and stateless:
    the same seed and information set give the same move)."""
    return make_bot(BotSpec(game, name, iterations), seed)


def think_candidate(name: str, iterations: int | None, seed: int, info: CandidateInfo) -> str:
    """A Candidate bot's thinking (runs on the bot executor)."""
    return candidate_text(_engine_bot("candidate", name, iterations, seed).choose(info))


def think_spy(name: str, iterations: int | None, seed: int, info: SpyInfo) -> str:
    """A Spy bot's thinking (runs on the bot executor)."""
    return spy_text(_engine_bot("spy", name, iterations, seed).choose(info))


class CandidateEngineBot:
    """A seat played by one of the engine's Candidate bots (``cardtable.bots``).

    It is given the seat's information set (``CandidateInfo``: the view, the legal moves
    and, for determinisation only, a private copy of the state), never the live state.
    """

    def __init__(self, spec: BotSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed

    def prepare(self, session: GameSession, seat: int, seed: int) -> Thinking:
        """The information set of ``seat`` now, and the bot's thinking on it."""
        state = cast(CandidateSession, session).state.clone()
        info = CandidateInfo.of(state, seat)
        return partial(think_candidate, self.spec.name, self.spec.iterations, self.seed, info)

    def moved(self, session: GameSession, seat: int, move: str) -> None:
        """Nothing to remember: the information set carries the history."""


class SpyEngineBot:
    """A seat played by one of the engine's Spy bots (``cardtable.bots``).

    A :class:`SpyTracker` follows the seat's own moves through the public
    ``SeatWindow`` (the cards it turned are remembered, S9) and builds the bot's
    information set; the bot thinks on that frozen ``SpyInfo`` only.
    """

    def __init__(self, spec: BotSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self._tracker: SpyTracker | None = None
        self._round = -1

    def _follow(self, state: SpyState, seat: int) -> SpyTracker:
        if self._tracker is None or state.round_number != self._round:
            self._tracker = SpyTracker(SeatWindow(state.position(seat)))
            self._round = state.round_number
        return self._tracker

    def prepare(self, session: GameSession, seat: int, seed: int) -> Thinking:
        """The seat's information set now, and the bot's thinking on it."""
        state = cast(SpySession, session).state
        info = self._follow(state, seat).info(state.legal_actions(seat))
        return partial(think_spy, self.spec.name, self.spec.iterations, self.seed, info)

    def moved(self, session: GameSession, seat: int, move: str) -> None:
        """Remember what the move showed (a round that ended starts a new tracker)."""
        state = cast(SpySession, session).state
        if self._tracker is not None and state.round_number == self._round:
            self._tracker.moved(local_action(text_to_action(_with_seat(move, seat))))


def _with_seat(move: str, seat: int) -> str:
    text = move.strip()
    return f"{seat} {text}" if text[:1].isalpha() else text


def default_bots() -> BotBook:
    """The engine's bots at the levels ``cardtable.bots.registry.LEVELS`` offers people.

    Candidate: easy greedy, medium ISMCTS (200 iterations), hard ISMCTS (2000).
    Spy: easy greedy, medium and hard the planner (4 and 16 sampled orders), racing at
    the registry's ``slow``, ``steady`` and ``quick`` speeds (0.7, 1.2 and 2 moves/s).
    """
    book = BotBook()
    for level in LEVELS:
        candidate = BOT_LEVELS["candidate"][level]
        spy = BOT_LEVELS["spy"][level]
        book.register("candidate", level, partial(CandidateEngineBot, candidate))
        book.register("spy", level, partial(SpyEngineBot, spy))
    book.speeds.update(
        {"easy": SPY_SPEEDS["slow"], "medium": SPY_SPEEDS["steady"], "hard": SPY_SPEEDS["quick"]}
    )
    return book


__all__ = [
    "CandidateEngineBot",
    "CandidateKind",
    "CandidateSession",
    "SpyEngineBot",
    "SpyKind",
    "SpySession",
    "default_bots",
    "default_games",
]
