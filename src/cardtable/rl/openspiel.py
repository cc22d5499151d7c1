"""Both games as OpenSpiel Python games, registered when this module is imported.

>>> import pyspiel
>>> import cardtable.rl.openspiel
>>> game = pyspiel.load_game("python_cardtable_candidate", {"deals": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 0.5), (1, 0.5)])

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
  seen (``CandidateState.information_state_string``). Observation tensor: the
  342-float vector of :mod:`cardtable.rl.candidate_encoding` (from p's view);
  observation string: p's view as text. No information-state tensor.
* ``resample_from_infostate(p, sampler)``: a state p cannot tell from this one, the
  cards p has not seen dealt anew (``CandidateState.resample_hidden``), so OpenSpiel's
  ``ISMCTSBot`` can play the game. The new state has the right information states,
  legal moves and future, but its ``history()`` is not rewritten (it starts empty).

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
  the cards it turned up (``information_state_string``). Observation tensor: the
  table vector of :mod:`cardtable.rl.spy_encoding`.

Version history: v0 (encodings version 1) — first release.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate import NUM_ACTIONS as CANDIDATE_ACTIONS
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import action_to_text as candidate_text
from cardtable.games.candidate.game import CandidateGame
from cardtable.games.spy import GAME as SPY
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy import action_to_text as spy_text
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER
from cardtable.games.spy.deal import cards_per_player
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS
from cardtable.games.spy.state import BETWEEN_ROUNDS, PLAYING
from cardtable.rl.candidate_encoding import OBSERVATION_SIZE, encode_view
from cardtable.rl.spy_encoding import table_of, table_size

__all__ = [
    "CANDIDATE_GAME_TYPE",
    "SPY_GAME_TYPE",
    "CandidateSpielGame",
    "CandidateSpielState",
    "SpySpielGame",
    "SpySpielState",
]

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)

CANDIDATE_GAME_TYPE = pyspiel.GameType(
    short_name="python_cardtable_candidate",
    long_name="cardtable Candidate",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"decks": 1, "deals": 1},
)

SPY_GAME_TYPE = pyspiel.GameType(
    short_name="python_cardtable_spy",
    long_name="cardtable Spy vs Spy",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": 2,
        "rounds": 1,
        "bonus": 20,
        "count_points_pile": False,
        "full_decks": False,
        "move_limit": 200,
    },
)


def _rng_from(sampler: Callable[[], float]) -> random.Random:
    """A generator seeded from OpenSpiel's probability sampler (uniform in [0, 1))."""
    return random.Random(int(sampler() * 2**53))


# ------------------------------------------------------------------- Candidate


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

    def apply_chance(self, outcome: int) -> None:
        if outcome not in dict(self.chance_outcomes()):
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
        info = pyspiel.GameInfo(
            num_distinct_actions=CANDIDATE_ACTIONS,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=CandidateGame.max_game_length(options),
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

    @property
    def engine(self) -> CandidateState:
        """The engine's state (the whole truth: for tools, not for players)."""
        return self.core.engine

    def current_player(self) -> int:
        """The player to move, or OpenSpiel's chance / terminal ids."""
        core = self.core
        if core.is_chance():
            return _CHANCE
        return _TERMINAL if core.engine.is_terminal() else core.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The lot (0 or 1), or the next pile card's kind, with probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.is_chance():
            core.apply_chance(int(action))
            return
        if not core.engine.is_legal(action):
            raise ValueError(f"action {action} is not legal now: {core.engine.legal_moves()}")
        core.engine.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if not self.core.lot_drawn:
                return f"first dealer {action}"
            return f"card {KIND_TEXT[action]}"
        return candidate_text(action)

    def is_terminal(self) -> bool:
        """True when every deal has been played."""
        core = self.core
        return core.lot_drawn and core.engine.is_terminal()

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
        rng = _rng_from(probability_sampler)
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
        return other

    def __str__(self) -> str:
        core = self.core
        if not core.lot_drawn:
            return "lot for the first dealer"
        dealing = f"\ndealing: {len(core.building)} cards" if core.building else ""
        return str(core.engine) + dealing


class _CandidateObserver:
    """OpenSpiel's observer interface: the perfect-recall information state (strings
    only), or the player's view (the 342-float vector and the view as text)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor: np.ndarray[Any, Any] | None
        if self.perfect_recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CandidateSpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = encode_view(state.core.engine.view(player), player)

    def string_from(self, state: CandidateSpielState, player: int) -> str:
        engine = state.core.engine
        if self.perfect_recall:
            return engine.information_state_string(player)
        return engine.view(player).describe()


# ------------------------------------------------------------------- Spy vs Spy


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
        SPY.new_state(players, seed=0, options=options)  # S1: checks the player count
        low, high = SPY.utility_bounds(options)
        moves = options.rounds * players * (move_limit + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=players * ACTIONS_PER_PLAYER,
            max_chance_outcomes=52,
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

    @property
    def engine(self) -> SpyState:
        """The engine's state (the whole truth: for tools, not for players)."""
        return self.core.engine

    def current_player(self) -> int:
        """The player picked to move, or OpenSpiel's chance / terminal ids."""
        core = self.core
        if core.engine.is_terminal():
            return _TERMINAL
        if core.is_chance():
            return _CHANCE
        assert core.mover is not None
        return core.mover

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.engine.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt, or who moves next, with probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.is_chance():
            core.apply_chance(int(action))
        else:
            core.apply_move(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self.core.engine.phase == PLAYING:
                return f"player {action} moves"
            return f"card {KIND_TEXT[action]}"
        return spy_text(action)

    def is_terminal(self) -> bool:
        """True when every round has been played (S16)."""
        return bool(self.core.engine.is_terminal())

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

    def __str__(self) -> str:
        core = self.core
        dealing = f"\ndealing: {len(core.building)} cards" if core.building else ""
        return repr(core.engine) + dealing


class _SpyObserver:
    """OpenSpiel's observer interface for Spy: the public history (perfect recall), or
    the table as the player sees it now (vector and text)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, players: int) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor: np.ndarray[Any, Any] | None
        if self.perfect_recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            self.tensor = np.zeros(table_size(players), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: SpySpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = table_of(state.core.engine, player)

    def string_from(self, state: SpySpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return str(state.core.engine.view(player).to_dict())


pyspiel.register_game(CANDIDATE_GAME_TYPE, CandidateSpielGame)
pyspiel.register_game(SPY_GAME_TYPE, SpySpielGame)
