"""Both games as OpenSpiel Python games, registered when this module is imported.

>>> import pyspiel
>>> import cardtable.rl.openspiel
>>> game = pyspiel.load_game("python_cardtable_candidate", {"deals": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 0.5), (1, 0.5)])

``python_cardtable_candidate`` — Candidate, two players, sequential, zero-sum: chance
deals the first dealer by lot and every deal's piles card by card; see
:mod:`cardtable.rl.openspiel_candidate`.

``python_cardtable_spy`` — Spy vs Spy, 2–8 players, general-sum: chance deals the
rounds card by card and picks who moves next in the race; see
:mod:`cardtable.rl.openspiel_spy`.

Both take their declared facts (name, title, player counts, distinct actions, utility
bounds, longest game) from the game packages' ``GAME``; what they share is in
:mod:`cardtable.rl.openspiel_shared`.

Both provide ``information_state_tensor`` and ``observation_tensor``: the vectors of
:mod:`cardtable.games.candidate.encoding` and :mod:`cardtable.games.spy.encoding`, the ones
the PettingZoo environments observe.

Version history: v0 (encodings version 1) — first release; then information-state
tensors (the same encodings) and Spy's ``resample_from_infostate``.
"""

from __future__ import annotations

import pyspiel

from cardtable.rl.openspiel_candidate import CANDIDATE_GAME_TYPE, CandidateSpielGame
from cardtable.rl.openspiel_spy import SPY_GAME_TYPE, SpySpielGame

pyspiel.register_game(CANDIDATE_GAME_TYPE, CandidateSpielGame)
pyspiel.register_game(SPY_GAME_TYPE, SpySpielGame)
