"""The game's facts, declared up front, and its entry points for the rest of cardtable.

>>> GAME.name, GAME.num_distinct_actions, GAME.max_players
('spy', 136, 8)
>>> GAME.utility_bounds(SpyOptions(rounds=1))
(-20.0, 20.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.errors import BadOptions, BadRecord, CardtableError
from cardtable.games.base import GameInfo
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, MAX_PILES, NUM_ACTIONS
from cardtable.games.spy.deal import POINTS_PILE_SIZE
from cardtable.games.spy.match import INFO, SpyMatch
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS, SpyOptions, check_player_count
from cardtable.games.spy.records import SpyReplay, new_record, replay_record
from cardtable.games.spy.state import SpyState

__all__ = ["GAME", "SpyGame"]


class SpyGame:
    """Spy vs Spy as the generic machinery (and OpenSpiel-minded code) sees it."""

    info: GameInfo = INFO
    name = "spy"
    title = "Spy vs Spy («Шпигун проти шпигуна»)"
    #: S1
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    #: Action ids: ``player * actions_per_player + local`` (see ``actions``).
    actions_per_player = ACTIONS_PER_PLAYER
    num_distinct_actions = NUM_ACTIONS
    #: S8
    max_piles = MAX_PILES
    #: S3
    points_pile_size = POINTS_PILE_SIZE
    #: No turns: any player may move at any moment.
    simultaneous = True
    #: Deals come from the seed or the record: the state is never a chance node.
    chance_nodes = False
    #: Turning is unlimited (S9), so a round has no longest length; ``move_limit``
    #: bounds it at ``players * (move_limit + 1)`` moves.

    @staticmethod
    def max_game_length(options: SpyOptions | Mapping[str, Any] | None = None) -> int | None:
        """None: turning is unlimited (S9), so a round has no longest length; an engine
        ``move_limit`` bounds it at ``players * (move_limit + 1)`` moves."""
        return None

    def utility_bounds(self, options: SpyOptions | Mapping[str, Any]) -> tuple[float, float]:
        """Lowest and highest :meth:`SpyState.returns` value of a whole match
        (returns are negated totals; S14-S16)."""
        if not isinstance(options, SpyOptions):
            options = SpyOptions.from_dict(options)
        extra = POINTS_PILE_SIZE if options.count_points_pile else 0
        worst_round = max(options.bonus, -options.bonus, 0) + extra
        best_round = min(options.bonus, -options.bonus, 0)
        return (-float(worst_round * options.rounds), -float(best_round * options.rounds))

    def new_state(
        self,
        players: int | Sequence[str],
        *,
        seed: int,
        options: SpyOptions | None = None,
        move_limit: int | None = None,
    ) -> SpyState:
        """A match dealt from ``seed`` with round 1 in play."""
        return SpyState.deal(players, seed=seed, options=options, move_limit=move_limit)

    @staticmethod
    def check_options(options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """``full_decks``, ``bonus`` (-1000 to 1000, S15),
        ``count_points_pile``, ``rounds`` (1-100) checked for
        ``players`` players (S1), defaults filled in. Raises
        :class:`~cardtable.errors.BadOptions`."""
        try:
            check_player_count(players)
            return SpyOptions.from_dict(options).to_dict()
        except BadRecord as exc:
            params = {**exc.params, "option": exc.field}
            raise BadOptions(str(exc), code=exc.code, params=params) from None
        except (CardtableError, ValueError) as exc:
            raise BadOptions(str(exc)) from None

    @staticmethod
    def new_match(*, seed: int, players: Sequence[str], options: Mapping[str, Any]) -> SpyMatch:
        """A match whose rounds are dealt from ``seed``."""
        return SpyMatch.new(seed=seed, players=players, options=options)

    def new_record(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A record with round 1's cards dealt from ``seed`` and no moves."""
        return new_record(seed, players, options)

    def replay(self, record: Mapping[str, Any]) -> SpyReplay:
        """Validate and replay a record (``docs/records.md``)."""
        return replay_record(record)

    @staticmethod
    def display_summary(record: Mapping[str, Any]) -> dict[str, Any]:
        """The replay summary as a screen shows it: Spy's summary as it is."""
        return replay_record(record).summary()


GAME = SpyGame()
