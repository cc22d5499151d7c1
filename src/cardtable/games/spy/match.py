"""Spy vs Spy as a :class:`~cardtable.games.base.Match`: every seat moves whenever it likes.

Every face plays Spy through :class:`SpyMatch`: :data:`~cardtable.games.base.ANYONE` may
move while the match is on (S17 in ``docs/rules/spy.en.md``: moves are ordered as they
come), a seat's legal moves, the checked move (given with or without its seat number:
``place waste 4`` from seat 1 means ``1 place waste 4``), public events, views, the
information set a bot is given and the result ranked by the lowest total (S16).

A bot may take a seat at any moment: :meth:`SpyMatch.bot_info` follows the seat's own
moves of the round in play from its deal (a :class:`~cardtable.games.spy.info.SpyTracker`
fed only public facts), whoever made them.

>>> match = SpyMatch.new(seed=4, players=["Ann", "Bob"], options={"rounds": 1})
>>> applied = match.apply(1, "turn")
>>> applied.text, sorted(applied.affected)
('1 turn', [1])
>>> len(match.bot_info(1).waste), match.bot_info(0).waste
(1, ())
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardtable.games.base import (
    ANYONE,
    Applied,
    GameInfo,
    MatchEvent,
    Result,
    SegmentResult,
    running_totals,
)
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    NUM_ACTIONS,
    action_to_text,
    text_to_action,
)
from cardtable.games.spy.info import SpyInfo, SpyTracker
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS, SpyOptions
from cardtable.games.spy.position import NO_LIMIT, Position
from cardtable.games.spy.state import SpyState
from cardtable.games.spy.views import SeatWindow
from cardtable.glossary import GLOSSARY
from cardtable.messages import make_refusal

__all__ = ["INFO", "SpyMatch"]

#: Spy's declared facts (S1: 2-8 players; S16: the lowest total wins).
INFO: Final = GameInfo(
    name="spy",
    titles=GLOSSARY["game_title.spy"],
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    realtime=True,
    num_distinct_actions=NUM_ACTIONS,
    higher_is_better=False,
    segment="round",
)


class _Follower:
    """One seat's memory of the round in play, rebuilt from the round's log: a shadow
    position replaying the seat's own moves and a tracker reading it publicly."""

    __slots__ = ("position", "round", "seen", "tracker")

    def __init__(self, round_number: int, position: Position) -> None:
        self.round = round_number
        self.position = position
        self.tracker = SpyTracker(SeatWindow(position))
        #: How many of the round's moves (all seats) have been read.
        self.seen = 0


class SpyMatch:
    """A Spy match (see the module docstring)."""

    __slots__ = ("_followers", "state")

    info: Final = INFO

    def __init__(self, state: SpyState) -> None:
        self.state = state
        self._followers: dict[int, _Follower] = {}

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        players: Sequence[str],
        options: SpyOptions | Mapping[str, Any] | None = None,
        move_limit: int | None = None,
    ) -> SpyMatch:
        """A match whose rounds are dealt from ``seed``."""
        if not isinstance(options, SpyOptions):
            options = SpyOptions.from_dict(options or {})
        return cls(SpyState.deal(list(players), seed=seed, options=options, move_limit=move_limit))

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self.state.names

    @property
    def seats(self) -> int:
        """The number of players."""
        return self.state.num_players

    def to_move(self) -> int | None:
        """:data:`ANYONE` while the match is on (S17), ``None`` once over."""
        return None if self.state.is_terminal() else ANYONE

    def legal_actions(self, seat: int) -> list[int]:
        """``seat``'s legal action ids (empty once the seat is out of the round)."""
        return self.state.legal_actions(seat)

    def legal_moves(self, seat: int) -> list[str]:
        """``seat``'s legal moves, with the seat number, as the record writes them."""
        return [action_to_text(a) for a in self.state.legal_actions(seat)]

    def parse_move(self, seat: int, move: int | str) -> int:
        """The action id of ``seat``'s move, given as an id or a text with or without
        its seat number; a move of another seat is refused."""
        if isinstance(move, str):
            text = move.strip()
            if text[:1].isalpha():
                text = f"{seat} {text}"
            action = text_to_action(text)
            shown: str | None = move
        else:
            action = move
            shown = None
        if isinstance(action, int) and action // ACTIONS_PER_PLAYER != seat:
            raise make_refusal("spy.not_your_seat", seat=seat).illegal(shown)
        return action

    def apply(self, seat: int, move: int | str) -> Applied:
        """Checked; affects only the mover unless the move ends a round or the match."""
        action = self.parse_move(seat, move)
        state = self.state
        round_before = state.round_number
        events = state.apply(action)
        ended = state.round_number != round_before or state.round_over
        return Applied(
            seat=seat,
            action=action,
            text=action_to_text(action),
            events=tuple(map(MatchEvent, events)),
            affected=frozenset(range(self.seats)) if ended else frozenset({seat}),
            segment_ended=ended,
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view: every seat's public position (S4-S5)."""
        return self.state.view(seat).to_dict()

    def bot_info(self, seat: int) -> SpyInfo:
        """What ``seat`` knows now: its public position and the cards it turned (S9).

        The seat's moves of the round in play are replayed from its deal on a shadow
        position, so the information is right whoever played the seat until now; each
        call reads only the moves made since the last one. Raises :class:`ValueError`
        for a seat that is not at the table or before the first deal.
        """
        state = self.state
        if not 0 <= seat < self.seats:
            raise ValueError(f"there is no player {seat}")
        follower = self._followers.get(seat)
        if follower is None or follower.round != state.round_number:
            cards = state.round_cards()
            if not cards:
                raise ValueError("no round has been dealt yet: there is nothing to know")
            limit = state.move_limit if state.move_limit is not None else NO_LIMIT
            follower = _Follower(state.round_number, Position.deal(seat, cards[seat], limit))
            self._followers[seat] = follower
        # The cost of following a seat does not grow with the length of the match.
        moves = state.moves_since(follower.seen)
        base = seat * ACTIONS_PER_PLAYER
        shadow = follower.position
        tracker = follower.tracker
        for action in moves:
            if base <= action < base + ACTIONS_PER_PLAYER:
                local = action - base
                shadow.play(local)
                tracker.moved(local)
        follower.seen += len(moves)
        return tracker.info(state.legal_actions(seat))

    def segment(self) -> int:
        """The round in play (or the last one), from 1."""
        return self.state.round_number

    def is_terminal(self) -> bool:
        """Every round played (S16)."""
        return self.state.is_terminal()

    def segment_results(self) -> tuple[SegmentResult, ...]:
        """How each finished round ended: ``called`` by its first caller (S10),
        ``blocked`` when nobody still in could move (S12) or ``resigned`` when everyone
        left it (S13); its scores (S14-S15) and the totals after it."""
        results = self.state.results
        totals = running_totals([r.scores for r in results])
        return tuple(
            SegmentResult(
                number=r.number,
                scores=r.scores,
                totals=after,
                ending=_ending(r.finisher, r.resigned),
                ended_by=r.finisher,
            )
            for r, after in zip(results, totals, strict=True)
        )

    def result(self) -> Result:
        """Totals, winners (the lowest total, S16) and ranks."""
        return Result.of(self.state.totals, higher_is_better=False)

    def record(self) -> dict[str, Any]:
        """The record as the engine writes it."""
        return self.state.to_record()

    def clone(self) -> SpyMatch:
        """An independent copy (bot memories are rebuilt on demand)."""
        return SpyMatch(self.state.clone())

    def __repr__(self) -> str:
        return f"<SpyMatch state={self.state!r}>"


def _ending(finisher: int | None, resigned: Sequence[bool]) -> str:
    """How a round ended (S10, S12, S13)."""
    if finisher is not None:
        return "called"
    return "resigned" if all(resigned) else "blocked"
