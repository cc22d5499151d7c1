"""Which bot plays which game: bot specs read, and a seat's player made from them.

``--bot`` takes a bot the project knows (``ismcts:300``, ``model``, ``learned:PATH``,
a level such as ``hard``: :func:`cardtable.bots.registry.parse_bot_spec`) or a class of
the user's, ``module:Class`` (the :class:`~cardtable.bots.base.Bot` protocol: made with
``seed=``, asked ``choose(info)`` for an action id). ``GAME=SPEC`` names the game; a
spec without one plays every game that has such a bot (a named game's spec wins).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from cardtable.botclient.candidate_seat import CandidateSeat
from cardtable.botclient.spy_seat import SpySeat
from cardtable.bots.registry import BOTS, LEVELS, BotSpec, make_bot, parse_bot_spec
from cardtable.errors import BadOptions

__all__ = ["Roster", "SeatPlayer", "read_roster"]


class Seat(Protocol):
    """A seat's follower: takes the stream's messages, makes the information set."""

    state: dict[str, Any] | None

    def observe(self, message: dict[str, Any]) -> None: ...

    def info(self) -> Any: ...


#: A bot maker: ``make(seed)`` gives a fresh bot.
Maker = Callable[[int], Any]


@dataclass(frozen=True)
class Roster:
    """The bot of each game the client plays, and how each is named in the log."""

    makers: dict[str, Maker]
    labels: dict[str, str]

    @property
    def games(self) -> list[str]:
        """The games the client can play."""
        return sorted(self.makers)


def _user_class(text: str) -> Maker | None:
    """A ``module:Class`` bot of the user's, or ``None`` when ``text`` names one of the
    project's bots (``ismcts:300``, ``learned:PATH``)."""
    module_name, sep, class_name = text.partition(":")
    known = {name for bots in BOTS.values() for name in bots} | set(LEVELS["candidate"])
    if not sep or not class_name.isidentifier() or module_name.strip().lower() in known:
        return None
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise BadOptions(f"cannot load the bot {text!r}: {exc}") from None

    def make(seed: int) -> Any:
        try:
            return factory(seed=seed)
        except TypeError:  # a class that takes no seed
            return factory()

    return make


def read_roster(specs: Sequence[str]) -> Roster:
    """The roster of the ``--bot`` options (module docstring); :class:`BadOptions`
    for a spec nothing plays."""
    makers: dict[str, Maker] = {}
    labels: dict[str, str] = {}
    # A spec naming its game wins over one for every game, whatever their order.
    for text in sorted(specs, key=lambda spec: "=" in spec.partition(":")[0]):
        game, sep, spec = text.partition("=")
        games = [game] if sep else list(BOTS)
        spec = spec if sep else text
        user = _user_class(spec)
        found = False
        for name in games:
            if name not in BOTS:
                raise BadOptions(f"unknown game {name!r}: expected one of {', '.join(BOTS)}")
            if user is not None:
                makers[name], labels[name], found = user, spec, True
                continue
            try:
                parsed = parse_bot_spec(name, spec)
            except BadOptions:
                if sep:
                    raise
                continue
            makers[name] = partial(_registry_bot, parsed)
            labels[name], found = parsed.label, True
        if not found:
            raise BadOptions(f"no game has a bot {spec!r}")
    return Roster(makers, labels)


def _registry_bot(spec: BotSpec, seed: int) -> Any:
    return make_bot(spec, seed)


class SeatPlayer:
    """One seat of one game: follows the seat's stream and chooses its moves."""

    def __init__(self, game: str, seat: int, maker: Maker, seed: int) -> None:
        self.bot = maker(seed)
        self.follower: Seat = (
            CandidateSeat(seat, random.Random(seed)) if game == "candidate" else SpySeat(seat)
        )

    def observe(self, message: dict[str, Any]) -> None:
        """Take in one message of the seat's stream."""
        self.follower.observe(message)

    def choose(self) -> str:
        """The bot's move now, as record text."""
        info = self.follower.info()
        return str(info.text(self.bot.choose(info)))
