"""A bot playing one seat of a match: where every face gets a bot's move.

A face — the server's table, the terminal, the arena — hands a seat to a bot when its
player is away, their clock runs out, they ask for a hint or give the seat away. It
makes a :class:`SeatBot` from the game, a level (``easy``, ``medium``, ``hard``) or a bot
(``planner:16``, a :class:`~cardtable.bots.registry.BotSpec`), a seed and the seat, and
asks it for the seat's move with the match. The bot decides from
:meth:`Match.bot_info <cardtable.games.base.Match.bot_info>` alone: exactly what the
seat may know at that moment, whoever played the seat until then, so a bot may take a
seat at any point of a match (``docs/bots.md``).

The thinking may run away from the event loop, in a thread or another process: take the
information set where the match lives (:meth:`SeatBot.info`, cheap) and give it to
:meth:`SeatBot.think` there. A :class:`SeatBot` and the information sets of both games
pickle, so ``think`` runs in a worker process as well::

    info = bot.info(match)                                  # where the match lives
    action = await loop.run_in_executor(pool, bot.think, info)
    match.apply(bot.seat, action)

A bot that errs raises: a move its seat may not make is a :class:`BotError` (a bug in
the bot), never replaced by another move.

>>> from cardtable.games.registry import find_game
>>> match = find_game("spy").new_match(seed=3, players=["Ann", "Bob"], options={})
>>> bot = SeatBot.make("spy", "easy", seed=1, seat=1)
>>> action = bot.choose(match)
>>> action in match.legal_actions(1), bot.label
(True, 'greedy')
>>> match.apply(1, action).seat
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardtable.bots.base import Analysis
from cardtable.bots.registry import BOTS, BotSpec, make_bot, parse_bot_spec
from cardtable.errors import BadOptions
from cardtable.games.base import Match

__all__ = ["BotError", "SeatBot"]


class BotError(RuntimeError):
    """A bot chose a move its seat may not make: a bug in the bot, to be fixed, never
    covered up by playing another move."""


@lru_cache(maxsize=64)
def _engine_bot(spec: BotSpec, seed: int) -> Any:
    """The registry's bot, made once per process: bots are deterministic and keep
    nothing between decisions (the same seed and information set give the same move)."""
    return make_bot(spec, seed)


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot of :mod:`cardtable.bots` playing seat ``seat`` (see the module docstring).

    Made with :meth:`make`; immutable and picklable (only the bot's name, budget, seed
    and seat are kept; the bot itself is made once per process when first needed).
    """

    spec: BotSpec
    seed: int
    seat: int

    def __post_init__(self) -> None:
        if self.spec.game not in BOTS or self.spec.name not in BOTS[self.spec.game]:
            raise BadOptions(f"unknown {self.spec.game} bot {self.spec.name!r}")
        if not self.spec.info.fair:
            raise BadOptions(
                f"the {self.spec.game} {self.spec.name} sees hidden cards and cannot "
                "take a seat in a fair game"
            )
        if self.seat < 0:
            raise BadOptions(f"a seat is numbered from 0, got {self.seat}")

    @classmethod
    def make(cls, game: str, bot: str | BotSpec, *, seed: int, seat: int) -> SeatBot:
        """A bot for ``seat`` of a ``game`` match: ``bot`` is a level (``hard``), a bot
        (``ismcts:500``) or a :class:`BotSpec`. Raises
        :class:`~cardtable.errors.BadOptions` for an unknown or unfair bot, or one of
        another game."""
        spec = parse_bot_spec(game, bot) if isinstance(bot, str) else bot
        if spec.game != game:
            raise BadOptions(f"{spec.label} is a {spec.game} bot, not a {game} bot")
        return cls(spec, seed, seat)

    @property
    def game(self) -> str:
        """The game it plays."""
        return self.spec.game

    @property
    def label(self) -> str:
        """How reports name the bot (``planner:16``)."""
        return self.spec.label

    def info(self, match: Match) -> Any:
        """The seat's information set now (``match.bot_info``): what :meth:`think`
        decides from."""
        if match.info.name != self.game:
            raise ValueError(f"a {self.game} bot cannot play a {match.info.name} match")
        if self.seat >= match.seats:
            raise ValueError(f"there is no seat {self.seat}: the match has {match.seats}")
        return match.bot_info(self.seat)

    def choose(self, match: Match) -> int:
        """The bot's move (an action id) for its seat now.

        Raises :class:`ValueError` when the seat has no move to make now (not its turn,
        out of the round, the match over) and :class:`BotError` when the bot errs.
        """
        return self.think(self.info(match))

    def think(self, info: Any) -> int:
        """The bot's move in the information set ``info`` of its seat (from
        :meth:`info`); it may run in another thread or process."""
        legal = self._legal(info)
        action = _engine_bot(self.spec, self.seed).choose(info)
        if action not in legal:
            raise BotError(
                f"{self.label} chose {action!r} for seat {self.seat}, "
                f"which is not among its legal moves {list(legal)}"
            )
        return int(action)

    def hint(self, match: Match) -> Analysis:
        """Every legal move of the seat now with the bot's value, best first."""
        return self.analyse(self.info(match))

    def analyse(self, info: Any) -> Analysis:
        """Every legal move of ``info`` with the bot's value, best first (may run in
        another thread or process, like :meth:`think`)."""
        self._legal(info)
        analysis: Analysis = _engine_bot(self.spec, self.seed).analyse(info)
        return analysis

    def _legal(self, info: Any) -> tuple[int, ...]:
        if info.player != self.seat:
            raise ValueError(f"this is the information of seat {info.player}, not {self.seat}")
        legal: tuple[int, ...] = tuple(info.legal)
        if not legal:
            raise ValueError(f"seat {self.seat} has no move to make now")
        return legal
