"""Spy vs Spy («Шпигун проти шпигуна»): a patience race for 2-8 players.

Every player plays their own patience with their own cards at the same time; the
first to empty their points pile and call "finished" wins the round (S1-S17
in ``docs/rules/spy.en.md``; ``cardtable rules spy``).

Modules:

- :mod:`.options` — :class:`SpyOptions` (S2, S15, S16).
- :mod:`.actions` — moves as dense ints and record text, both ways.
- :mod:`.deal` — seeded deals and card checks (S2, S3).
- :mod:`.position` — one player's position and moves; blocked detection (S3-S13).
- :mod:`.state` — :class:`SpyState`: the match, rounds, scoring (S10-S16).
- :mod:`.events`, :mod:`.views` — what moves show and what players may see (S4-S5).
- :mod:`.records` — records: validate, replay, summary, transcript.
- :mod:`.race` — the race clock (S17): policies, move times, the race runner.
- :mod:`.playout` — the recorded random playout.
- :mod:`.engine` — which engine runs: the compiled core (``_core.c``) or the pure one.
- :mod:`.game` — ``GAME``, the game's facts and entry points.

>>> state = GAME.new_state(3, seed=11, options=SpyOptions(rounds=1))
>>> state.num_players, len(state.view(None).seats)
(3, 3)
"""

from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    NUM_ACTIONS,
    action_to_text,
    text_to_action,
)
from cardtable.games.spy.engine import engine_in_use
from cardtable.games.spy.events import Event
from cardtable.games.spy.game import GAME, SpyGame
from cardtable.games.spy.options import SpyOptions
from cardtable.games.spy.records import SpyReplay, replay_record
from cardtable.games.spy.state import RoundResult, SpyState
from cardtable.games.spy.views import SeatView, SeatWindow, SpyView

__all__ = [
    "ACTIONS_PER_PLAYER",
    "GAME",
    "NUM_ACTIONS",
    "Event",
    "RoundResult",
    "SeatView",
    "SeatWindow",
    "SpyGame",
    "SpyOptions",
    "SpyReplay",
    "SpyState",
    "SpyView",
    "action_to_text",
    "engine_in_use",
    "replay_record",
    "text_to_action",
]
