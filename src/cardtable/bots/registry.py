"""Bots by name, budgets from text, and the levels offered to people.

A bot is named on the command line as ``NAME`` or ``NAME:ITERATIONS``
(``ismcts:1000``), ``learned:PATH`` (a trained policy file, see ``docs/rl.md``),
``alpha:N:PATH`` (a search with a trained network; ``alpha:N`` the shipped one) or by a
level (``easy``, ``medium``, ``hard``). Modules are imported
only when a bot is made, so naming bots costs nothing.

>>> spec = parse_bot_spec("candidate", "ismcts:500")
>>> spec.name, spec.iterations, spec.label
('ismcts', 500, 'ismcts:500')
>>> parse_bot_spec("spy", "hard").label
'model'
>>> parse_bot_spec("candidate", "minimax")
Traceback (most recent call last):
...
cardtable.errors.BadOptions: unknown candidate bot 'minimax': expected one of random, greedy, \
ismcts, ismcts-deal, learned, alpha (or a level: easy, medium, hard)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from cardtable.errors import BadOptions

__all__ = [
    "BOTS",
    "LEVELS",
    "BotInfo",
    "BotSpec",
    "make_bot",
    "parse_bot_spec",
]


@dataclass(frozen=True)
class BotInfo:
    """What the registry knows of one bot before importing it."""

    game: str
    name: str
    #: ``module:Class`` of the implementation; the class takes ``seed=`` and
    #: ``iterations=`` (when it searches) keyword arguments.
    target: str
    summary: str
    #: The default iterations per move, or None for a bot that does not search.
    default_iterations: int | None = None
    #: False for bots that may not take a seat in a fair game (the Spy oracle).
    fair: bool = True
    #: True for bots that read a file (``learned:PATH``): the class takes ``path=``.
    takes_path: bool = False


BOTS: dict[str, dict[str, BotInfo]] = {
    "candidate": {
        "random": BotInfo(
            "candidate",
            "random",
            "cardtable.bots.candidate_random:RandomBot",
            "a uniformly random legal move",
        ),
        "greedy": BotInfo(
            "candidate",
            "greedy",
            "cardtable.bots.candidate_greedy:GreedyBot",
            "the documented one-move heuristic (cardtable.bots.candidate_greedy)",
        ),
        "ismcts": BotInfo(
            "candidate",
            "ismcts",
            "cardtable.bots.candidate_ismcts:IsmctsBot",
            "information-set Monte Carlo tree search over sampled consistent deals "
            "(playouts cut at 12 moves)",
            default_iterations=1000,
        ),
        "ismcts-deal": BotInfo(
            "candidate",
            "ismcts-deal",
            "cardtable.bots.candidate_ismcts:DealIsmctsBot",
            "ismcts with every playout played to the end of the deal (slower a simulation)",
            default_iterations=1000,
        ),
        "learned": BotInfo(
            "candidate",
            "learned",
            "cardtable.bots.learned:LearnedBot",
            "a policy trained with `cardtable train candidate` (learned:PATH; learned alone: "
            "the shipped one)",
            takes_path=True,
        ),
        "alpha": BotInfo(
            "candidate",
            "alpha",
            "cardtable.bots.candidate_alpha:AlphaBot",
            "PUCT search over sampled consistent deals guided by a policy-and-value network "
            "(alpha:N:PATH; alpha:N: the shipped network)",
            default_iterations=200,
            takes_path=True,
        ),
    },
    "spy": {
        "random": BotInfo(
            "spy",
            "random",
            "cardtable.bots.spy_random:RandomBot",
            "a random legal move, resigning only when blocked",
        ),
        "greedy": BotInfo(
            "spy",
            "greedy",
            "cardtable.bots.spy_greedy:GreedyBot",
            "place what fits (points pile first), else open, else turn",
        ),
        "planner": BotInfo(
            "spy",
            "planner",
            "cardtable.bots.spy_planner:PlannerBot",
            "look-ahead over sampled racing-deck orders, fewest expected moves to the call",
            default_iterations=8,
        ),
        "expectimax": BotInfo(
            "spy",
            "expectimax",
            "cardtable.bots.spy_expecti:ExpectiBot",
            "expectimax over the ranks of unseen cards, then the planner once the deck is known",
            default_iterations=16,
        ),
        "model": BotInfo(
            "spy",
            "model",
            "cardtable.bots.spy_model:ModelBot",
            "the exactly solved order-blind model of one race (the fair-play floor), "
            "then the planner once the deck is known",
            default_iterations=16,
        ),
        "oracle": BotInfo(
            "spy",
            "oracle",
            "cardtable.bots.spy_oracle:OracleBot",
            "knows the true card order: the shortest race (analysis only)",
            default_iterations=200_000,
            fair=False,
        ),
        "learned": BotInfo(
            "spy",
            "learned",
            "cardtable.bots.learned:SpyLearnedBot",
            "a race policy trained with `cardtable train spy` (learned:PATH)",
            takes_path=True,
        ),
    },
}


@dataclass(frozen=True)
class BotSpec:
    """A bot as asked for: its name and budget (``None``: the bot's default)."""

    game: str
    name: str
    iterations: int | None = None
    #: The file a ``learned`` bot reads (None: the shipped one).
    path: str | None = None

    @property
    def label(self) -> str:
        """How reports name it: ``greedy``, ``ismcts:1000``, ``learned:runs/a``."""
        if self.path is not None and self.iterations is not None:
            return f"{self.name}:{self.iterations}:{self.path}"
        if self.path is not None:
            return f"{self.name}:{self.path}"
        return self.name if self.iterations is None else f"{self.name}:{self.iterations}"

    @property
    def info(self) -> BotInfo:
        """The registry entry."""
        return BOTS[self.game][self.name]


#: Levels for people: a bot and its budget per game. Spy's run from a first-time
#: player's rule (``easy``: greedy) to the fair-play floor (``hard``: the solved model
#: player); each level's race length and think time are measured in ``docs/bots.md``.
LEVELS: dict[str, dict[str, BotSpec]] = {
    "candidate": {
        "easy": BotSpec("candidate", "greedy"),
        "medium": BotSpec("candidate", "ismcts", 200),
        "hard": BotSpec("candidate", "ismcts", 2000),
    },
    "spy": {
        "easy": BotSpec("spy", "greedy"),
        "medium": BotSpec("spy", "planner", 4),
        "hard": BotSpec("spy", "model"),
    },
}


def parse_bot_spec(game: str, text: str, *, allow_unfair: bool = False) -> BotSpec:
    """Read ``NAME``, ``NAME:ITERATIONS`` or a level; raise :class:`BadOptions` with a
    one-line message listing what is accepted."""
    if game not in BOTS:
        raise BadOptions(f"unknown game {game!r}: expected one of {', '.join(BOTS)}")
    bots = BOTS[game]
    name, sep, budget = text.strip().partition(":")
    name = name.strip().lower()
    accepted = f"{', '.join(bots)} (or a level: {', '.join(LEVELS[game])})"
    if name in LEVELS[game]:
        if sep:
            raise BadOptions(
                f"level {name!r} takes no budget: write {name} or a bot, e.g. ismcts:500"
            )
        return LEVELS[game][name]
    if name not in bots:
        raise BadOptions(f"unknown {game} bot {name!r}: expected one of {accepted}")
    info = bots[name]
    if not info.fair and not allow_unfair:
        raise BadOptions(
            f"the {game} {name} sees hidden cards and cannot take a seat in a fair game; "
            f"use `cardtable analyse {game}` (fair bots: "
            f"{', '.join(n for n, i in bots.items() if i.fair)})"
        )
    if info.takes_path and info.default_iterations is not None:
        return _search_with_file(game, name, budget.strip() if sep else None, text)
    if info.takes_path:
        return _file_bot(game, name, budget.strip() if sep else None)
    if not sep:
        return BotSpec(game, name)
    if info.default_iterations is None:
        raise BadOptions(f"{game} bot {name!r} does not search and takes no budget: write {name}")
    return BotSpec(game, name, _iterations(info, budget, text))


def _iterations(info: BotInfo, budget: str, text: str) -> int:
    """The iterations written in ``budget``, or :class:`BadOptions`."""
    try:
        iterations = int(budget)
    except ValueError:
        iterations = 0
    if iterations < 1:
        raise BadOptions(
            f"bad budget {budget!r} in {text!r}: expected a positive whole number of "
            f"iterations, e.g. {info.name}:{info.default_iterations}"
        )
    return iterations


def _search_with_file(game: str, name: str, rest: str | None, text: str) -> BotSpec:
    """A search that reads a network (``alpha``, ``alpha:N``, ``alpha:N:PATH``), its
    network checked now, as :func:`_file_bot` checks a policy."""
    info = BOTS[game][name]
    budget, sep, path = (rest or "").partition(":")
    iterations = _iterations(info, budget, text) if rest is not None else None
    if sep and not path.strip():
        raise BadOptions(f"write {name}:N:PATH (a network file or training folder) or {name}:N")
    from cardtable.bots.candidate_alpha import AlphaBot

    spec = BotSpec(game, name, iterations, path=path.strip() if sep else None)
    AlphaBot(path=spec.path).network()
    return spec


def _file_bot(game: str, name: str, path: str | None) -> BotSpec:
    """A bot that reads a file (``learned:PATH``), checked now: a missing or unreadable
    file, or one of another game, is a :class:`BadOptions` before any game starts."""
    from cardtable.bots.learned import check_policy, shipped_policy

    if path == "":
        raise BadOptions(f"write {name}:PATH (a policy file or training folder) or {name} alone")
    check_policy(game, str(shipped_policy(game)) if path is None else path)
    return BotSpec(game, name, path=path)


def make_bot(spec: BotSpec, seed: int) -> Any:
    """A fresh bot for ``spec``, seeded with ``seed``."""
    info = spec.info
    module_name, _, class_name = info.target.partition(":")
    factory = cast(Callable[..., Any], getattr(importlib.import_module(module_name), class_name))
    if info.takes_path and info.default_iterations is not None:
        iterations = spec.iterations or info.default_iterations
        return factory(seed=seed, iterations=iterations, path=spec.path)
    if info.takes_path:
        return factory(seed=seed, path=spec.path)
    if info.default_iterations is None:
        return factory(seed=seed)
    return factory(seed=seed, iterations=spec.iterations or info.default_iterations)
