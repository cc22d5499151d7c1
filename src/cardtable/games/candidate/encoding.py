"""Candidate observations as a fixed-size vector, built from a player's view only.

One encoding serves every face: the PettingZoo observation
(:mod:`cardtable.rl.candidate_v0`), OpenSpiel's ``information_state_tensor`` and
``observation_tensor`` (:mod:`cardtable.rl.openspiel_candidate`) and the input of the
learned bot (:mod:`cardtable.bots.learned`) are this vector; it lives in the engine so
that bots and environments share it. It
reads a :class:`~cardtable.games.candidate.CandidateView`, the engine's per-player view,
so nothing hidden from the player can leak into it. It is agent-relative: "me" is the
viewer, "opponent" the other player.

Encoding version 1 (:data:`ENCODING_VERSION`), :data:`OBSERVATION_SIZE` = 342 floats:

=========  ====================================================================
index      meaning
=========  ====================================================================
0–51       my hand: copies of each card kind (kind = suit·13 + rank − 2; S H D C)
52–103     the lobby: copies of each kind
104–155    the lobby's last card, one-hot by kind (all 0 for an empty lobby)
156–157    the lobby's shape once fixed: run, set (C7)
158–209    my captures this deal: copies of each kind
210–261    the opponent's captures this deal: copies of each kind
262–313    lobby cards discarded this deal (C9): copies of each kind
314–317    cards left in the piles S, H, D, C
318–321    my hand's cards per suit S, H, D, C
322–325    the opponent's hand's cards per suit (public: C3, C4, C10)
326–327    my hand size, the opponent's hand size
328–331    the decision now, one-hot: deal, lobby, play, draw (all 0 when over)
332        1 when the decision is mine
333        1 when I am the dealer of this deal
334        1 when I lead the current (or next) trick
335–336    deal scores so far: mine, the opponent's (C15)
337–338    match totals: mine, the opponent's (C17)
339–341    the deal's number (from 1), deals in the match, decks
=========  ====================================================================

Once the match is over the vector shows the last deal as it ended (as the view does).

>>> from cardtable.games.candidate import GAME
>>> state = GAME.new_initial_state(seed=3, options={"deals": 1})
>>> vector = encode_view(state.view(state.current_player), state.current_player)
>>> len(vector), vector[328], vector[332]
(342, 1.0, 1.0)
"""

from __future__ import annotations

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate import CandidateOptions, CandidateView
from cardtable.games.candidate.game import CandidateGame

__all__ = [
    "DECISIONS",
    "ENCODING_VERSION",
    "OBSERVATION_SIZE",
    "encode_view",
    "observation_high",
]

#: Bumped whenever an index changes meaning.
ENCODING_VERSION = 1
OBSERVATION_SIZE = 342
#: The decisions, in the order of indexes 328–331.
DECISIONS = ("deal", "lobby", "play", "draw")

HAND, LOBBY, LOBBY_LAST, LOBBY_SHAPE = 0, 52, 104, 156
MY_CAPTURES, THEIR_CAPTURES, DISCARDS = 158, 210, 262
PILES, MY_SUITS, THEIR_SUITS, HAND_SIZES = 314, 318, 322, 326
DECISION, MY_DECISION, MY_DEAL, MY_LEAD = 328, 332, 333, 334
DEAL_SCORES, TOTALS, DEAL_NUMBER, DEALS, DECKS = 335, 337, 339, 340, 341

_KIND_OF_TEXT = {text: kind for kind, text in enumerate(KIND_TEXT)}
_DECISION_INDEX = {name: DECISION + i for i, name in enumerate(DECISIONS)}


def encode_view(view: CandidateView, me: int) -> list[float]:
    """The observation vector of ``view`` as seen by player ``me`` (0 or 1)."""
    them = 1 - me
    out = [0.0] * OBSERVATION_SIZE
    kind_of = _KIND_OF_TEXT
    for text in view.hand or ():
        out[HAND + kind_of[text]] += 1.0
    for text in view.lobby:
        out[LOBBY + kind_of[text]] += 1.0
    if view.lobby:
        out[LOBBY_LAST + kind_of[view.lobby[-1]]] = 1.0
    if view.lobby_shape == "run":
        out[LOBBY_SHAPE] = 1.0
    elif view.lobby_shape == "set":
        out[LOBBY_SHAPE + 1] = 1.0
    for base, player in ((MY_CAPTURES, me), (THEIR_CAPTURES, them)):
        for captured in view.captures[player]:
            for text in captured:
                out[base + kind_of[text]] += 1.0
    for text in view.discards:
        out[DISCARDS + kind_of[text]] += 1.0
    for suit, (_letter, left) in enumerate(view.piles):
        out[PILES + suit] = float(left)
    for suit in range(4):
        out[MY_SUITS + suit] = float(view.hand_suits[me][suit])
        out[THEIR_SUITS + suit] = float(view.hand_suits[them][suit])
    out[HAND_SIZES] = float(view.hand_sizes[me])
    out[HAND_SIZES + 1] = float(view.hand_sizes[them])
    if view.decision is not None:
        out[_DECISION_INDEX[view.decision]] = 1.0
    out[MY_DECISION] = 1.0 if view.current_player == me else 0.0
    out[MY_DEAL] = 1.0 if view.dealer == me else 0.0
    out[MY_LEAD] = 1.0 if view.leader == me else 0.0
    out[DEAL_SCORES] = float(view.deal_scores[me])
    out[DEAL_SCORES + 1] = float(view.deal_scores[them])
    out[TOTALS] = float(view.totals[me])
    out[TOTALS + 1] = float(view.totals[them])
    out[DEAL_NUMBER] = float(view.deal_number)
    out[DEALS] = float(view.deals)
    out[DECKS] = float(view.decks)
    return out


def observation_high(options: CandidateOptions) -> list[float]:
    """The largest value each index can take under ``options`` (the lowest is 0)."""
    decks = float(options.decks)
    pile = 13.0 * options.decks
    deal_score = float(CandidateGame.max_deal_score(options))
    high = [decks] * OBSERVATION_SIZE
    high[LOBBY_LAST : LOBBY_LAST + 52] = [1.0] * 52
    high[LOBBY_SHAPE : LOBBY_SHAPE + 2] = [1.0, 1.0]
    high[PILES : PILES + 4] = [pile] * 4
    high[MY_SUITS : MY_SUITS + 8] = [5.0] * 8
    high[HAND_SIZES : HAND_SIZES + 2] = [5.0, 5.0]
    high[DECISION : MY_LEAD + 1] = [1.0] * (MY_LEAD + 1 - DECISION)
    high[DEAL_SCORES : DEAL_SCORES + 2] = [deal_score, deal_score]
    high[TOTALS : TOTALS + 2] = [deal_score * options.deals] * 2
    high[DEAL_NUMBER] = float(options.deals)
    high[DEALS] = float(options.deals)
    high[DECKS] = decks
    return high
