"""Agreement with the strongest bot: how often one seat's choices were the reference's.

A finished record is replayed move by move. At each decision of the seat — a moment
where it had at least two moves to choose from — the reference bot is asked what it
would play, from the seat's information set only (``match.bot_info(seat)``: what the seat
could know at that moment, never the true state), and its move is set beside the one
played. A seat that plays like the reference agrees far more often than people do; the
calibration (docs/fairplay.md) measures how much more.

The reference is the strongest bot that stays cheap enough to run on every decision
of every game a moderator looks at (:data:`REFERENCES`): in Candidate ISMCTS with 300
iterations (about 10 ms a decision); in Spy ``model``, the solved order-blind player
that hands over to the planner once the racing deck is known — the strongest fair Spy
bot measured (docs/bots.md) and the cheapest. The oracle sees hidden cards and is no
reference: a fair seat could never follow it.

What counts as a choice (:func:`choices`): in Candidate, the cards to play or a pass
(C6-C8); choosing a pile to deal, turn or draw from (C4, C5, C10) is a choice among
hidden cards that the search values nearly alike — the reference with another seed
picked the same pile in only a third of them (measured on 8 deals,
docs/fairplay.md), no better than greedy — so those decisions would add noise, not
signal. In Spy every move but resigning (a racing seat may always resign).

Bots are deterministic for a seed and an information set (``decision_rng``), so the
same record gives the same answers on every machine, and cards hidden from the seat
cannot change them.

With the server's stored moves (:class:`~.stored.StoredMove`) only the decisions the
person made count (``source == "player"``): a bot standing in, or moving when the clock
ran out, is not the person.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.games.base import Match
from cardtable.games.candidate.actions import PASS
from cardtable.games.candidate.actions import action_to_text as candidate_text
from cardtable.games.candidate.match import CandidateMatch
from cardtable.games.candidate.records import parse_record, record_seed
from cardtable.games.candidate.state import CandidateState
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, RESIGN
from cardtable.games.spy.actions import action_to_text as spy_text
from cardtable.games.spy.match import SpyMatch
from cardtable.games.spy.records import read_record
from cardtable.games.spy.state import SpyState
from cardtable.record import game_of, replay

from .stored import StoredMove, move_action, stored_segments

__all__ = [
    "REFERENCES",
    "REFERENCE_SEED",
    "DecisionCheck",
    "GameAgreement",
    "choices",
    "seat_agreement",
]

#: The reference bot of each game (module docstring), as ``parse_bot_spec`` reads it.
REFERENCES: Final[Mapping[str, str]] = {"candidate": "ismcts:300", "spy": "model"}
#: The reference's seed: fixed, so an analysis is the same wherever it runs.
REFERENCE_SEED: Final = 0

#: Called after each decision judged with (decisions done, moves of the record).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class DecisionCheck:
    """One decision of the seat: where (deal or round, and move number in it, from 1),
    the move played and the reference's move, as record texts."""

    segment: int
    number: int
    played: str
    reference: str

    @property
    def agrees(self) -> bool:
        """Whether the seat played the reference's move."""
        return self.played == self.reference

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "segment": self.segment,
            "number": self.number,
            "played": self.played,
            "reference": self.reference,
        }


@dataclass(frozen=True, slots=True)
class GameAgreement:
    """Every decision of one seat in one game, judged by the reference ``reference``
    (a bot label such as ``ismcts:300``)."""

    game: str
    seat: int
    reference: str
    checks: tuple[DecisionCheck, ...]

    @property
    def decisions(self) -> int:
        """Decisions judged."""
        return len(self.checks)

    @property
    def agreements(self) -> int:
        """Decisions where the seat played the reference's move."""
        return sum(check.agrees for check in self.checks)

    @property
    def rate(self) -> float | None:
        """The share of decisions in agreement (None without a decision)."""
        return self.agreements / self.decisions if self.checks else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (counts included for readers that skip the checks)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "reference": self.reference,
            "decisions": self.decisions,
            "agreements": self.agreements,
            "checks": [check.to_dict() for check in self.checks],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameAgreement:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            game=str(data["game"]),
            seat=int(data["seat"]),
            reference=str(data["reference"]),
            checks=tuple(
                DecisionCheck(int(c["segment"]), int(c["number"]), c["played"], c["reference"])
                for c in data["checks"]
            ),
        )


@dataclass(frozen=True, slots=True)
class _Moment:
    """A move about to be made while a record is replayed; ``match`` is before it."""

    segment: int
    number: int
    index: int
    seat: int
    action: int
    match: Match


def _candidate_moments(record: Mapping[str, Any]) -> Iterator[_Moment]:
    parsed = parse_record(record)
    if not parsed.deals:
        return
    first = parsed.deals[0]
    state = CandidateState.from_piles(
        first.piles, first.dealer, parsed.options, seed=record_seed(parsed)
    )
    match = CandidateMatch(state, parsed.players)
    index = 0
    for d, deal in enumerate(parsed.deals):
        if d:
            state.set_deal_piles(deal.piles)
        for j, text in enumerate(deal.moves):
            seat = state.current_player
            action = move_action("candidate", text)
            yield _Moment(d + 1, j + 1, index, seat, action, match)
            match.apply(seat, action)
            index += 1


def _spy_moments(record: Mapping[str, Any]) -> Iterator[_Moment]:
    checked = read_record(record)
    state = SpyState(checked.players, options=checked.options)
    match = SpyMatch(state)
    index = 0
    for r, (cards, texts) in enumerate(checked.rounds):
        state.start_round(cards)
        for j, text in enumerate(texts):
            action = move_action("spy", text)
            seat = action // ACTIONS_PER_PLAYER
            yield _Moment(r + 1, j + 1, index, seat, action, match)
            match.apply(seat, action)
            index += 1


def choices(game: str, legal: Sequence[int]) -> list[int]:
    """The legal moves that count as a choice (module docstring): in Candidate plays
    and the pass, in Spy every move but resigning."""
    if game == "spy":
        return [a for a in legal if a % ACTIONS_PER_PLAYER != RESIGN]
    return [a for a in legal if a >= PASS]


def seat_agreement(
    record: Mapping[str, Any],
    seat: int,
    moves: Sequence[StoredMove] | None = None,
    *,
    reference: str | None = None,
    seed: int = REFERENCE_SEED,
    progress: Progress | None = None,
) -> GameAgreement:
    """Judge every decision of ``seat`` in ``record`` by the reference bot (module
    docstring): ``reference`` is a bot spec (default :data:`REFERENCES`), ``moves`` the
    server's stored moves of the game, when given only the person's own decisions count.

    The record is replayed first, so a malformed record raises the engine's located
    error; :class:`ValueError` for a seat not at the table or stored moves that are not
    the record's.
    """
    game = game_of(record)
    replay(record)
    players = len(record["players"])
    if not 0 <= seat < players:
        raise ValueError(f"there is no seat {seat} in a game of {players} players")
    flat: list[StoredMove] | None = None
    if moves is not None:
        flat = [m for part in stored_segments(record, moves) for m in part]
    spec = parse_bot_spec(game, reference or REFERENCES[game])
    bot = make_bot(spec, seed)
    text = spy_text if game == "spy" else candidate_text
    moments = _spy_moments(record) if game == "spy" else _candidate_moments(record)
    total = sum(len(part["moves"]) for part in record["rounds" if game == "spy" else "deals"])
    checks: list[DecisionCheck] = []
    for moment in moments:
        stored = flat[moment.index] if flat is not None else None
        if stored is not None and stored.seat != moment.seat:
            raise ValueError(
                f"stored move {moment.index + 1} is seat {stored.seat}'s, "
                f"the record's is seat {moment.seat}'s"
            )
        if moment.seat != seat or (stored is not None and not stored.by_person):
            continue
        info = moment.match.bot_info(seat)
        if len(choices(game, info.legal)) >= 2:
            choice = bot.choose(info)
            checks.append(
                DecisionCheck(moment.segment, moment.number, text(moment.action), text(choice))
            )
        if progress is not None:
            progress(moment.index + 1, total)
    return GameAgreement(game, seat, spec.label, tuple(checks))
