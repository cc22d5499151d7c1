"""Spy vs Spy as an OpenSpiel Python game, ``python_cardtable_spy``.

Registered by importing :mod:`cardtable.rl.openspiel`. The game's facts (name, title,
player counts, utility bounds) come from :data:`cardtable.games.spy.GAME`; a round
has no longest length (S9), so the adapter's ``move_limit`` bounds it.

``python_cardtable_spy`` — Spy vs Spy, 2–8 players, general-sum. The race has no
turns (S17: the first call in time wins); OpenSpiel's sequential form models it with
a chance node that picks **who moves next**, uniformly among the players still racing
(not blocked, S12, and not resigned, S13). The race is thus a random interleaving of
the players' moves — each player's own decisions are theirs; only the clock is
chance.

* Parameters: ``players`` (2–8, default 2), ``rounds`` (default 1), ``bonus`` (20),
  ``count_points_pile`` (false), ``full_decks`` (false) — the rule options of S2, S15,
  S16 — and ``move_limit`` (default 200): the moves a player may make in a round, after
  which only resigning is left (the engine's stand-in for a real clock; it bounds the
  game's length).
* Chance: each round's deal card by card (S2-S3: seat 0's cards top first, then seat
  1's …; outcome = card kind, uniform over the cards left in that deck), then one
  "who moves" node before every move (outcome = the player).
* Actions: the engine's ids ``player·17 + local`` (:mod:`cardtable.games.spy.actions`).
* Returns: at the end, each player's negated match total (S14-S16: lowest total wins).
* Every move is public and the racing decks are hidden from everyone (S4-S5), so all
  players share one information state: the deal's face-up cards and every move with
  the cards it turned up (``information_state_string``); ``observation_string(p)``:
  the table's public view now.
* ``information_state_tensor(p)`` and ``observation_tensor(p)``: both the table vector
  of :mod:`cardtable.games.spy.encoding` (encoding version 1) as p sees it (p's seat first),
  the very vector each agent of the PettingZoo environment :mod:`cardtable.rl.spy_v0`
  observes; shape ``[players·117 + 2 + players]``. It shows every seat's public
  position now and the totals, so it is a function of the (shared) information state;
  it does not keep the order of the moves, nor the waste under its top (which a player
  remembers, S9), which only the perfect-recall string does.
* ``resample_from_infostate(p, sampler)``: a state nobody can tell from this one: in
  the round in play, the cards never shown face-up (racing decks, points piles under
  their tops, S4-S5) are dealt anew among their places (within each seat's own deck,
  or across both seats when two players share one deck, S2), and the round's moves are
  replayed on the new deal. What every player knows comes from the engine
  (``SpyMatch.bot_info``). A deal whose replay would block a seat at another time (S12
  reads the hidden cards) is drawn again, up to 100 times, then the state's own deal is
  kept (no refusal in 210 resamples of random mid-round states). A deal still being
  dealt is dealt anew. The new state's ``history()`` is not rewritten (it starts
  empty).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from cardtable.cards import KIND_TEXT, NUM_KINDS
from cardtable.games.spy import GAME as SPY
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy import action_to_text as spy_text
from cardtable.games.spy.deal import cards_per_player
from cardtable.games.spy.encoding import table_of, table_size
from cardtable.games.spy.match import SpyMatch
from cardtable.games.spy.state import BETWEEN_ROUNDS, PLAYING
from cardtable.rl.openspiel_shared import (
    CHANCE,
    PRIVATE,
    PUBLIC,
    TERMINAL,
    Observer,
    game_type,
    rng_from,
)

__all__ = ["SPY_GAME_TYPE", "SpySpielGame", "SpySpielState"]

#: Each player is paid their own negated total: not zero-sum (S14-S16).
SPY_GAME_TYPE = game_type(
    SPY.info,
    pyspiel.GameType.Utility.GENERAL_SUM,
    {
        "players": 2,
        "rounds": 1,
        "bonus": 20,
        "count_points_pile": False,
        "full_decks": False,
        "move_limit": 200,
    },
)


class _SpyCore:
    """The Python side of an OpenSpiel Spy state: the engine's match (rounds dealt by
    chance), the deal being dealt, who moves next, and the public history."""

    __slots__ = ("building", "engine", "mover", "public")

    def __init__(self, engine: SpyState) -> None:
        self.engine = engine
        #: The next round's cards dealt so far: seat 0's top first, then seat 1's …
        self.building: list[int] = []
        #: The player the last "who moves" chance node picked (None: not picked yet).
        self.mover: int | None = None
        #: What everyone has seen: each deal's face-up cards, every move and its card.
        self.public: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _SpyCore:
        other = _SpyCore(self.engine.clone())
        other.building = self.building[:]
        other.mover = self.mover
        other.public = self.public[:]
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # The engine's move log is a deep linked list: store the rounds, replay them.
        engine = self.engine
        return (
            _rebuild_spy_core,
            (
                engine.num_players,
                engine.options,
                engine.move_limit,
                engine.played_rounds(),
                self.building,
                self.mover,
                self.public,
            ),
        )

    def cards_each(self) -> int:
        return cards_per_player(self.engine.num_players, self.engine.options.full_decks)

    def is_chance(self) -> bool:
        phase = self.engine.phase
        return phase == BETWEEN_ROUNDS or (phase == PLAYING and self.mover is None)

    def racing(self) -> list[int]:
        """Players still racing: with moves left, not blocked (S12), not out (S13)."""
        return [seat.player for seat in self.engine.seats if seat.legal and not seat.blocked]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine.phase == PLAYING:
            racing = self.racing()
            return [(p, 1.0 / len(racing)) for p in racing]
        each = self.cards_each()
        # S2: two players share one deck; otherwise each shuffles a deck of their own.
        seen = self.building if each < 52 else self.building[len(self.building) // each * each :]
        left = sorted(set(range(52)) - set(seen))
        return [(kind, 1.0 / len(left)) for kind in left]

    def apply_chance(self, outcome: int) -> None:
        if outcome not in dict(self.chance_outcomes()):
            raise ValueError(f"{outcome} is not a chance outcome here")
        engine = self.engine
        if engine.phase == PLAYING:
            self.mover = outcome
            return
        self.building.append(outcome)
        each = self.cards_each()
        if len(self.building) == each * engine.num_players:
            cards = [self.building[p * each : p * each + each] for p in range(engine.num_players)]
            engine.start_round(cards)
            self.building = []
            faces = " ".join(
                f"{seat.player}:{KIND_TEXT[seat.points[-1]]}/"
                + ",".join(KIND_TEXT[pile[-1]] for pile in seat.piles)
                for seat in engine.seats
            )
            self.public.append(f"| round {engine.round_number} {faces}")

    def apply_move(self, action: int) -> None:
        engine = self.engine
        player = self.mover
        if player is None or action not in engine.seats[player].legal:
            raise ValueError(f"action {action} is not legal now")
        seat = engine.seats[player]
        engine.apply_action(action)
        # S4-S5: the points-pile top and the waste top are face-up after every move.
        points = KIND_TEXT[seat.points[-1]] if seat.points else "-"
        waste = KIND_TEXT[seat.waste[-1]] if seat.waste else "-"
        self.public.append(f"{spy_text(action)}[{points}/{waste}]")
        self.mover = None

    def resampled(self, rng: random.Random) -> _SpyCore:
        """A copy that nobody can tell from this one, the unseen cards dealt anew (see
        the module docstring: ``resample_from_infostate``)."""
        if self.building:
            # Nobody has seen any card of a round still being dealt.
            other = self.__deepcopy__({})
            other.building = []
            for _ in self.building:
                other.building.append(rng.choice(other.chance_outcomes())[0])
            return other
        engine = self.engine
        if engine.phase != PLAYING:
            return self.__deepcopy__({})
        rounds = engine.played_rounds()
        cards, moves = rounds[-1]
        match = SpyMatch(engine)
        # The places (seat, index in the deal) of cards never shown face-up (S4-S5).
        places = []
        for p, hand in enumerate(cards):
            unseen = set(match.bot_info(p).unseen)
            places.append([(p, i) for i, kind in enumerate(hand) if kind in unseen])
        # S2: two players share one deck, so a hidden card may lie at either place.
        shared = self.cards_each() < 52
        groups = [[place for seat in places for place in seat]] if shared else places
        for _ in range(100):
            dealt = [list(hand) for hand in cards]
            for group in groups:
                kinds = [cards[p][i] for p, i in group]
                rng.shuffle(kinds)
                for (p, i), kind in zip(group, kinds, strict=True):
                    dealt[p][i] = kind
            replayed = _replayed(engine, rounds[:-1], dealt, moves)
            if replayed is not None:
                core = _SpyCore(replayed)
                core.mover = self.mover
                core.public = self.public[:]
                return core
        return self.__deepcopy__({})  # no other deal fits: this one does


def _rebuild_spy_core(
    players: int,
    options: SpyOptions,
    move_limit: int | None,
    rounds: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    building: list[int],
    mover: int | None,
    public: list[str],
) -> _SpyCore:
    engine = SpyState(players, options=options, move_limit=move_limit)
    for cards, moves in rounds:
        engine.start_round(cards)
        for action in moves:
            engine.apply_action(action)
    core = _SpyCore(engine)
    core.building = list(building)
    core.mover = mover
    core.public = list(public)
    return core


def _replayed(
    engine: SpyState,
    past: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    cards: Sequence[Sequence[int]],
    moves: Sequence[int],
) -> SpyState | None:
    """``engine``'s match with the round in play dealt as ``cards`` and its ``moves``
    replayed; None when the players could tell the new deal from the old: a move of
    the round is not legal on it, or a seat ends with other legal moves or another
    blocked flag (S12; a seat's moves alone change its position, so its flag before
    each of its moves is the same too)."""
    other = SpyState(engine.num_players, options=engine.options, move_limit=engine.move_limit)
    for round_cards, round_moves in past:
        other.start_round(round_cards)
        for action in round_moves:
            other.apply_action(action)
    other.start_round(cards)
    for action in moves:
        if action not in other.seats[action // SPY.actions_per_player].legal:
            return None
        other.apply_action(action)
    for mine, theirs in zip(other.seats, engine.seats, strict=True):
        if mine.blocked != theirs.blocked or mine.legal != theirs.legal:
            return None
    return other


class SpySpielGame(pyspiel.Game):  # type: ignore[misc]
    """Spy vs Spy as an OpenSpiel game (``python_cardtable_spy``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(SPY_GAME_TYPE.parameter_specification) | dict(params or {})
        players = int(params["players"])
        options = SpyOptions(
            full_decks=bool(params["full_decks"]),
            bonus=int(params["bonus"]),
            count_points_pile=bool(params["count_points_pile"]),
            rounds=int(params["rounds"]),
        )
        move_limit = int(params["move_limit"])
        if move_limit < 1:
            raise ValueError(f"move_limit must be at least 1, got {move_limit}")
        SPY.check_options(options.to_dict(), players)  # S1: checks the player count
        low, high = SPY.utility_bounds(options)
        # A race has no longest length (S9: None); the move limit bounds each round.
        moves = SPY.max_game_length(options) or options.rounds * players * (move_limit + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=players * SPY.actions_per_player,
            max_chance_outcomes=NUM_KINDS,
            num_players=players,
            min_utility=low,
            max_utility=high,
            max_game_length=moves,
        )
        super().__init__(SPY_GAME_TYPE, info, params)
        self.players = players
        self.spy_options = options
        self.move_limit = move_limit
        cards = players * cards_per_player(players, options.full_decks)
        self._chance_nodes = options.rounds * cards + moves

    def new_initial_state(self) -> SpySpielState:
        """The match before round 1's deal."""
        return SpySpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every card dealt, and one "who moves" node before each move."""
        return self._chance_nodes

    def state_from(self, engine: SpyState) -> SpySpielState:
        """The OpenSpiel state of an engine match with this game's players, options and
        move limit: every round's cards and, before each move, who moves, replayed
        through :meth:`apply_action`, so the state's ``history()`` is complete."""
        facts = (engine.num_players, engine.options, engine.move_limit)
        if facts != (self.players, self.spy_options, self.move_limit):
            raise ValueError(
                f"players, options or move limit differ: {facts} vs "
                f"{(self.players, self.spy_options, self.move_limit)}"
            )
        state = self.new_initial_state()
        for cards, moves in engine.played_rounds():
            for hand in cards:
                for kind in hand:
                    state.apply_action(kind)
            for action in moves:
                state.apply_action(action // SPY.actions_per_player)  # who moves
                state.apply_action(action)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _SpyObserver:
        """The information-state observer (perfect recall) or the table observer."""
        return _SpyObserver(iig_obs_type, params, self.players)


class SpySpielState(pyspiel.State):  # type: ignore[misc]
    """A Spy vs Spy match as an OpenSpiel state (see the module docstring)."""

    def __init__(self, game: SpySpielGame) -> None:
        super().__init__(game)
        engine = SpyState(game.players, options=game.spy_options, move_limit=game.move_limit)
        self.core = _SpyCore(engine)
        #: The player to move (or CHANCE / TERMINAL), worked out once per action:
        #: OpenSpiel asks for it several times a move, through pybind.
        self.player = self._work_out_player()

    def _work_out_player(self) -> int:
        core = self.core
        if core.engine.is_terminal():
            return TERMINAL
        if core.is_chance():
            return CHANCE
        assert core.mover is not None
        return core.mover

    @property
    def engine(self) -> SpyState:
        """The engine's state (the whole truth: for tools, not for players)."""
        return self.core.engine

    def current_player(self) -> int:
        """The player picked to move, or OpenSpiel's chance / terminal ids (cached)."""
        return self.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.engine.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt, or who moves next, with probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if self.player == CHANCE:
            core.apply_chance(int(action))
        else:
            core.apply_move(int(action))
        self.player = self._work_out_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.core.engine.phase == PLAYING:
                return f"player {action} moves"
            return f"card {KIND_TEXT[action]}"
        return spy_text(action)

    def is_terminal(self) -> bool:
        """True when every round has been played (S16)."""
        return self.player == TERMINAL

    def returns(self) -> list[float]:
        """Each player's negated match total at the end (0 before)."""
        engine = self.core.engine
        if not engine.is_terminal():
            return [0.0] * engine.num_players
        return engine.returns()

    def information_state_string(self, player: int | None = None) -> str:
        """Everything ``player`` has seen: all of it public (see the module docstring)."""
        if player is None:
            player = self.current_player()
        return f"p{player} " + " ".join(self.core.public)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpySpielState:
        """A state nobody (``player_id`` included) can tell from this one, the unseen
        cards dealt anew (see the module docstring)."""
        rng = rng_from(probability_sampler)
        other: SpySpielState = self.get_game().new_initial_state()
        other.core = self.core.resampled(rng)
        other.player = self.player
        return other

    def __str__(self) -> str:
        core = self.core
        dealing = f"\ndealing: {len(core.building)} cards" if core.building else ""
        return repr(core.engine) + dealing


class _SpyObserver(Observer):
    """OpenSpiel's observer interface for Spy: the table vector as the player sees it
    (:mod:`cardtable.games.spy.encoding`) for both tensors; as text, the public history
    (perfect recall) or the table's view now. Everything is public (S4-S5): any
    ``private_info`` gives the same, and the private part is empty."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, players: int) -> None:
        super().__init__(iig_obs_type, params, table_size(players), 0)

    def set_from(self, state: SpySpielState, player: int) -> None:
        if self.part != PRIVATE:
            self.tensor[:] = table_of(state.core.engine, player)

    def string_from(self, state: SpySpielState, player: int) -> str:
        if self.part == PRIVATE:
            return ""
        if self.perfect_recall:
            return state.information_state_string(player)
        return str(state.core.engine.view(None if self.part == PUBLIC else player).to_dict())
