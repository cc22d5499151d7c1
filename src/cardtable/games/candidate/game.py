"""The Candidate game object: facts declared up front, new matches, records, replay.

>>> GAME.num_players, GAME.num_distinct_actions
(2, 35425)
>>> GAME.max_game_length(CandidateOptions(deals=1))
365
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.errors import BadOptions, CardtableError
from cardtable.games.base import GameInfo
from cardtable.games.candidate.actions import NUM_ACTIONS
from cardtable.games.candidate.match import INFO, CandidateMatch
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.records import CandidateReplay, replay_record
from cardtable.games.candidate.state import CandidateState
from cardtable.games.candidate.summary import with_capture_scores
from cardtable.record import RecordReader

__all__ = ["GAME", "CandidateGame"]


@dataclass(frozen=True)
class CandidateGame:
    """Candidate as the rest of cardtable (and OpenSpiel-minded code) sees it."""

    info: GameInfo = INFO
    name: str = "candidate"
    title: str = "Candidate («Кандидат»)"
    #: C1: always two players.
    num_players: int = 2
    num_distinct_actions: int = NUM_ACTIONS
    #: Utilities of :meth:`CandidateState.returns`: win +1, draw 0, loss -1 (C17).
    min_utility: float = -1.0
    max_utility: float = 1.0
    is_zero_sum: bool = True

    @staticmethod
    def max_game_length(options: CandidateOptions | Mapping[str, Any] | None = None) -> int:
        """An upper bound on the moves of a match.

        Per deal: 1 deal; each other card leaves the piles by one lobby or draw move
        (52·decks); each card is played once (52·decks); every pass ends or follows a
        play, closes a trick or is a C12 pass (at most 4 per lobby card or play).
        """
        options = _options(options)
        cards = 52 * options.decks
        return options.deals * (1 + 7 * cards)

    @staticmethod
    def max_deal_score(options: CandidateOptions | Mapping[str, Any] | None = None) -> int:
        """An upper bound on one player's score in a deal (C15): a card scores at most
        2 points × 13 cards in its run, or 12 in a set of 12 (3 decks)."""
        return 26 * 52 * _options(options).decks

    @staticmethod
    def utility_bounds(
        options: CandidateOptions | Mapping[str, Any] | None = None,
    ) -> tuple[float, float]:
        """Win +1, draw 0, loss -1 whatever the options (C17)."""
        return (-1.0, 1.0)

    @staticmethod
    def check_options(options: Mapping[str, Any], players: int = 2) -> dict[str, Any]:
        """``decks`` (1-3) and ``deals`` (1-100), defaults filled in; two players (C1).

        Raises :class:`~cardtable.errors.BadOptions`.
        """
        if players != 2:
            raise BadOptions(f"Candidate is a game for two players, not {players}")
        try:
            return CandidateOptions.from_dict(options).to_dict()
        except BadOptions:
            raise
        except CardtableError as exc:
            raise BadOptions(str(exc)) from None

    @staticmethod
    def new_match(
        *, seed: int | str, players: Sequence[str], options: Mapping[str, Any]
    ) -> CandidateMatch:
        """A match dealt from ``seed`` between ``players`` (the first dealer by lot, C2)."""
        return CandidateMatch.new(seed=seed, players=players, options=options)

    @staticmethod
    def new_initial_state(
        seed: int | str = 0, options: CandidateOptions | Mapping[str, Any] | None = None
    ) -> CandidateState:
        """A new match dealt from ``seed`` (first dealer by lot, C2)."""
        if not isinstance(options, CandidateOptions):
            options = CandidateOptions.from_dict(options)
        return CandidateState.new(seed, options)

    def new_record(
        self, *, seed: int, players: Sequence[str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A record of a match dealt from ``seed``: the first deal's piles and dealer, no
        moves. Raises :class:`~cardtable.errors.BadOptions` for bad options or players."""
        names = list(players)
        try:
            RecordReader.player_names(names, "players", low=2, high=2)
        except ValueError as exc:
            raise BadOptions(f"Candidate is a game for two players: {exc}") from None
        return self.new_initial_state(seed, options).to_record(names)

    @staticmethod
    def replay(record: Mapping[str, Any]) -> CandidateReplay:
        """Validate and replay a record (see :func:`replay_record`)."""
        return replay_record(record)

    @staticmethod
    def display_summary(record: Mapping[str, Any]) -> dict[str, Any]:
        """The replay summary of a record as a screen shows a deal's end: with each
        capture's score beside it (see :mod:`.summary`)."""
        return with_capture_scores(replay_record(record).summary())


def _options(options: CandidateOptions | Mapping[str, Any] | None) -> CandidateOptions:
    if isinstance(options, CandidateOptions):
        return options
    return CandidateOptions.from_dict(options or {})


#: The game, as :func:`cardtable.games.registry.find_game` returns it.
GAME = CandidateGame()
