"""The state of a Candidate match: N deals, every decision of C1–C17
(``docs/rules/candidate.en.md``).

A :class:`CandidateState` is driven one decision at a time, OpenSpiel style:

>>> state = CandidateState.new(seed=7, options=CandidateOptions(deals=1))
>>> state.decision, state.current_player, state.legal_actions()
('deal', 1, [0, 1, 2, 3])
>>> [event.type for event in state.apply("deal H")]
['dealt', 'received', 'received']
>>> state.decision, state.current_player
('lobby', 1)

Two ways to make a move:

* :meth:`CandidateState.apply` — checked: takes an id or a text, refuses an illegal
  move with :class:`~cardtable.errors.IllegalMove` saying why, and returns the move's
  :class:`~cardtable.games.candidate.events.Event` list. For people, records and servers.
* :meth:`CandidateState.apply_action` — the unchecked fast path: an id that **must** be
  in :meth:`legal_actions`, no checks, no events. For search and playouts; an illegal id
  leaves the state undefined.

A search walks its tree and plays its random playouts with the functions of
:mod:`~cardtable.games.candidate.playout` (search only: a tree step, a recorded playout
and a score-only one).

The state is a :class:`~cardtable.games.candidate.position.CandidatePosition` (the
match's facts and what is read from them) plus the moves; the package's other modules
deal, list the legal plays, explain refusals, build views, resample and write records.

Internals, for speed: besides the position, the state keeps each hand as a bit mask
of its kinds, the cards left in the piles and a mask of the non-empty ones; the legal
actions are computed once per position and cached.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.errors import CardtableError
from cardtable.games.candidate.actions import (
    DRAW_BASE,
    LOBBY_BASE,
    NUM_ACTIONS,
    PASS,
    PILE_LETTERS,
    PLAY_BASE,
    PLAY_CARDS,
    PLAY_LAST_RANK,
    PLAY_STEP,
    action_to_text,
    text_to_action,
)
from cardtable.games.candidate.deal import (
    DealResult,
    Piles,
    checked_piles,
    deal_piles,
    first_dealer,
)
from cardtable.games.candidate.determinise import HiddenSampler, resample_deal
from cardtable.games.candidate.events import Event
from cardtable.games.candidate.explain import refusal
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.plays import (
    DEAL_ACTIONS,
    DRAW_BY_MASK,
    LOBBY_BY_MASK,
    ONLY_PASS,
    kind_bits,
    legal_plays,
    one_deck_plays,
    trick_plays,
)
from cardtable.games.candidate.position import (
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_LOBBY,
    PHASE_OVER,
    PHASE_PLAY,
    TERMINAL,
    CandidatePosition,
)
from cardtable.games.candidate.record_writing import deal_records, to_record
from cardtable.games.candidate.scoring import CARD_POINTS
from cardtable.games.candidate.scoring import winners as best_players
from cardtable.games.candidate.views import CandidateView, build_view

__all__ = ["HAND_SIZE", "CandidateState", "HiddenSampler"]

#: C4, C10: cards dealt to each hand, and the most a hand holds.
HAND_SIZE = 5


class CandidateState(CandidatePosition):
    """A Candidate match in progress (or over). See the module docstring."""

    __slots__ = (
        "_kinds",
        "_left",
        "_legal",
        "_mask",
        "_multi",
        "_pile_size",
        "_sink",
    )

    _pile_size: int
    _left: int
    _mask: int
    _kinds: list[int]
    _multi: bool
    _legal: tuple[int, ...] | list[int] | None
    _sink: list[Event] | None

    # -- making states ---------------------------------------------------------------

    @classmethod
    def new(cls, seed: int | str = 0, options: CandidateOptions | None = None) -> CandidateState:
        """A fresh match dealt from ``seed``: the first dealer by lot (C2), piles per deal."""
        options = options or CandidateOptions()
        state = cls.__new__(cls)
        state._init(options, seed, first_dealer(seed), deal_piles(seed, 0, options.decks))
        return state

    @classmethod
    def from_piles(
        cls,
        piles: Sequence[Sequence[int]],
        dealer: int,
        options: CandidateOptions | None = None,
        *,
        seed: int | str = "",
    ) -> CandidateState:
        """A match whose first deal uses the given piles (kinds, top first) and dealer.

        Later deals are dealt from ``seed`` (:func:`deal_piles`) unless replaced with
        :meth:`set_deal_piles` before their first move. Raises :class:`CardtableError`
        when the piles are not the four suits of ``options.decks`` decks.
        """
        options = options or CandidateOptions()
        if dealer not in (0, 1):
            raise CardtableError(f"dealer must be 0 or 1, got {dealer!r}")
        state = cls.__new__(cls)
        state._init(options, seed, dealer, checked_piles(piles, options.decks))
        return state

    def _init(self, options: CandidateOptions, seed: int | str, dealer: int, piles: Piles) -> None:
        self._options = options
        self._seed = seed
        self._first_dealer = dealer
        self._multi = options.decks > 1
        self._history = ()
        self._sink = None
        self._begin_deal(0, dealer, piles)

    def _begin_deal(self, index: int, dealer: int, piles: Piles) -> None:
        self._deal_index = index
        self._dealer = dealer
        self._piles = piles
        self._pile_size = len(piles[0])  # every suit pile holds 13 × decks cards
        self._tops = [0, 0, 0, 0]
        self._left = sum(len(p) for p in piles)
        self._mask = 15
        self._hands = [[], []]
        self._kinds = [0, 0]
        self._lobby = []
        self._run_need = self._set_need = -1
        self._placer = -1
        self._passes = 0
        self._leader = 1 - dealer
        self._captures = [[], []]
        self._scores = [0, 0]
        self._discards = []
        self._moves = []
        self._drawers = []
        self._phase = PHASE_DEAL
        self._player = dealer
        self._legal = DEAL_ACTIONS

    def set_deal_piles(self, piles: Sequence[Sequence[int]]) -> None:
        """Replace the current deal's piles (kinds, top first) before its first move.

        Record replay uses it: a record gives every deal's cards.
        """
        if self._phase != PHASE_DEAL or self._moves:
            raise CardtableError("the piles can only be set before a deal's first move")
        self._piles = checked_piles(piles, self._options.decks)

    def clone(self) -> CandidateState:
        """An independent copy (the immutable parts are shared)."""
        other = CandidateState.__new__(CandidateState)
        other._options = self._options
        other._seed = self._seed
        other._first_dealer = self._first_dealer
        other._deal_index = self._deal_index
        other._dealer = self._dealer
        other._phase = self._phase
        other._player = self._player
        other._piles = self._piles
        other._pile_size = self._pile_size
        other._tops = self._tops[:]
        other._left = self._left
        other._mask = self._mask
        hands = self._hands
        other._hands = [hands[0][:], hands[1][:]]
        other._kinds = self._kinds[:]
        other._multi = self._multi
        other._lobby = self._lobby[:]
        other._run_need = self._run_need
        other._set_need = self._set_need
        other._placer = self._placer
        other._passes = self._passes
        other._leader = self._leader
        captures = self._captures
        other._captures = [captures[0][:], captures[1][:]]
        other._scores = self._scores[:]
        other._discards = self._discards[:]
        other._moves = self._moves[:]
        other._drawers = self._drawers[:]
        other._history = self._history
        other._legal = self._legal
        other._sink = None
        return other

    __copy__ = clone

    # -- OpenSpiel-shaped surface -----------------------------------------------------

    def is_chance_node(self) -> bool:
        """Always False: all chance is in the deal, made before the first move."""
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """No chance nodes, so no outcomes (for OpenSpiel-shaped loops)."""
        return []

    def legal_actions(self) -> list[int]:
        """The current player's legal action ids, sorted; empty only when terminal."""
        legal = self._legal
        if legal is None:
            legal = self._fresh_legal()
        return [*legal]

    def _fresh_legal(self) -> tuple[int, ...] | list[int]:
        """Work out the legal moves (C7, C8, C10-C13), keep them in ``_legal``, return them."""
        legal: tuple[int, ...] | list[int]
        if self._phase == PHASE_PLAY and self._lobby:
            # C7, C8: pass, or play cards that continue the lobby.
            player = self._player
            legal = self._legal = trick_plays(
                self._hands[player],
                self._kinds[player],
                self._run_need,
                self._set_need,
                self._multi,
            )
            return legal
        legal = self._legal = self._compute_legal()
        return legal

    def legal_moves(self) -> list[str]:
        """The legal moves as text, in the order of :meth:`legal_actions`."""
        return [action_to_text(a) for a in self.legal_actions()]

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now."""
        legal = self._legal
        if legal is None:
            legal = self._fresh_legal()
        return action in legal

    def _compute_legal(self) -> tuple[int, ...] | list[int]:
        """The legal moves outside a trick (a trick's are :meth:`_fresh_legal`'s)."""
        phase = self._phase
        if phase == PHASE_PLAY:
            # C12: an empty lobby with empty piles: start it from hand; pass only with an
            # empty hand.
            hand = self._hands[self._player]
            if not hand:
                return ONLY_PASS
            if not self._multi:
                return one_deck_plays(self._kinds[self._player], True, -1, -1, [])
            return legal_plays(hand, self._kinds[self._player], True, -1, -1, True, [])
        if phase == PHASE_DRAW:
            return DRAW_BY_MASK[self._mask]
        if phase == PHASE_LOBBY:
            return LOBBY_BY_MASK[self._mask]
        if phase == PHASE_DEAL:
            return DEAL_ACTIONS
        return ()

    # -- the unchecked fast path ------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Make move ``action`` without any check and without events (the fast path).

        ``action`` must be one of :meth:`legal_actions`; anything else corrupts the state.
        Use :meth:`apply` for moves that come from outside.
        """
        self._legal = None
        self._moves.append(action)
        if action == PASS:
            if self._sink is not None:
                self._sink.append(Event("passed", self._player))
            if not self._lobby:
                # C12: a leader with no cards passes; the opponent leads and must start.
                self._leader = self._player = 1 - self._player
            elif self._passes:
                self._end_trick()  # C8: two passes in a row end the trick
            else:
                self._passes = 1
                self._player = 1 - self._player
        elif action >= PLAY_BASE:
            # C6, C7, C12: cards from hand continue the lobby (or start it, C12).
            index = action - PLAY_BASE
            cards = PLAY_CARDS[index]
            player = self._player
            hand = self._hands[player]
            for kind in cards:
                hand.remove(kind)
            if self._multi:  # copies: recount what is left
                present = 0
                for kind in hand:
                    present |= 1 << kind
            else:  # one deck: each card is unique, so just clear its bits
                present = self._kinds[player]
                for kind in cards:
                    present ^= 1 << kind
            self._kinds[player] = present
            last = PLAY_LAST_RANK[index]
            step = PLAY_STEP[index]
            lobby = self._lobby
            if step == 1:  # a run: the next card must be one rank up (none after A)
                self._run_need = last + 1 if last < 12 else -1
                self._set_need = -1
            elif step == 2:  # a set: every card of this rank
                self._run_need = -1
                self._set_need = last
            elif not lobby:  # C12: a one-card start leaves the shape open
                self._run_need = last + 1 if last < 12 else -1
                self._set_need = last
            elif last == self._set_need:  # one card of the lobby's rank: a set (C7)
                self._run_need = -1
            else:  # one card a rank up: a run (C7)
                self._run_need = last + 1 if last < 12 else -1
                self._set_need = -1
            lobby.extend(cards)
            self._placer = player
            self._passes = 0
            self._player = 1 - player
            if self._sink is not None:
                self._sink.append(Event("played", player, None, cards))
        elif action >= LOBBY_BASE:
            # `lobby X` and `draw X` both take the top card of pile X (inlined: hot path).
            pile = action & 3
            top = self._tops[pile]
            cards = self._piles[pile]
            self._tops[pile] = top + 1
            if top + 1 == self._pile_size:
                self._mask &= ~(1 << pile)
            self._left -= 1
            kind = cards[top]
            player = self._player
            if action < DRAW_BASE:
                # C5, C11: the card turned starts the lobby; C7 fixes its shape later.
                self._lobby = [kind]
                rank = kind % 13
                self._run_need = rank + 1 if rank < 12 else -1
                self._set_need = rank  # (_placer and _passes were reset when needed)
                self._phase = PHASE_PLAY
                self._player = self._leader
                if self._sink is not None:
                    self._sink.append(Event("lobby_turned", player, PILE_LETTERS[pile], (kind,)))
                return
            # C10: one card at a time from the pile the drawer chooses.
            hand = self._hands[player]
            hand.append(kind)
            self._kinds[player] |= 1 << kind
            self._drawers.append(player)
            if self._sink is not None:
                self._sink.append(
                    Event("drew", player, PILE_LETTERS[pile], (kind,), secret_to=player)
                )
            if not self._left:
                self._need_lobby()  # the piles ran out: drawing stops
            elif len(hand) < HAND_SIZE:
                self._legal = DRAW_BY_MASK[self._mask]
            elif player == self._leader and len(self._hands[1 - player]) < HAND_SIZE:
                self._player = 1 - player
                self._legal = DRAW_BY_MASK[self._mask]
            else:
                self._need_lobby()
        else:
            self._deal(action)

    def _deal(self, pile: int) -> None:
        # C4: five cards each from one pile, one at a time, non-dealer first.
        cards = self._piles[pile]
        dealer = self._dealer
        self._hands[1 - dealer] = list(cards[0:10:2])
        self._hands[dealer] = list(cards[1:10:2])
        self._kinds = [kind_bits(self._hands[0]), kind_bits(self._hands[1])]
        self._tops[pile] = 10
        self._left -= 10
        if len(cards) == 10:
            self._mask &= ~(1 << pile)
        self._phase = PHASE_LOBBY  # C5: the dealer turns the first lobby card
        self._legal = LOBBY_BY_MASK[self._mask]
        self._leader = 1 - dealer  # C6: the non-dealer leads
        if self._sink is not None:
            letter = PILE_LETTERS[pile]
            self._sink.append(Event("dealt", dealer, letter))
            for p in (1 - dealer, dealer):
                self._sink.append(Event("received", p, letter, tuple(self._hands[p]), secret_to=p))

    def _end_trick(self) -> None:
        lobby = self._lobby
        self._lobby = []
        taker = self._placer
        if taker < 0:
            # C9: nobody played onto the turned card: discard it; the same player leads.
            self._discards.append(lobby[0])
            if self._sink is not None:
                self._sink.append(Event("lobby_discarded", None, None, (lobby[0],)))
            self._need_lobby()
            return
        # C9: the last player who placed a card takes the whole lobby.
        captured = tuple(lobby)
        count = len(lobby)
        # C15 (as capture_score, inlined: this is the hot path)
        if count == 1:
            score = CARD_POINTS[lobby[0]]
        elif lobby[0] % 13 == lobby[1] % 13:
            score = count * count
        else:
            score = sum(map(CARD_POINTS.__getitem__, lobby)) * count
        self._captures[taker].append(captured)
        self._scores[taker] += score
        if self._sink is not None:
            self._sink.append(Event("trick_taken", taker, None, captured, score))
        self._leader = taker  # C11: the taker leads the next trick
        # C10: the taker draws up to five, then the opponent.
        if self._left:
            if len(self._hands[taker]) < HAND_SIZE:
                self._phase = PHASE_DRAW
                self._legal = DRAW_BY_MASK[self._mask]
                self._player = taker
                return
            if len(self._hands[1 - taker]) < HAND_SIZE:
                self._phase = PHASE_DRAW
                self._legal = DRAW_BY_MASK[self._mask]
                self._player = 1 - taker
                return
        self._need_lobby()

    def _need_lobby(self) -> None:
        # C11: the player who will not lead turns the next lobby card; C12: with empty
        # piles the leader starts the lobby from hand; C13: no cards at all ends the deal.
        self._passes = 0
        self._placer = -1
        if self._left:
            self._phase = PHASE_LOBBY
            self._legal = LOBBY_BY_MASK[self._mask]
            self._player = 1 - self._leader
        elif self._hands[0] or self._hands[1]:
            self._phase = PHASE_PLAY
            self._player = self._leader
        else:
            self._end_deal()

    def _end_deal(self) -> None:
        # C13: the deal is over; C17: the match goes on with the other dealer.
        result = DealResult(
            dealer=self._dealer,
            piles=self._piles,
            moves=tuple(self._moves),
            drawers=tuple(self._drawers),
            captures=(tuple(self._captures[0]), tuple(self._captures[1])),
            scores=(self._scores[0], self._scores[1]),
            discards=tuple(self._discards),
        )
        self._history = (*self._history, result)
        sink = self._sink
        if sink is not None:
            totals = self.totals_of(self._history)
            sink.append(Event("deal_ended", None, scores=result.scores, totals=totals))
        if len(self._history) >= self._options.deals:
            self._phase = PHASE_OVER
            self._player = TERMINAL
            if sink is not None:
                totals = self.totals_of(self._history)
                sink.append(
                    Event("match_ended", totals=totals, winners=tuple(best_players(totals)))
                )
            return
        index = self._deal_index + 1
        self._begin_deal(
            index, 1 - self._dealer, deal_piles(self._seed, index, self._options.decks)
        )

    # -- the checked path -------------------------------------------------------------

    def apply(self, action: int | str) -> list[Event]:
        """Make a move given as an id or a text, checking it; return its events.

        Raises :class:`~cardtable.errors.IllegalMove` with a reason a player understands,
        leaving the state unchanged.
        """
        if isinstance(action, str):
            text: str | None = action
            action = text_to_action(action)
        else:
            text = None
        if not self.is_legal(action):
            move = text
            if move is None and 0 <= action < NUM_ACTIONS:
                move = action_to_text(action)
            raise refusal(self, action).illegal(move)
        events: list[Event] = []
        self._sink = events
        try:
            self.apply_action(action)
        finally:
            self._sink = None
        return events

    # -- what players see, and determinisation ---------------------------------------

    def view(self, player: int | None) -> CandidateView:
        """Exactly what ``player`` may see (None: a spectator, who sees no hand)."""
        deciding = self._phase != PHASE_OVER and player == self._player
        return build_view(self, player, tuple(self.legal_actions()) if deciding else ())

    def resample_hidden(self, player: int | None, rng: random.Random) -> CandidateState:
        """A full state consistent with all ``player`` may see (None: a spectator), the
        unseen cards (the other hand(s), the piles) dealt anew uniformly at random: the
        basis of ISMCTS. The past is rewritten to match, so the new state replays from
        its own record (see :func:`~cardtable.games.candidate.determinise.resample_deal`).
        """
        state = self.clone()
        if self._phase == PHASE_OVER:
            return state
        hidden = [p for p in (0, 1) if p != player]
        deal = (self._dealer, self._piles, self._tops, self._hands, self._moves, self._drawers)
        state._piles, new_hands = resample_deal(*deal, hidden, rng)
        for p in hidden:
            state._hands[p] = new_hands[p]
            state._kinds[p] = kind_bits(new_hands[p])
        state._legal = None
        return state

    def hidden_sampler(self, player: int) -> HiddenSampler:
        """A fast sampler of states consistent with all ``player`` may see, for search.

        Each draw deals the unseen cards anew, like :meth:`resample_hidden`, but the
        work that does not depend on the draw is done once here: per suit, the sorted
        unseen cards and each hidden hand's public count. Unlike :meth:`resample_hidden`
        the past is not rewritten: in the drawn states the pile cards another player
        received are masked (never read again in the deal), so a drawn state plays on to
        the end of the match but does not replay from its record. The sampler keeps
        only what ``player`` may know.
        """
        return HiddenSampler(self, player)

    # -- records ----------------------------------------------------------------------

    def deal_records(self) -> list[dict[str, Any]]:
        """The ``deals`` of this match's record (docs/records.md): every deal begun so far."""
        return deal_records(self)

    def to_record(self, players: Sequence[str] = ("Player 1", "Player 2")) -> dict[str, Any]:
        """This match as a game record (docs/records.md): options, every deal's piles and
        moves, the current deal included even before its first move."""
        return to_record(self, players)

    # -- display --------------------------------------------------------------------

    def __str__(self) -> str:
        return self.view(None).describe()
