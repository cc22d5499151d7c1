"""Candidate («Кандидат»): the rules engine, its records and replay.

Rules: C1–C17 in ``docs/rules/candidate.en.md``
(``cardtable rules candidate``). The modules:

* :mod:`.options` — :class:`CandidateOptions` (``decks`` 1–3, ``deals`` ≥ 1).
* :mod:`.actions` — moves as ints and as text, both ways (:data:`NUM_ACTIONS`).
* :mod:`.state` — :class:`CandidateState`: legal moves, the checked :meth:`apply` and
  the unchecked fast path :meth:`apply_action`, views, resampling, records.
* :mod:`.position` — what a state is made of and what may be read from it.
* :mod:`.deal` — the piles of each deal (C3) and the first dealer (C2).
* :mod:`.plays` — the legal-move tables; :mod:`.explain` — why a move is refused.
* :mod:`.events`, :mod:`.views`, :mod:`.scoring` — what moves tell, what players see,
  what captures score; :mod:`.determinise` — unseen cards dealt anew (ISMCTS).
* :mod:`.records` — record validation, replay, summary and transcript;
  :mod:`.record_writing` — a match written as a record.
* :mod:`.game` — :data:`GAME`, the game object the rest of cardtable uses.
* :mod:`.playout` — a search's tree step and random playouts; :mod:`.engine` — the
  compiled core (``_core.c``) or the pure-Python reference, chosen at import.

Actions (encoding version 1, see :mod:`.actions`): 0–3 ``deal X``, 4–7 ``lobby X``,
8–11 ``draw X``, 12 ``pass``, 13… ``play`` (first card × run/set × suits of the rest).

Observations: :meth:`CandidateState.view` (a frozen :class:`CandidateView`, JSON-ready
with ``to_dict()``) and :meth:`CandidateState.information_state_string`.

Rewards: :meth:`CandidateState.returns` is +1/−1 for the match's winner/loser and 0 for
a draw (C17); :meth:`CandidateState.totals` gives the scores (C14–C15).

Version history: 1 — first release.

>>> state = GAME.new_initial_state(seed=1, options={"deals": 1})
>>> state.apply("deal S")[0].type
'dealt'
"""

from cardtable.games.candidate.actions import NUM_ACTIONS, action_to_text, text_to_action
from cardtable.games.candidate.deal import deal_piles, first_dealer
from cardtable.games.candidate.engine import engine_in_use
from cardtable.games.candidate.events import Event
from cardtable.games.candidate.game import GAME, CandidateGame
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.position import TERMINAL
from cardtable.games.candidate.records import CandidateReplay, parse_record, replay_record
from cardtable.games.candidate.scoring import capture_score, card_points
from cardtable.games.candidate.state import CandidateState
from cardtable.games.candidate.views import CandidateView

__all__ = [
    "GAME",
    "NUM_ACTIONS",
    "TERMINAL",
    "CandidateGame",
    "CandidateOptions",
    "CandidateReplay",
    "CandidateState",
    "CandidateView",
    "Event",
    "action_to_text",
    "capture_score",
    "card_points",
    "deal_piles",
    "engine_in_use",
    "first_dealer",
    "parse_record",
    "replay_record",
    "text_to_action",
]
