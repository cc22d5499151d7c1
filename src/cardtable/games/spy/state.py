"""The state of a Spy vs Spy match: rounds of a patience race, scored (S1-S16).

There are no turns: every player may move at any moment, so an action id carries its
player (:mod:`~cardtable.games.spy.actions`) and :meth:`SpyState.legal_actions` with no
argument lists every player's moves, letting one generic loop drive a whole race:

>>> state = SpyState.deal(2, seed=1, options=SpyOptions(rounds=1))
>>> len(state.legal_actions()) == len(state.legal_actions(0)) + len(state.legal_actions(1))
True
>>> [e.type for e in state.apply("0 turn")]
['turn']
>>> from cardtable.errors import IllegalMove
>>> try:
...     state.apply("0 call")
... except IllegalMove as exc:
...     print(exc.reason)
...     print(exc.code, exc.params)
the points pile still holds 5 cards: call only when it is empty
spy.call_too_early {'count': 5}

A refusal's message id and parameters let a face say it in the player's language
(:mod:`cardtable.messages`):

>>> print(state.refusal(15).text("uk"))
в очковій стопці ще 5 карт: «закінчив» оголошують, лише коли вона порожня

Two ways to move:

- :meth:`SpyState.apply` checks the move, raises :class:`~cardtable.errors.IllegalMove`
  with a reason a player understands, and returns the move's :class:`Event` list;
- :meth:`SpyState.apply_action` is the **unchecked fast path** for bots and search: no
  checks, no events. Give it only ids from :meth:`legal_actions`; anything else leaves
  the state inconsistent.

A state made with a seed deals every round from it (:mod:`~cardtable.games.spy.deal`)
and moves on to the next round by itself, so it is never a chance node. A state made
from explicit cards waits between rounds for :meth:`SpyState.start_round`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any, NamedTuple

from cardtable.cards import KIND_TEXT, parse_card_kind
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    CALL,
    MAX_PILES,
    NUM_ACTIONS,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
    action_to_text,
    text_to_action,
)
from cardtable.games.spy.deal import check_cards, deal_cards
from cardtable.games.spy.events import Event
from cardtable.games.spy.options import MAX_PLAYERS, SpyOptions, check_player_count
from cardtable.games.spy.position import NO_LIMIT, Position
from cardtable.games.spy.views import SpyView, seat_view
from cardtable.messages import Refusal, make_refusal

__all__ = ["BETWEEN_ROUNDS", "MATCH_OVER", "PLAYING", "RoundResult", "SpyState"]

#: Phases of a match.
PLAYING = "playing"
BETWEEN_ROUNDS = "between_rounds"
MATCH_OVER = "over"

#: "Player 1", "Player 2", … for each table size.
_DEFAULT_NAMES = tuple(tuple(f"Player {i + 1}" for i in range(n)) for n in range(MAX_PLAYERS + 1))

_Log = tuple[int, Any] | None  # the current round's moves, newest first, as linked pairs


class RoundResult(NamedTuple):
    """How a round ended (S10, S12-S15).

    ``finisher`` is the first caller, or None when every player still in was blocked
    or all resigned. ``blocked[p]`` is S12 applied to p's final position (resigning
    does not set it); ``points_left[p]`` counts p's points pile.
    """

    number: int
    finisher: int | None
    blocked: tuple[bool, ...]
    resigned: tuple[bool, ...]
    points_left: tuple[int, ...]
    scores: tuple[int, ...]


class SpyState:
    """A match of ``options.rounds`` rounds between 2-8 players (S1, S16).

    Build one with :meth:`deal` (from a seed) or :meth:`from_cards` (explicit cards).
    ``move_limit`` (an engine setting, not a rule option, never recorded) caps each
    player's moves per round: a player who reaches it may only resign (S13). It is the
    offline stand-in for an online race's clock, which ends a stalled player's round
    (note to S12); without it a player who keeps turning never stops.
    """

    __slots__ = (
        "_active",
        "_cards",
        "_log",
        "_past",
        "move_limit",
        "names",
        "options",
        "phase",
        "results",
        "round_number",
        "seats",
        "seed",
        "totals",
    )

    options: SpyOptions
    names: tuple[str, ...]
    seed: int | None
    move_limit: int | None
    phase: str
    round_number: int
    seats: list[Position]
    results: tuple[RoundResult, ...]
    totals: list[int]
    _past: tuple[tuple[tuple[tuple[int, ...], ...], _Log], ...]
    _cards: tuple[tuple[int, ...], ...]
    _log: _Log
    _active: int

    def __init__(
        self,
        players: int | Sequence[str],
        *,
        options: SpyOptions | None = None,
        seed: int | None = None,
        move_limit: int | None = None,
    ) -> None:
        """A match with no round dealt yet; with a ``seed`` round 1 is dealt at once."""
        if isinstance(players, int):
            check_player_count(players)  # S1
            names = _DEFAULT_NAMES[players]
        else:
            names = tuple(players)
            check_player_count(len(names))  # S1
        if move_limit is not None and move_limit < 1:
            raise ValueError(f"move_limit must be at least 1, got {move_limit}")
        self.options = options if options is not None else SpyOptions()
        self.names = names
        self.seed = seed
        self.move_limit = move_limit
        self.phase = BETWEEN_ROUNDS
        self.round_number = 0
        self.seats = []
        self.results = ()
        self.totals = [0] * len(names)
        self._past = ()
        self._cards = ()
        self._log = None
        self._active = 0
        if seed is not None:
            self.start_round()

    @classmethod
    def deal(
        cls,
        players: int | Sequence[str],
        *,
        seed: int,
        options: SpyOptions | None = None,
        move_limit: int | None = None,
    ) -> SpyState:
        """A match whose every round is dealt from ``seed``; round 1 is in play."""
        return cls(players, options=options, seed=seed, move_limit=move_limit)

    @classmethod
    def from_cards(
        cls,
        players: int | Sequence[str],
        cards: Sequence[Sequence[int | str]],
        *,
        options: SpyOptions | None = None,
        move_limit: int | None = None,
    ) -> SpyState:
        """A match whose round 1 is dealt as given: ``cards[p]`` top first (``docs/records.md``)."""
        state = cls(players, options=options, move_limit=move_limit)
        state.start_round(cards)
        return state

    # ----------------------------------------------------------------- facts

    @property
    def num_players(self) -> int:
        """How many players sit at the table."""
        return len(self.names)

    def is_chance_node(self) -> bool:
        """Always False: deals come from the seed or the record, never from a chance move."""
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Always empty (see :meth:`is_chance_node`)."""
        return []

    def is_terminal(self) -> bool:
        """Is the whole match over (S16)?"""
        return self.phase == MATCH_OVER

    def returns(self) -> list[float]:
        """Each player's negated total so far (OpenSpiel maximises; Spy's lowest total wins)."""
        return [-float(t) for t in self.totals]

    def winners(self) -> list[int]:
        """S16: the players with the lowest total (so far), in seat order; ties share."""
        best = min(self.totals)
        return [p for p, t in enumerate(self.totals) if t == best]

    def position(self, player: int) -> Position:
        """Player's :class:`Position` in the current round: the TRUE position, hidden
        cards included. For the engine and simulations; players get :meth:`view`."""
        return self.seats[player]

    def is_blocked(self, player: int) -> bool:
        """S12 for ``player`` in the current round."""
        return self.seats[player].blocked

    def moves(self) -> list[int]:
        """The current round's actions so far, in order."""
        return _unlink(self._log)

    def round_cards(self) -> tuple[tuple[int, ...], ...]:
        """The cards of the latest round dealt (in play, or just over): kinds, top first
        per player; empty before the first deal. The TRUE cards, hidden ones included."""
        return self._cards

    def moves_since(self, count: int) -> list[int]:
        """The latest round's actions after its first ``count``, in order.

        Only those actions are read (the round's length is the sum of the players'
        move counts), so a reader following a round move by move pays for each move
        once, however long the match has been.
        """
        if count < 0:
            raise ValueError(f"a count of moves is never negative, got {count}")
        out: list[int] = []
        log = self._log
        for _ in range(sum(seat.moves for seat in self.seats) - count):
            assert log is not None  # the log holds one entry per move made
            out.append(log[0])
            log = log[1]
        out.reverse()
        return out

    def played_rounds(self) -> list[tuple[tuple[tuple[int, ...], ...], list[int]]]:
        """Every dealt round as (cards, actions): cards are kinds, top first per
        player; the round in play (if any) comes last."""
        rounds = [(cards, _unlink(log)) for cards, log in self._past]
        if self.phase == PLAYING:
            rounds.append((self._cards, _unlink(self._log)))
        return rounds

    # ----------------------------------------------------------------- moves

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal action ids: one player's, or with None every player's.

        Empty when no round is in play or the player is out of the round.
        """
        if self.phase != PLAYING:
            return []
        if player is not None:
            return self.seats[player].legal[:]
        seats = self.seats
        if len(seats) == 2:
            return seats[0].legal + seats[1].legal
        out: list[int] = []
        for seat in seats:
            out += seat.legal
        return out

    def apply_action(self, action: int) -> None:
        """Make ``action`` WITHOUT checking it: the fast path (no events, no checks).

        ``action`` must come from :meth:`legal_actions`.
        """
        seat = self.seats[action // ACTIONS_PER_PLAYER]
        local = action % ACTIONS_PER_PLAYER
        self._log = (action, self._log)
        if seat.play(local):
            # S12-S13: the player is out (blocked or resigned); when nobody is left
            # racing the round ends at once with no winner.
            self._active -= 1
            if not self._active:
                self._end_round(None)
        elif local == CALL:
            self._end_round(seat.player)  # S10: the first call wins and ends the round

    def apply(self, action: int | str) -> list[Event]:
        """Check and make a move (id or record text); return what it showed the table.

        Raises :class:`~cardtable.errors.IllegalMove` saying why a move is not allowed.
        """
        if isinstance(action, str):
            text: str | None = action
            action = text_to_action(action)
        else:
            text = None
        refusal = self.refusal(action)
        if refusal is not None:
            raise refusal.illegal(text if text is not None else _text_or_none(action))
        player, local = divmod(action, ACTIONS_PER_PLAYER)
        seat = self.seats[player]
        events = [self._describe(seat, local)]
        finished = len(self.results)
        self.apply_action(action)
        if (PLACE_POINTS <= local < PLACE_WASTE or local == OPEN_POINTS) and seat.points:
            events.append(Event("reveal", player, seat.points[-1]))  # S4: next card face-up
        if seat.blocked and local not in (TURN, RESIGN):
            events.append(Event("blocked", player))
        if len(self.results) > finished:
            result = self.results[-1]
            events.append(
                Event("round_end", result.finisher, round=result.number, scores=result.scores)
            )
            if self.phase == MATCH_OVER:
                events.append(
                    Event("match_end", scores=tuple(self.totals), winners=tuple(self.winners()))
                )
            elif self.phase == PLAYING:
                events.extend(self.deal_events())
        return events

    def illegal_reason(self, action: int) -> str | None:
        """Why ``action`` is not legal now, in a player's words (English); None when it is."""
        refusal = self.refusal(action)
        return None if refusal is None else refusal.text()

    def refusal(self, action: int) -> Refusal | None:
        """Why ``action`` is not legal now, as a message id and its parameters (a face
        says it in the player's language); None when it is legal."""
        if isinstance(action, bool) or not isinstance(action, int):
            return make_refusal("move.not_action_id", value=repr(action))
        if not 0 <= action < NUM_ACTIONS:
            return make_refusal("move.bad_action_id", value=repr(action), last=NUM_ACTIONS - 1)
        player, local = divmod(action, ACTIONS_PER_PLAYER)
        if player >= self.num_players:
            return make_refusal("spy.no_player", player=player, last=self.num_players - 1)
        if self.phase == MATCH_OVER:
            return make_refusal("spy.match_over")
        if self.phase == BETWEEN_ROUNDS:
            return make_refusal("spy.no_round")
        seat = self.seats[player]
        if action in seat.legal:
            return None
        if seat.resigned:
            return make_refusal("spy.resigned", player=player)
        if seat.moves >= seat.limit:
            return make_refusal("spy.move_limit", player=player, limit=seat.limit)  # S13
        return _why_not(seat, local)

    def _describe(self, seat: Position, local: int) -> Event:
        """The event of a legal move, described before it is made."""
        player = seat.player
        if local == TURN:
            if seat.deck:
                return Event("turn", player, seat.deck[-1])
            return Event("turn", player, seat.waste[0], recycled=True)
        if PLACE_POINTS <= local < PLACE_WASTE:
            return Event("place", player, seat.points[-1], "points", local - PLACE_POINTS + 1)
        if PLACE_WASTE <= local < OPEN_POINTS:
            return Event("place", player, seat.waste[-1], "waste", local - PLACE_WASTE + 1)
        if local == OPEN_POINTS:
            return Event("open", player, seat.points[-1], "points", len(seat.tops) + 1)
        if local == OPEN_WASTE:
            return Event("open", player, seat.waste[-1], "waste", len(seat.tops) + 1)
        if local == CALL:
            return Event("call", player)
        return Event("resign", player)

    def deal_events(self) -> list[Event]:
        """What the current round's deal shows: piles 1-4 and points tops (S3, S4)."""
        return [
            Event(
                "deal",
                seat.player,
                seat.points[-1] if seat.points else None,
                cards=tuple(pile[0] for pile in seat.piles),
                round=self.round_number,
            )
            for seat in self.seats
        ]

    # ----------------------------------------------------------------- rounds

    def start_round(self, cards: Sequence[Sequence[int | str]] | None = None) -> None:
        """Deal the next round: from ``cards`` (top first per player) or from the seed.

        Raises :class:`~cardtable.errors.BadRecord` (field ``cards``) for cards that
        are not exactly the right deck(s) (S2), ValueError when no round may start.
        """
        if self.phase != BETWEEN_ROUNDS:
            raise ValueError(
                "the match is over" if self.phase == MATCH_OVER else "a round is in play"
            )
        number = self.round_number + 1
        if cards is None:
            if self.seed is None:
                raise ValueError("this match has no seed: give the round's cards")
            kinds = self._seeded_cards(number)
        else:
            kinds = tuple(
                tuple(c if isinstance(c, int) else parse_card_kind(c) for c in hand)
                for hand in cards
            )
            check_cards(
                kinds,
                self.num_players,
                self.options.full_decks,
                "cards",
                same_deal=self.options.same_deal,
            )
        self._begin(number, kinds)

    def _seeded_cards(self, number: int) -> tuple[tuple[int, ...], ...]:
        """S2: round ``number``'s cards from the seed (the compiled core deals in C)."""
        assert self.seed is not None
        options = self.options
        return deal_cards(
            seed=self.seed,
            round_number=number,
            players=self.num_players,
            full_decks=options.full_decks,
            same_deal=options.same_deal,
        )

    def _lay_out(self, kinds: tuple[tuple[int, ...], ...], limit: int) -> list[Position]:
        """S3: every player's :meth:`Position.deal` (the compiled core's in C)."""
        return list(map(Position.deal, range(len(kinds)), kinds, repeat(limit)))

    def _begin(self, number: int, kinds: tuple[tuple[int, ...], ...]) -> None:
        limit = self.move_limit if self.move_limit is not None else NO_LIMIT
        self.round_number = number
        self._cards = kinds
        self._log = None
        self.seats = self._lay_out(kinds, limit)  # S3
        self._active = self.num_players
        self.phase = PLAYING

    def _end_round(self, finisher: int | None) -> None:
        """S14-S15: score the round, then end the match (S16) or deal the next round."""
        options = self.options
        seats = self.seats
        bonus = options.bonus
        if finisher is None:
            scores = [0] * len(seats)  # S14: no winner, everyone scores 0
        else:
            scores = [bonus] * len(seats)  # S14 (S13: a resigned player too)
            scores[finisher] = -bonus  # S14: the first caller
        points_left = tuple([len(seat.points) for seat in seats])
        if options.count_points_pile:
            scores = [score + left for score, left in zip(scores, points_left, strict=True)]
        totals = self.totals
        for p, score in enumerate(scores):
            totals[p] += score
        result = RoundResult(
            self.round_number,
            finisher,
            tuple([seat.blocked for seat in seats]),
            tuple([seat.resigned for seat in seats]),
            points_left,
            tuple(scores),
        )
        self.results += (result,)
        self._past += ((self._cards, self._log),)
        if self.round_number >= options.rounds:
            self.phase = MATCH_OVER  # S16
        else:
            self.phase = BETWEEN_ROUNDS
            if self.seed is not None:
                self.start_round()

    @property
    def round_over(self) -> bool:
        """Is no round in play (between rounds, or the match is over)?"""
        return self.phase != PLAYING

    # ----------------------------------------------------------------- copies, views, records

    def clone(self) -> SpyState:
        """An independent copy (positions copied; finished rounds shared, immutable)."""
        other = SpyState.__new__(SpyState)
        other.options = self.options
        other.names = self.names
        other.seed = self.seed
        other.move_limit = self.move_limit
        other.phase = self.phase
        other.round_number = self.round_number
        other.seats = [seat.copy() for seat in self.seats]
        other.results = self.results
        other.totals = self.totals[:]
        other._past = self._past
        other._cards = self._cards
        other._log = self._log
        other._active = self._active
        return other

    def view(self, player: int | None = None) -> SpyView:
        """What ``player`` (or, with None, a spectator) may see: public positions only.

        S4-S5: no one, the owner included, sees the racing deck or the points pile
        under its top, so every player's view equals the spectator's but for ``viewer``.
        """
        if player is not None and not 0 <= player < self.num_players:
            raise ValueError(f"there is no player {player}")
        playing = not self.round_over
        return SpyView(
            viewer=player,
            round=self.round_number,
            rounds=self.options.rounds,
            phase=self.phase,
            seats=tuple(seat_view(s, self.names[s.player]) for s in self.seats) if playing else (),
            finishers=tuple(r.finisher for r in self.results),
            round_scores=tuple(r.scores for r in self.results),
            totals=tuple(self.totals),
        )

    def to_record(self) -> dict[str, Any]:
        """The match so far as a record (``docs/records.md``): options, names, cards, moves."""
        rounds = [
            {
                "cards": [[KIND_TEXT[k] for k in hand] for hand in cards],
                "moves": [action_to_text(a) for a in moves],
            }
            for cards, moves in self.played_rounds()
        ]
        return {
            "game": "spy",
            "options": self.options.to_dict(),
            "players": list(self.names),
            "rounds": rounds,
        }

    def __repr__(self) -> str:
        return (
            f"<SpyState players={self.num_players} round={self.round_number}/"
            f"{self.options.rounds} phase={self.phase} totals={self.totals}>"
        )


def _unlink(log: _Log) -> list[int]:
    """The actions of a linked log, oldest first."""
    out = []
    while log is not None:
        out.append(log[0])
        log = log[1]
    out.reverse()
    return out


def _text_or_none(action: int) -> str | None:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return None
    return action_to_text(action)


def _why_not(seat: Position, local: int) -> Refusal:
    """The reason a move that is not in ``seat.legal`` is illegal."""
    if local == TURN:
        return make_refusal("spy.nothing_to_turn")  # S9
    if local == CALL:
        return make_refusal("spy.call_too_early", count=len(seat.points))  # S10
    if local in (OPEN_POINTS, OPEN_WASTE):
        if len(seat.tops) >= MAX_PILES:
            return make_refusal("spy.all_piles_open", max=MAX_PILES)  # S8
        return _empty_source(local == OPEN_POINTS)
    from_points = local < PLACE_WASTE
    source = seat.points if from_points else seat.waste
    if not source:
        return _empty_source(from_points)
    pile = local - (PLACE_POINTS if from_points else PLACE_WASTE) + 1
    if pile > len(seat.tops):
        return make_refusal("spy.no_pile", pile=pile, count=len(seat.tops))
    return make_refusal(  # S6
        "spy.no_fit",
        card=KIND_TEXT[source[-1]],
        pile=pile,
        top_card=KIND_TEXT[seat.piles[pile - 1][-1]],
    )


def _empty_source(points: bool) -> Refusal:
    return make_refusal("spy.points_empty" if points else "spy.waste_empty")
