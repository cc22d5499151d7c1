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

A search plays whole playouts with :meth:`CandidateState.random_playout`: uniformly
random moves on the unchecked path, a one-deck deal played in one loop of its own
(the legal moves and the moves inlined); it reaches exactly the state the checked
:meth:`~CandidateState.apply` reaches with the same moves (``tests/candidate``).
A search that throws the state away after its playout calls
:meth:`CandidateState.playout_margin`: the same moves, but only the deal's score is
kept (nothing recorded, the state left spent).

The state is a :class:`~cardtable.games.candidate.position.CandidatePosition` (the
match's facts and what is read from them) plus the moves; the package's other modules
deal, list the legal plays, explain refusals, build views, resample and write records.

Internals, for speed: besides the position, the state keeps each hand as a bit mask
of its kinds, the cards left in the piles and a mask of the non-empty ones; the legal
actions are computed once per position and cached.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
    PLAY_STRIDE,
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
from cardtable.games.candidate.determinise import public_past, resample_deal
from cardtable.games.candidate.events import Event
from cardtable.games.candidate.explain import refusal
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.plays import (
    DEAL_ACTIONS,
    DRAW_BY_MASK,
    LOBBY_BY_MASK,
    ONLY_PASS,
    RANK_KINDS,
    RANK_OF,
    kind_bits,
    legal_plays,
    one_deck_leads,
    one_deck_plays,
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
#: For the score-only playout: the non-empty piles by mask (bit X: pile X), each
#: kind's bit, and the rank a run needs after each rank index (none after the ace).
_PILES_OPEN = tuple(tuple(x for x in range(4) if mask >> x & 1) for mask in range(16))
_BIT = tuple(1 << kind for kind in range(52))
_NEXT_RANK = (*range(1, 13), -1)


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

    def advance(self, action: int) -> Sequence[int]:
        """For a search's tree walk: :meth:`apply_action`, then the legal moves of the
        next decision in the same deal, or an empty sequence when the move ended the deal
        (or the match, C13, C17). One call a move instead of four; the sequence is the
        state's own (read it before the next move, never change it)."""
        deal = self._deal_index
        self.apply_action(action)
        if self._deal_index != deal or self._phase == PHASE_OVER:
            return ()
        return self._legal or self._fresh_legal()

    def _fresh_legal(self) -> tuple[int, ...] | list[int]:
        """Work out the legal moves (C7, C8, C10-C13), keep them in ``_legal``, return them."""
        legal: tuple[int, ...] | list[int]
        if self._phase == PHASE_PLAY and self._lobby:
            # C7, C8: pass, or play cards that continue the lobby. Fast paths from
            # bit masks: no card fits (only `pass`), or only one-card plays fit.
            player = self._player
            run_need = self._run_need
            set_need = self._set_need
            starts = self._kinds[player] & (RANK_KINDS[run_need] | RANK_KINDS[set_need])
            if not starts:
                legal = self._legal = ONLY_PASS
            elif (
                not starts & RANK_KINDS[run_need]
                or not self._kinds[player] & RANK_KINDS[run_need + 1]
            ) and (
                not starts & RANK_KINDS[set_need] or (not self._multi and starts.bit_count() == 1)
            ):
                # No second card can follow: one-card plays, in kind (= id) order.
                if not starts & (starts - 1):  # a single card
                    legal = self._legal = (
                        PASS,
                        PLAY_BASE + (starts.bit_length() - 1) * PLAY_STRIDE,
                    )
                    return legal
                plays = [PASS]
                while starts:
                    low = starts & -starts
                    plays.append(PLAY_BASE + (low.bit_length() - 1) * PLAY_STRIDE)
                    starts ^= low
                legal = self._legal = plays
            elif self._multi:
                legal = self._legal = legal_plays(
                    self._hands[player],
                    self._kinds[player],
                    False,
                    run_need,
                    set_need,
                    True,
                    [PASS],
                )
            else:
                legal = self._legal = one_deck_plays(
                    self._kinds[player], False, run_need, set_need, [PASS]
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

    def random_playout(self, uniform: Callable[[], float], moves: int | None = None) -> None:
        """Uniformly random legal moves (the unchecked fast path) until the deal or the
        match ends, or after ``moves`` moves: the playout of a search.

        ``uniform`` gives floats in [0, 1) (e.g. ``rng.random``); a move is
        ``legal[int(uniform() * len(legal))]``, uniform over the legal moves in
        :meth:`legal_actions` order; a forced move (one legal) takes no ``uniform()``
        (nearly half the moves of a playout are forced passes). The result is exactly
        the state that :meth:`apply_action` (or the checked :meth:`apply`) reaches with
        the same moves; ``tests/candidate`` checks that over random games.

        For speed, a one-deck deal already dealt is played in one loop over local
        variables (the legal moves and :meth:`apply_action` inlined, a trick in its own
        inner loop, no method call a move) and written back once; other states take
        the move-by-move loop.
        """
        budget = -1 if moves is None else moves
        if self._multi or self._phase in (PHASE_DEAL, PHASE_OVER):
            self._playout_by_moves(uniform, budget)
            return
        # The state, in locals. Lists are changed in place; scalars are written back.
        hands = self._hands
        kinds = self._kinds
        tops = self._tops
        piles = self._piles
        pile_size = self._pile_size
        record = self._moves.append
        drawers = self._drawers
        discards = self._discards
        captures = self._captures
        scores = self._scores
        phase = self._phase
        player = self._player
        left = self._left
        mask = self._mask
        lobby = self._lobby
        run_need = self._run_need
        set_need = self._set_need
        placer = self._placer
        passes = self._passes
        leader = self._leader
        # Cards held per rank index, two more entries always 0: index 13 (past the ace)
        # and -1 (no rank), so a need of -1 or 13 counts nothing.
        ranks = [[0] * 15, [0] * 15]
        for p in (0, 1):
            count = ranks[p]
            for kind in hands[p]:
                count[kind % 13] += 1
        # Tables and constants as locals (the loop reads them every move).
        rank_of = RANK_OF
        rank_kinds = RANK_KINDS
        card_points = CARD_POINTS
        play_base, play_stride, pass_ = PLAY_BASE, PLAY_STRIDE, PASS
        lobby_piles, draw_piles = LOBBY_BY_MASK, DRAW_BY_MASK
        # Without a cut the budget stays -1 (a tick of 0): no new int object a move.
        tick = 0 if moves is None else 1
        ended = False
        while budget:
            if lobby:  # only a trick has a lobby
                # A trick: C7, C8 (pass, or cards continuing the lobby), as legal_actions,
                # decided from the counts per rank where that is enough.
                while budget:
                    budget -= tick
                    count = ranks[player]
                    at_run = count[run_need]
                    at_set = count[set_need]
                    if not (at_run or at_set):  # C8: a forced pass
                        record(pass_)
                        if passes:
                            break  # two passes in a row end the trick
                        passes = 1
                        player = 1 - player
                        continue
                    present = kinds[player]
                    if at_set < 2 and not (at_run and count[run_need + 1]):
                        # No second card can follow: pass or a one-card play, in id order.
                        if at_run + at_set == 1:
                            if uniform() < 0.5:  # = (pass, play)[int(uniform() * 2)]
                                action = pass_
                            else:
                                kind = (
                                    present & (rank_kinds[run_need] | rank_kinds[set_need])
                                ).bit_length() - 1
                                action = play_base + kind * play_stride
                        else:
                            starts = present & (rank_kinds[run_need] | rank_kinds[set_need])
                            singles = [pass_]
                            while starts:
                                low = starts & -starts
                                singles.append(play_base + (low.bit_length() - 1) * play_stride)
                                starts ^= low
                            action = singles[int(uniform() * len(singles))]
                            kind = (action - play_base) // play_stride
                        if action == pass_:
                            record(pass_)
                            if passes:
                                break
                            passes = 1
                            player = 1 - player
                            continue
                        # C6, C7: one card continues the lobby, as a set or a run.
                        record(action)
                        hands[player].remove(kind)
                        kinds[player] = present ^ (1 << kind)
                        rank = rank_of[kind]
                        count[rank] -= 1
                        if rank == set_need:
                            run_need = -1
                        else:
                            run_need = rank + 1 if rank < 12 else -1
                            set_need = -1
                        lobby.append(kind)
                        placer = player
                        passes = 0
                        player = 1 - player
                        continue
                    legal = one_deck_plays(present, False, run_need, set_need, [pass_])
                    action = legal[int(uniform() * len(legal))]
                    record(action)
                    if action == pass_:
                        if passes:
                            break
                        passes = 1
                        player = 1 - player
                        continue
                    # C6, C7: cards from hand continue the lobby.
                    index = action - play_base
                    cards = PLAY_CARDS[index]
                    hand = hands[player]
                    for kind in cards:
                        hand.remove(kind)
                        present ^= 1 << kind
                        count[rank_of[kind]] -= 1
                    kinds[player] = present
                    last = PLAY_LAST_RANK[index]
                    if PLAY_STEP[index] == 1 or (len(cards) == 1 and last != set_need):
                        run_need = last + 1 if last < 12 else -1  # a run
                        set_need = -1
                    else:  # a set: every card of this rank
                        run_need = -1
                        set_need = last
                    lobby.extend(cards)
                    placer = player
                    passes = 0
                    player = 1 - player
                else:
                    break  # the moves ran out within the trick
                # C8, C9: the trick is over (as _end_trick).
                if placer < 0:  # C9: nobody played onto the turned card: discarded
                    discards.append(lobby[0])
                else:  # C9, C15: the last placer takes the lobby and scores it
                    size = len(lobby)
                    if size == 1:
                        score = card_points[lobby[0]]
                    elif rank_of[lobby[0]] == rank_of[lobby[1]]:
                        score = size * size
                    else:
                        score = sum(map(card_points.__getitem__, lobby)) * size
                    captures[placer].append(tuple(lobby))
                    scores[placer] += score
                    leader = placer  # C11
                    if left:  # C10: the taker draws up to five, then the opponent
                        if len(hands[placer]) < HAND_SIZE:
                            phase = PHASE_DRAW
                            player = placer
                            lobby = []
                            continue
                        if len(hands[1 - placer]) < HAND_SIZE:
                            phase = PHASE_DRAW
                            player = 1 - placer
                            lobby = []
                            continue
                lobby = []
            elif phase == PHASE_PLAY:
                # C12: empty piles and an empty lobby: the leader starts it from hand.
                budget -= tick
                hand = hands[player]
                if not hand:  # no cards: pass, and the opponent leads
                    record(pass_)
                    leader = player = 1 - player
                    continue
                leads = one_deck_leads(kinds[player])
                action = leads[int(uniform() * len(leads))] if len(leads) > 1 else leads[0]
                record(action)
                index = action - play_base
                cards = PLAY_CARDS[index]
                present = kinds[player]
                count = ranks[player]
                for kind in cards:
                    hand.remove(kind)
                    present ^= 1 << kind
                    count[rank_of[kind]] -= 1
                kinds[player] = present
                last = PLAY_LAST_RANK[index]
                step = PLAY_STEP[index]
                # A run (step 1), a set (step 2), or one card, which leaves both open.
                run_need = -1 if step == 2 or last == 12 else last + 1
                set_need = -1 if step == 1 else last
                lobby = list(cards)
                placer = player
                passes = 0
                player = 1 - player
                continue
            elif phase == PHASE_LOBBY:
                # C5, C11: `lobby X` turns the top card of pile X: a trick begins.
                budget -= tick
                open_piles = lobby_piles[mask]
                action = (
                    open_piles[int(uniform() * len(open_piles))]
                    if len(open_piles) > 1
                    else open_piles[0]
                )
                record(action)
                pile = action & 3
                top = tops[pile]
                tops[pile] = taken = top + 1
                if taken == pile_size:
                    mask &= ~(1 << pile)
                left -= 1
                kind = piles[pile][top]
                lobby = [kind]
                rank = rank_of[kind]
                run_need = rank + 1 if rank < 12 else -1
                set_need = rank
                phase = PHASE_PLAY
                player = leader
                continue
            else:
                # C10: `draw X` takes the top card of pile X into the drawer's hand.
                budget -= tick
                open_piles = draw_piles[mask]
                action = (
                    open_piles[int(uniform() * len(open_piles))]
                    if len(open_piles) > 1
                    else open_piles[0]
                )
                record(action)
                pile = action & 3
                top = tops[pile]
                tops[pile] = taken = top + 1
                if taken == pile_size:
                    mask &= ~(1 << pile)
                left -= 1
                kind = piles[pile][top]
                hand = hands[player]
                hand.append(kind)
                kinds[player] |= 1 << kind
                ranks[player][rank_of[kind]] += 1
                drawers.append(player)
                if left:
                    if len(hand) < HAND_SIZE:
                        continue
                    if player == leader and len(hands[1 - player]) < HAND_SIZE:
                        player = 1 - player
                        continue
            # As _need_lobby: C11 turn a lobby card; C12 lead from hand; C13 deal over.
            passes = 0
            placer = -1
            if left:
                phase = PHASE_LOBBY
                player = 1 - leader
            elif hands[0] or hands[1]:
                phase = PHASE_PLAY
                player = leader
            else:
                ended = True
                break
        self._phase = phase
        self._player = player
        self._left = left
        self._mask = mask
        self._lobby = lobby
        self._run_need = run_need
        self._set_need = set_need
        self._placer = placer
        self._passes = passes
        self._leader = leader
        self._legal = None
        if ended:
            self._end_deal()

    def playout_margin(self, uniform: Callable[[], float], moves: int | None = None) -> int:
        """:meth:`random_playout`, keeping only the score: the same numbers give the same
        moves, and the result is the current deal's margin (player 0's deal score minus
        player 1's, C15) when the deal ends or after ``moves`` moves.

        For a search that throws the playout's state away: the state is **spent** (left
        undefined, not to be read or played again; play a clone). Nothing is recorded —
        no moves, no captures, no hands as lists, no deal result — and the lobby is kept
        as its size and points, which is all its capture's score needs (C15).
        ``tests/candidate`` checks the margin against the checked path over random games.
        """
        budget = -1 if moves is None else moves
        if self._multi or self._phase in (PHASE_DEAL, PHASE_OVER):
            deal = self._deal_index
            self._playout_by_moves(uniform, budget)
            history = self._history
            scores = history[deal].scores if len(history) > deal else self._scores
            return scores[0] - scores[1]
        kinds = self._kinds
        hands = self._hands
        sizes = [len(hands[0]), len(hands[1])]
        tops = self._tops
        piles = self._piles
        pile_size = self._pile_size
        scores = self._scores
        phase = self._phase
        player = self._player
        left = self._left
        mask = self._mask
        run_need = self._run_need
        set_need = self._set_need
        placer = self._placer
        passes = self._passes
        leader = self._leader
        card_points = CARD_POINTS
        # The lobby: its size and its cards' points (a run scores their sum times the
        # size, a set the size squared, one card its points; C15).
        size = len(self._lobby)
        points = sum(map(card_points.__getitem__, self._lobby))
        # Cards held per rank index, as in random_playout (indexes 13 and -1 stay 0).
        ranks = [[0] * 15, [0] * 15]
        for p in (0, 1):
            count = ranks[p]
            for kind in hands[p]:
                count[kind % 13] += 1
        rank_of = RANK_OF
        rank_kinds = RANK_KINDS
        play_base = PLAY_BASE
        play_cards, play_last, play_step = PLAY_CARDS, PLAY_LAST_RANK, PLAY_STEP
        piles_open, bit, next_rank = _PILES_OPEN, _BIT, _NEXT_RANK
        phase_play, phase_lobby, phase_draw = PHASE_PLAY, PHASE_LOBBY, PHASE_DRAW
        hand_size, pass_ = HAND_SIZE, PASS
        plays_from, leads_from = one_deck_plays, one_deck_leads
        tick = 0 if moves is None else 1
        while budget:
            if size:  # a trick (C7, C8), as random_playout
                while budget:
                    budget -= tick
                    count = ranks[player]
                    at_run = count[run_need]
                    at_set = count[set_need]
                    if not (at_run or at_set):  # C8: a forced pass
                        if passes:
                            break
                        passes = 1
                        player = 1 - player
                        continue
                    present = kinds[player]
                    if at_set < 2 and not (at_run and count[run_need + 1]):
                        # Pass or a one-card play, in id order.
                        if at_run + at_set == 1:
                            if uniform() < 0.5:
                                if passes:
                                    break
                                passes = 1
                                player = 1 - player
                                continue
                            kind = (
                                present & (rank_kinds[run_need] | rank_kinds[set_need])
                            ).bit_length() - 1
                        else:
                            starts = present & (rank_kinds[run_need] | rank_kinds[set_need])
                            singles = [-1]
                            while starts:
                                low = starts & -starts
                                singles.append(low.bit_length() - 1)
                                starts ^= low
                            kind = singles[int(uniform() * len(singles))]
                            if kind < 0:  # pass
                                if passes:
                                    break
                                passes = 1
                                player = 1 - player
                                continue
                        # C6, C7: one card continues the lobby, as a set or a run.
                        kinds[player] = present ^ bit[kind]
                        sizes[player] -= 1
                        rank = rank_of[kind]
                        count[rank] -= 1
                        if rank == set_need:
                            run_need = -1
                        else:
                            run_need = next_rank[rank]
                            set_need = -1
                        size += 1
                        points += card_points[kind]
                        placer = player
                        passes = 0
                        player = 1 - player
                        continue
                    legal = plays_from(present, False, run_need, set_need, [pass_])
                    action = legal[int(uniform() * len(legal))]
                    if action == pass_:
                        if passes:
                            break
                        passes = 1
                        player = 1 - player
                        continue
                    # C6, C7: cards from hand continue the lobby.
                    index = action - play_base
                    cards = play_cards[index]
                    for kind in cards:
                        present ^= bit[kind]
                        count[rank_of[kind]] -= 1
                        points += card_points[kind]
                    kinds[player] = present
                    sizes[player] -= len(cards)
                    size += len(cards)
                    last = play_last[index]
                    if play_step[index] == 1 or (len(cards) == 1 and last != set_need):
                        run_need = next_rank[last]  # a run
                        set_need = -1
                    else:  # a set: every card of this rank
                        run_need = -1
                        set_need = last
                    placer = player
                    passes = 0
                    player = 1 - player
                else:
                    break  # the moves ran out within the trick
                # C8, C9: the trick is over (as _end_trick).
                if placer >= 0:  # C9, C15: the last placer takes the lobby and scores it
                    if size == 1:
                        scores[placer] += points
                    elif set_need >= 0:  # a set
                        scores[placer] += size * size
                    else:  # a run
                        scores[placer] += points * size
                    leader = placer  # C11
                    size = 0
                    if left:  # C10: the taker draws up to five, then the opponent
                        if sizes[placer] < hand_size:
                            phase = phase_draw
                            player = placer
                            continue
                        if sizes[1 - placer] < hand_size:
                            phase = phase_draw
                            player = 1 - placer
                            continue
                size = 0  # C9: nobody played onto the turned card: discarded
            elif phase == phase_play:
                # C12: empty piles and an empty lobby: the leader starts it from hand.
                budget -= tick
                present = kinds[player]
                if not present:  # no cards: pass, and the opponent leads
                    leader = player = 1 - player
                    continue
                leads = leads_from(present)
                action = leads[int(uniform() * len(leads))] if len(leads) > 1 else leads[0]
                index = action - play_base
                cards = play_cards[index]
                count = ranks[player]
                points = 0
                for kind in cards:
                    present ^= bit[kind]
                    count[rank_of[kind]] -= 1
                    points += card_points[kind]
                kinds[player] = present
                sizes[player] -= len(cards)
                size = len(cards)
                last = play_last[index]
                step = play_step[index]
                run_need = -1 if step == 2 or last == 12 else last + 1
                set_need = -1 if step == 1 else last
                placer = player
                passes = 0
                player = 1 - player
                continue
            elif phase == phase_lobby:
                # C5, C11: `lobby X` turns the top card of pile X: a trick begins.
                budget -= tick
                open_piles = piles_open[mask]
                pile = (
                    open_piles[int(uniform() * len(open_piles))]
                    if len(open_piles) > 1
                    else open_piles[0]
                )
                top = tops[pile]
                tops[pile] = taken = top + 1
                if taken == pile_size:
                    mask &= ~(1 << pile)
                left -= 1
                kind = piles[pile][top]
                size = 1
                points = card_points[kind]
                rank = rank_of[kind]
                run_need = next_rank[rank]
                set_need = rank
                phase = phase_play
                player = leader
                continue
            else:
                # C10: `draw X` takes the top card of pile X into the drawer's hand.
                budget -= tick
                open_piles = piles_open[mask]
                pile = (
                    open_piles[int(uniform() * len(open_piles))]
                    if len(open_piles) > 1
                    else open_piles[0]
                )
                top = tops[pile]
                tops[pile] = taken = top + 1
                if taken == pile_size:
                    mask &= ~(1 << pile)
                left -= 1
                kind = piles[pile][top]
                kinds[player] |= bit[kind]
                ranks[player][rank_of[kind]] += 1
                sizes[player] += 1
                if left:
                    if sizes[player] < hand_size:
                        continue
                    if player == leader and sizes[1 - player] < hand_size:
                        player = 1 - player
                        continue
            # As _need_lobby: C11 turn a lobby card; C12 lead from hand; C13 deal over.
            passes = 0
            placer = -1
            if left:
                phase = phase_lobby
                player = 1 - leader
            elif kinds[0] or kinds[1]:
                phase = phase_play
                player = leader
            else:
                break
        return scores[0] - scores[1]

    def _playout_by_moves(self, uniform: Callable[[], float], budget: int) -> None:
        """:meth:`random_playout` one :meth:`apply_action` at a time (any state)."""
        deal = self._deal_index
        apply = self.apply_action
        compute = self.legal_actions
        while budget and self._phase != PHASE_OVER and self._deal_index == deal:
            legal = self._legal or compute()  # computed (and cached) when not cached
            apply(legal[int(uniform() * len(legal))] if len(legal) > 1 else legal[0])
            budget -= 1

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


class HiddenSampler:
    """Draws full states one seat cannot tell from the true one (see
    :meth:`CandidateState.hidden_sampler`)."""

    __slots__ = ("_base", "_counts", "_hidden", "_past", "_pools")

    def __init__(self, state: CandidateState, player: int) -> None:
        hidden = [p for p in (0, 1) if p != player]
        base = state.clone()
        base._legal = None
        for p in hidden:  # the true hidden hands are not kept
            base._hands[p] = []
            base._kinds[p] = 0
        self._base = base
        self._hidden = hidden
        tops = state._tops
        #: Per suit: the unseen cards (rest of the pile, the hidden hands' cards), sorted
        #: so a draw depends only on which cards are unseen, never on their order.
        self._pools: list[list[int]] = []
        #: Per suit, per hidden player: how many of the suit its hand holds (public).
        self._counts: list[list[int]] = []
        for suit in range(4):
            pool = list(state._piles[suit][tops[suit] :])
            counts = []
            for p in hidden:
                held = [k for k in state._hands[p] if k // 13 == suit]
                pool.extend(held)
                counts.append(len(held))
            pool.sort()
            self._pools.append(pool)
            self._counts.append(counts)
        #: Per suit, the pile's taken part with the cards others received masked.
        self._past = public_past(
            state._dealer, state._piles, tops, state._moves, state._drawers, hidden
        )

    def draw(self, rng: random.Random) -> CandidateState:
        """A fresh state: the unseen cards of every suit shuffled, the hidden hands
        dealt their public counts per suit, the rest back on the piles."""
        state = self._base.clone()
        uniform = rng.random

        def key(_: int) -> float:
            return uniform()

        past = self._past
        pools = self._pools
        counts = self._counts
        piles = []
        if len(self._hidden) == 1:  # a seat's draw: one hidden hand (the usual case)
            hidden = self._hidden[0]
            hand = state._hands[hidden]
            for suit in range(4):
                # Sorting by independent uniform keys is a uniform shuffle, and cheaper
                # in Python than random.shuffle's per-card integer draws.
                pool = sorted(pools[suit], key=key)
                count = counts[suit][0]
                if count:
                    hand += pool[:count]
                    piles.append(past[suit] + tuple(pool[count:]))
                else:
                    piles.append(past[suit] + tuple(pool))
            state._piles = tuple(piles)
            state._kinds[hidden] = kind_bits(hand)
            return state
        hands = [state._hands[p] for p in self._hidden]
        for suit in range(4):
            pool = sorted(pools[suit], key=key)
            taken = 0
            for hand, count in zip(hands, counts[suit], strict=True):
                if count:
                    hand.extend(pool[taken : taken + count])
                    taken += count
            piles.append(past[suit] + tuple(pool[taken:]))
        state._piles = tuple(piles)
        for p, hand in zip(self._hidden, hands, strict=True):
            state._kinds[p] = kind_bits(hand)
        return state
