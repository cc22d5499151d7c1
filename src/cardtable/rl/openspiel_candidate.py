"""Candidate as an OpenSpiel Python game, ``python_cardtable_candidate``.

Registered by importing :mod:`cardtable.rl.openspiel`. The game's facts (name, title,
players, distinct actions, utility bounds, longest match) come from
:data:`cardtable.games.candidate.GAME`.

``python_cardtable_candidate`` — Candidate, two players, sequential, zero-sum.

* Parameters: ``decks`` (1–3, default 1), ``deals`` (default 1; the engine's matches
  have 12).
* Chance: the first dealer by lot (C2: outcomes 0 and 1, one half each), then every
  deal's four suit piles card by card (C3): pile S top first, then H, D, C; each
  outcome is a card kind (0..51) of the pile's suit, with probability copies left /
  cards left. Each deal of the match is dealt this way before its first move.
* Actions: the engine's dense ids (:mod:`cardtable.games.candidate.actions`,
  35,425 distinct; see :mod:`cardtable.rl.candidate_v0` for the table).
* Returns: +1 / −1 to the match's winner / loser, 0 each on a draw (C17), at the end.
* ``information_state_string(p)``: the engine's perfect-recall key of everything p has
  seen (``CandidateState.information_state_string``); ``observation_string(p)``: p's
  view as text.
* ``information_state_tensor(p)`` and ``observation_tensor(p)``: both the
  342-float vector of :mod:`cardtable.games.candidate.encoding` (encoding version 1) of
  p's view, the very vector the PettingZoo environment :mod:`cardtable.rl.candidate_v0`
  observes; shape ``[342]`` (``information_state_tensor_shape()``,
  ``observation_tensor_shape()``). The view holds p's hand and the deal's whole public
  record (lobby, captures, discards C9, piles, hand sizes and suits, scores), so the
  vector is a function of p's information state; it does not keep the order of the
  moves, which only the perfect-recall string does. Before the lot and while a deal is
  being dealt it shows the deal before its first move.
* ``resample_from_infostate(p, sampler)``: a state p cannot tell from this one, the
  cards p has not seen dealt anew (``CandidateState.resample_hidden``), so OpenSpiel's
  ``ISMCTSBot`` can play the game. The new state has the right information states,
  legal moves and future, but its ``history()`` is not rewritten (it starts empty).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyspiel

from cardtable.cards import KIND_TEXT, NUM_KINDS
from cardtable.games.candidate import GAME as CANDIDATE
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import action_to_text as candidate_text
from cardtable.games.candidate.encoding import OBSERVATION_SIZE, encode_view
from cardtable.rl.openspiel_shared import (
    CHANCE,
    PRIVATE,
    PUBLIC,
    SEAT,
    TERMINAL,
    Observer,
    game_type,
    rng_from,
)

__all__ = ["CANDIDATE_GAME_TYPE", "CandidateSpielGame", "CandidateSpielState"]

#: Two players, one wins what the other loses (C17).
CANDIDATE_GAME_TYPE = game_type(
    CANDIDATE.info,
    pyspiel.GameType.Utility.ZERO_SUM,
    {"decks": 1, "deals": 1},
)


def _sorted_piles(decks: int) -> tuple[tuple[int, ...], ...]:
    """Placeholder piles (each suit in rank order) for a deal not dealt yet."""
    return tuple(
        tuple(kind for kind in range(suit * 13, suit * 13 + 13) for _ in range(decks))
        for suit in range(4)
    )


class _CandidateCore:
    """The Python side of an OpenSpiel Candidate state: the engine state plus the deal
    being dealt by chance. OpenSpiel clones a Python state by deep-copying its
    attributes, so this copies itself with the engine's fast :meth:`clone`."""

    __slots__ = ("building", "dealt", "engine", "lot_drawn", "options")

    def __init__(self, options: CandidateOptions) -> None:
        self.options = options
        #: C2: has the first dealer been drawn yet?
        self.lot_drawn = False
        #: The engine's match; before the lot, a placeholder with dealer 0.
        self.engine = CandidateState.from_piles(_sorted_piles(options.decks), 0, options)
        #: Deals whose piles chance has fixed.
        self.dealt = 0
        #: Cards (kinds) of the deal being dealt so far: pile S top first, then H, D, C.
        self.building: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _CandidateCore:
        other = _CandidateCore.__new__(_CandidateCore)
        other.options = self.options
        other.lot_drawn = self.lot_drawn
        other.engine = self.engine.clone()
        other.dealt = self.dealt
        other.building = self.building[:]
        return other

    def is_chance(self) -> bool:
        return not self.lot_drawn or (
            not self.engine.is_terminal() and self.engine.deal_number > self.dealt
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.lot_drawn:
            return [(0, 0.5), (1, 0.5)]
        decks = self.options.decks
        size = 13 * decks
        suit = len(self.building) // size
        start = suit * size
        placed = self.building[start:]
        left = size - len(placed)
        outcomes = []
        for kind in range(suit * 13, suit * 13 + 13):
            copies = decks - placed.count(kind)
            if copies:
                outcomes.append((kind, copies / left))
        return outcomes

    def apply_chance(self, outcome: int, check: bool = True) -> None:
        if check and outcome not in dict(self.chance_outcomes()):
            raise ValueError(f"{outcome} is not a chance outcome here")
        if not self.lot_drawn:
            self.engine = CandidateState.from_piles(
                _sorted_piles(self.options.decks), outcome, self.options
            )
            self.lot_drawn = True
            return
        self.building.append(outcome)
        size = 13 * self.options.decks
        if len(self.building) == 4 * size:
            cards = self.building
            self.engine.set_deal_piles([cards[s * size : s * size + size] for s in range(4)])
            self.dealt += 1
            self.building = []


class CandidateSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Candidate as an OpenSpiel game (``python_cardtable_candidate``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = CandidateOptions.from_dict(
            {"decks": int(params.get("decks", 1)), "deals": int(params.get("deals", 1))}
        )
        low, high = CANDIDATE.utility_bounds(options)
        info = pyspiel.GameInfo(
            num_distinct_actions=CANDIDATE.info.num_distinct_actions,
            max_chance_outcomes=NUM_KINDS,
            num_players=CANDIDATE.info.max_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=CANDIDATE.max_game_length(options),
        )
        super().__init__(CANDIDATE_GAME_TYPE, info, options.to_dict())
        self.cardtable_options = options

    def new_initial_state(self) -> CandidateSpielState:
        """The match before the lot for the first dealer."""
        return CandidateSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The lot, then 52 × decks cards a deal."""
        options = self.cardtable_options
        return 1 + options.deals * 52 * options.decks

    def state_from(self, engine: CandidateState) -> CandidateSpielState:
        """The OpenSpiel state of an engine match with this game's options: the lot,
        every deal's piles and moves, replayed through :meth:`apply_action`, so the
        state's ``history()`` is complete."""
        if engine.options != self.cardtable_options:
            raise ValueError(f"options differ: {engine.options} vs {self.cardtable_options}")
        state = self.new_initial_state()
        deals = [(d.dealer, d.piles, d.moves) for d in engine.history]
        if not engine.is_terminal():
            deals.append((engine.dealer, engine.piles, tuple(engine.moves)))
        first_dealer = deals[0][0]
        state.apply_action(first_dealer)
        for _dealer, piles, moves in deals:
            for pile in piles:
                for kind in pile:
                    state.apply_action(kind)
            for action in moves:
                state.apply_action(action)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _CandidateObserver:
        """The information-state observer (perfect recall) or the view observer."""
        return _CandidateObserver(iig_obs_type, params)


class CandidateSpielState(pyspiel.State):  # type: ignore[misc]
    """A Candidate match as an OpenSpiel state (see the module docstring)."""

    def __init__(self, game: CandidateSpielGame) -> None:
        super().__init__(game)
        self.core = _CandidateCore(game.cardtable_options)
        #: The player to move (or CHANCE / TERMINAL), worked out once per move: OpenSpiel
        #: asks for it several times a move, through pybind.
        self.player = CHANCE
        #: Trusted states skip the legality check of a player's move: a search applies
        #: only moves it took from ``legal_actions()``. Resampled states are trusted.
        self.trusted = False

    def _update_player(self) -> None:
        core = self.core
        if core.is_chance():
            self.player = CHANCE
        else:
            self.player = TERMINAL if core.engine.is_terminal() else core.engine.current_player

    @property
    def engine(self) -> CandidateState:
        """The engine's state (the whole truth: for tools, not for players)."""
        return self.core.engine

    def current_player(self) -> int:
        """The player to move, or OpenSpiel's chance / terminal ids (cached)."""
        return self.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The lot (0 or 1), or the next pile card's kind, with probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if self.player == CHANCE:
            core.apply_chance(int(action), not self.trusted)
        else:
            engine = core.engine
            if not self.trusted and not engine.is_legal(action):
                raise ValueError(f"action {action} is not legal now: {engine.legal_moves()}")
            engine.apply_action(action)
            if core.dealt >= engine.deal_number or engine.is_terminal():
                self.player = TERMINAL if engine.is_terminal() else engine.current_player
                return
        self._update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if not self.core.lot_drawn:
                return f"first dealer {action}"
            return f"card {KIND_TEXT[action]}"
        return candidate_text(action)

    def is_terminal(self) -> bool:
        """True when every deal has been played."""
        return self.player == TERMINAL

    def returns(self) -> list[float]:
        """+1/−1 to the winner/loser at the end, 0 each on a draw or before the end."""
        return self.core.engine.returns()

    def information_state_string(self, player: int | None = None) -> str:
        """Everything ``player`` (default: the player to move) has seen."""
        if player is None:
            player = self.current_player()
        return self.core.engine.information_state_string(player)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CandidateSpielState:
        """A state ``player_id`` cannot tell from this one, unseen cards dealt anew."""
        rng = rng_from(probability_sampler)
        other: CandidateSpielState = self.get_game().new_initial_state()
        core = self.core.__deepcopy__({})
        if core.is_chance() and core.building:
            # Nobody has seen any card of a deal still being dealt.
            size = 13 * core.options.decks
            cards = []
            for suit, start in enumerate(range(0, len(core.building), size)):
                pool = [k for k in range(suit * 13, suit * 13 + 13) for _ in range(size // 13)]
                rng.shuffle(pool)
                cards.extend(pool[: len(core.building[start : start + size])])
            core.building = cards
        elif core.lot_drawn:
            core.engine = core.engine.resample_hidden(player_id, rng)
        other.core = core
        other.player = self.player
        other.trusted = True
        return other

    def __str__(self) -> str:
        core = self.core
        if not core.lot_drawn:
            return "lot for the first dealer"
        dealing = f"\ndealing: {len(core.building)} cards" if core.building else ""
        return str(core.engine) + dealing


class _CandidateObserver(Observer):
    """OpenSpiel's observer interface: the 342-float vector of the player's view
    (:mod:`cardtable.games.candidate.encoding`) for both tensors; as text, the
    perfect-recall information state or the view. Factored: the public part is the
    same vector of the spectator's view (no hand: indexes 0–51 are 0); the private
    part is the seat's hand, 52 floats (copies of each card kind). A hand is never
    shown to anyone else."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        super().__init__(iig_obs_type, params, OBSERVATION_SIZE, NUM_KINDS)

    def set_from(self, state: CandidateSpielState, player: int) -> None:
        engine = state.core.engine
        if self.part == SEAT:
            self.tensor[:] = encode_view(engine.view(player), player)
        elif self.part == PUBLIC:
            self.tensor[:] = encode_view(engine.view(None), player)
        else:
            self.tensor[:] = encode_view(engine.view(player), player)[:NUM_KINDS]

    def string_from(self, state: CandidateSpielState, player: int) -> str:
        engine = state.core.engine
        if self.part == PUBLIC:
            return engine.view(None).describe()
        if self.part == PRIVATE:
            return "Hand: " + " ".join(engine.view(player).hand or ())
        if self.perfect_recall:
            return engine.information_state_string(player)
        return engine.view(player).describe()
