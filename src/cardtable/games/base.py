"""What every game package offers the rest of cardtable: declared facts and one match API.

A game package (``cardtable.games.<name>``) exposes ``GAME``, an object satisfying
:class:`Game`. Every face — the server, the terminal, the arena, the learning
environments — talks to a game only through :class:`Game`, :class:`GameInfo` and
:class:`Match`, so adding a third game means adding one package under ``games/`` and its
name to :data:`cardtable.games.registry.GAME_NAMES`; no face changes.

In the spirit of OpenSpiel, a game declares its facts up front (:class:`GameInfo`:
players, turn-based or real-time, distinct actions, which way totals rank) and the
facts that depend on options through :meth:`Game.utility_bounds` and
:meth:`Game.max_game_length`.

A :class:`Match` is one game in progress. It speaks *seats* (0 … players − 1):

* who may move — one seat in a turn-based game, :data:`ANYONE` in a race, ``None`` once
  the match is over (:meth:`Match.to_move`);
* a seat's legal moves as sorted action ids and as record texts;
* :meth:`Match.apply` checks and makes a seat's move and returns :class:`Applied`:
  the events with their audiences, the seats whose position changed, and whether a
  deal or round ended (where a table pauses);
* :meth:`Match.view` is what a seat (or, with ``None``, a spectator) may see — the only
  way hidden cards leave the engine — and :meth:`Match.bot_info` is the information
  set a bot may use for a seat at this moment, whoever played the seat until now;
* :meth:`Match.segment_results` says how each finished deal or round ended: its
  scores, the totals after it, and who ended it and how (a table shows it in the pause);
* :meth:`Match.result` ranks the totals the way the game ranks them; :meth:`Match.record`
  is the record of ``docs/records.md``.

>>> from cardtable.games.registry import find_game
>>> match = find_game("candidate").new_match(seed=1, players=["Ann", "Bob"], options={})
>>> match.info.realtime, match.to_move() in (0, 1)
(False, True)
>>> ranks_from_totals([-20, 20, 20], higher_is_better=False)
(1, 2, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

__all__ = [
    "ANYONE",
    "Applied",
    "EngineEvent",
    "Game",
    "GameInfo",
    "Match",
    "MatchEvent",
    "Replay",
    "Result",
    "SegmentResult",
    "ranks_from_totals",
    "running_totals",
]

#: :meth:`Match.to_move` of a real-time match in play: every seat may move now.
ANYONE: Final = -1


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's facts that do not depend on options."""

    #: The name used in records, on the command line and in URLs (``"candidate"``).
    name: str
    #: The title for people in every shipped language (``{"en": "Candidate", "uk":
    #: "Кандидат", …}``): the catalogues' ``term:game_title.<name>``, so every face
    #: names the game as its language does.
    titles: Mapping[str, str]
    min_players: int
    max_players: int
    #: Every seat moves whenever it likes (a race) rather than one seat at a time.
    realtime: bool
    #: Action ids are ``0 … num_distinct_actions − 1``.
    num_distinct_actions: int
    #: Whether the highest total wins (Candidate, C17) or the lowest (Spy, S16).
    higher_is_better: bool
    #: What a match is played in: ``"deal"`` (Candidate) or ``"round"`` (Spy). A table
    #: pauses between two of them so people can read the result.
    segment: str

    def title(self, lang: str = "en") -> str:
        """The title in ``lang``, English when there is none in that language."""
        return self.titles.get(lang) or self.titles["en"]


class EngineEvent(Protocol):
    """An engine's event: what a viewer may see of it, and its JSON-ready form."""

    def seen_by(self, viewer: int | None) -> EngineEvent:
        """The event as ``viewer`` (``None``: a spectator) may see it."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        ...


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """One thing a move showed, with what each seat may see of it.

    ``event`` is the engine's event (or, for a game without event objects, its data,
    which everyone sees). A card drawn is shown to the drawer and "drew from pile C" to
    the others; the data for a seat is rendered only when asked for, since most events
    of a bot-only table are never shown to anyone.
    """

    event: EngineEvent | Mapping[str, Any]

    def seen_by(self, seat: int | None) -> Mapping[str, Any]:
        """The event as ``seat`` (``None``: a spectator) may see it."""
        event = self.event
        if isinstance(event, Mapping):
            return event
        return event.seen_by(seat).to_dict()


@dataclass(frozen=True, slots=True)
class Applied:
    """What an accepted move did.

    ``affected`` are the seats whose own position (and so whose pending decisions) the
    move changed: every seat in a turn-based game, only the mover in a race unless the
    move ended a round. ``segment_ended`` is true when the move ended a deal or round
    (or the match): a table pauses there.
    """

    seat: int
    action: int
    text: str
    events: tuple[MatchEvent, ...] = ()
    affected: frozenset[int] = frozenset()
    segment_ended: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """Totals so far (final once the match is over), the winners and competition ranks
    (1 = best; equal totals share a rank)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]

    @classmethod
    def of(cls, totals: Sequence[int], *, higher_is_better: bool) -> Result:
        """Rank ``totals`` the way the game ranks them.

        >>> Result.of([12, 30, 12], higher_is_better=True).winners
        (1,)
        """
        ranks = ranks_from_totals(totals, higher_is_better=higher_is_better)
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        return cls(tuple(totals), winners, ranks)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"totals": [...], "winners": [...], "ranks": [...]}``."""
        return {
            "totals": list(self.totals),
            "winners": list(self.winners),
            "ranks": list(self.ranks),
        }


@dataclass(frozen=True, slots=True)
class SegmentResult:
    """How one finished deal or round ended.

    ``scores`` are each seat's points in it and ``totals`` the running totals after it.
    ``ending`` says how it ended, as the game names it (Spy: ``"called"`` — seat
    ``ended_by`` called «finished» first, S10 —, ``"blocked"`` — nobody could move on,
    S12 — or ``"resigned"`` — everyone left the round, S13; Candidate: ``"played"``, the
    cards ran out, C13); ``ended_by`` is ``None`` when no seat ended it.
    """

    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    ending: str
    ended_by: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "number": self.number,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "ending": self.ending,
            "ended_by": self.ended_by,
        }


def running_totals(scores: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The totals after each segment of ``scores`` (one row per segment).

    >>> running_totals([(1, 2), (3, -1)])
    [(1, 2), (4, 1)]
    """
    out: list[tuple[int, ...]] = []
    for row in scores:
        out.append(tuple(a + b for a, b in zip(out[-1], row, strict=True)) if out else tuple(row))
    return out


def ranks_from_totals(totals: Sequence[int], *, higher_is_better: bool) -> tuple[int, ...]:
    """Competition ranks (1 = best, equal totals share the rank).

    >>> ranks_from_totals([12, 30, 12], higher_is_better=True)
    (2, 1, 2)
    """
    sign = -1 if higher_is_better else 1
    keyed = [sign * t for t in totals]
    return tuple(1 + sum(1 for other in keyed if other < mine) for mine in keyed)


class Replay(Protocol):
    """The result of replaying a record (complete or stopped anywhere)."""

    def summary(self) -> dict[str, Any]:
        """The replay summary of ``docs/records.md`` as a JSON-ready dict."""
        ...

    def transcript(self, lang: str = "en") -> str:
        """A readable account of the game: the deal, each move, every score."""
        ...


class Match(Protocol):
    """One match in progress, as every face sees it (see the module docstring)."""

    @property
    def info(self) -> GameInfo:
        """The game's declared facts."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        ...

    @property
    def seats(self) -> int:
        """The number of seats."""
        ...

    def to_move(self) -> int | None:
        """The seat whose decision it is, :data:`ANYONE` in a race, ``None`` once over."""
        ...

    def legal_actions(self, seat: int) -> list[int]:
        """``seat``'s legal action ids now, sorted (empty when it may not move)."""
        ...

    def legal_moves(self, seat: int) -> list[str]:
        """``seat``'s legal moves now as record texts (empty when it may not move)."""
        ...

    def apply(self, seat: int, move: int | str) -> Applied:
        """Check and make ``seat``'s move (an action id or a record text).

        Raises :class:`~cardtable.errors.IllegalMove` (with a message id) when the seat
        may not make it: not its turn, a move of another seat, against the rules.
        """
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: a spectator), JSON-ready."""
        ...

    def bot_info(self, seat: int) -> Any:
        """The information set of ``seat`` now, as the game's bots take it.

        Built from what the seat may know at this moment — its view and the public
        history, whoever made its earlier moves — never from hidden cards, so a bot can
        take the seat over at any point.
        """
        ...

    def segment(self) -> int:
        """The number of the deal or round in play (or the last one), from 1."""
        ...

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        ...

    def segment_results(self) -> tuple[SegmentResult, ...]:
        """How each finished deal or round ended, the first first."""
        ...

    def result(self) -> Result:
        """Totals, winners and ranks so far (final once :meth:`is_terminal`)."""
        ...

    def record(self) -> dict[str, Any]:
        """The record of the match so far (``docs/records.md``)."""
        ...


class Game(Protocol):
    """A game as the generic machinery sees it."""

    #: The game's declared facts.
    info: GameInfo
    #: The name used in records and on the command line (``info.name``).
    name: str
    #: The game's title for people (``"Candidate («Кандидат»)"``).
    title: str

    def check_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """Options checked for ``players`` players, defaults filled in.

        Raises :class:`~cardtable.errors.BadOptions` for bad options or a bad number of
        players.
        """
        ...

    def new_match(self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]) -> Match:
        """A fresh match dealt from ``seed``: the same arguments give the same match."""
        ...

    def utility_bounds(self, options: Mapping[str, Any]) -> tuple[float, float]:
        """The lowest and highest return of a whole match with these options."""
        ...

    def max_game_length(self, options: Mapping[str, Any]) -> int | None:
        """An upper bound on a match's moves, ``None`` when there is none (a race)."""
        ...

    def new_record(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A record of a fresh game dealt from ``seed``, with no moves."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Replay:
        """Validate and replay a record (as parsed JSON).

        Raises :class:`~cardtable.errors.BadRecord` for a malformed record and
        :class:`~cardtable.errors.IllegalMove` (with its position) for a bad move.
        """
        ...

    def display_summary(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The replay summary of a record as a screen shows it (public facts only):
        the plain summary, plus whatever the game scores on screen (Candidate: each
        capture's score beside it)."""
        ...
