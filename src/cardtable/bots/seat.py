"""A bot in a seat: how every face gets a bot's move for any seat at any moment.

A seat is played by a bot named by a level (``easy``, ``medium``, ``hard``) or a
registry spec (``planner:16``). The bot is given ``match.bot_info(seat)`` — exactly what
that seat may know now, whoever played it before — and answers with an action id. The
thinking is split from the match so that a server can run it on another thread or
process: :meth:`SeatBot.think` takes only the information set and is picklable.

Bots are deterministic (same seed, same information set, same move), so a made bot is
kept per process and reused (:func:`_made`).

>>> from cardtable.games.registry import find_game
>>> match = find_game("spy").new_match(seed=2, players=["Ann", "Bob"], options={"rounds": 1})
>>> bot = SeatBot.of("spy", "easy", seed=1)
>>> bot.choose(match, 0) in match.legal_actions(0)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardtable.bots.registry import BotSpec, make_bot, parse_bot_spec
from cardtable.games.base import Match

__all__ = ["SeatBot"]


@lru_cache(maxsize=128)
def _made(spec: BotSpec, seed: int) -> Any:
    """The registry's bot for ``spec`` and ``seed``, made once per process."""
    return make_bot(spec, seed)


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A fair bot of the registry, ready to play any seat of its game."""

    spec: BotSpec
    seed: int

    @classmethod
    def of(cls, game: str, bot: str, seed: int) -> SeatBot:
        """The bot named ``bot`` (a level or a spec) for ``game``.

        Raises :class:`~cardtable.errors.BadOptions` for an unknown or unfair bot.
        """
        return cls(parse_bot_spec(game, bot), seed)

    @property
    def label(self) -> str:
        """How the bot is named to people (``planner:16``)."""
        return self.spec.label

    def think(self, info: Any) -> int:
        """The bot's move for an information set (from ``match.bot_info``)."""
        return int(_made(self.spec, self.seed).choose(info))

    def choose(self, match: Match, seat: int) -> int:
        """The bot's move for ``seat`` of ``match`` now."""
        return self.think(match.bot_info(seat))
