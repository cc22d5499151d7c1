"""The state of a Candidate match: N deals, every decision of RULINGS.md C1–C17.

A :class:`CandidateState` is driven one decision at a time, OpenSpiel style:

>>> state = CandidateState.new(seed=7, options=CandidateOptions(deals=1))
>>> state.decision, state.current_player, state.legal_actions()
('deal', 1, [0, 1, 2, 3])
>>> [event.kind for event in state.apply("deal H")]
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

Internals, for speed: cards are kinds (0..51); each suit pile is an immutable tuple
(top first) with a count of cards taken from it, so clones share the piles; hands,
lobby and captures are small lists of ints; the legal actions are computed once per
position and cached.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import KIND_TEXT
from cardtable.errors import CardtableError, IllegalMove
from cardtable.games.candidate.actions import (
    DEAL_BASE,
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
    RUN_OFFSET,
    SEQ_OFFSET,
    SET_OFFSET,
    action_to_text,
    text_to_action,
)
from cardtable.games.candidate.events import Event
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.scoring import CARD_POINTS, capture_score
from cardtable.games.candidate.scoring import winners as best_players
from cardtable.games.candidate.views import CandidateView

__all__ = [
    "HAND_SIZE",
    "TERMINAL",
    "CandidateState",
    "DealResult",
    "Piles",
    "deal_piles",
    "first_dealer",
]

#: C4, C10: cards dealt to each hand, and the most a hand holds.
HAND_SIZE = 5
#: :attr:`CandidateState.current_player` once the match is over (OpenSpiel's value).
TERMINAL = -4

# Phases: which decision the current player makes.
_DEAL, _LOBBY, _PLAY, _DRAW, _OVER = 0, 1, 2, 3, 4
_DECISIONS = ("deal", "lobby", "play", "draw", None)
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_ALL_PILES = (0, 1, 2, 3)
# Legal `lobby X` / `draw X` ids for each mask of non-empty piles (bit X set: pile X).
_LOBBY_BY_MASK = tuple(
    tuple(LOBBY_BASE + x for x in range(4) if mask >> x & 1) for mask in range(16)
)
_DRAW_BY_MASK = tuple(tuple(DRAW_BASE + x for x in range(4) if mask >> x & 1) for mask in range(16))
_DEAL_ACTIONS = tuple(DEAL_BASE + x for x in range(4))
_ONLY_PASS = (PASS,)
#: _RANK_KINDS[r]: the kind bits of the four cards of rank index r (0 = 2 … 12 = A);
#: index 13 (past the ace) and -1 (no rank) give 0.
_RANK_KINDS = (*(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)), 0)

#: The four suit piles of a deal, each top card first, as card kinds.
Piles = tuple[tuple[int, ...], ...]


def deal_piles(seed: int | str, deal_index: int, decks: int) -> Piles:
    """C3: the four shuffled suit piles of deal ``deal_index`` (0-based) of a seeded match.

    Every deal has its own generator: the SHAKE-256 stream of the text
    ``cardtable/candidate/SEED/DEAL``, a standard function, so the cards are the same on
    every machine and do not depend on the moves. The stream gives each card of the deal
    a 64-bit key; each pile is ordered by its cards' keys (a uniform shuffle; two equal
    keys, below one chance in 10**16, keep deck order).
    """
    size = 13 * decks
    data = hashlib.shake_256(f"cardtable/candidate/{seed}/{deal_index}".encode()).digest(32 * size)
    keys = struct.unpack(f">{4 * size}Q", data)
    by_key = keys.__getitem__
    piles = []
    for suit in range(4):
        # Position g = suit*size + rank*decks + copy holds kind g // decks.
        order = sorted(range(suit * size, suit * size + size), key=by_key)
        piles.append(tuple(order) if decks == 1 else tuple([g // decks for g in order]))
    return tuple(piles)


def first_dealer(seed: int | str) -> int:
    """C2: the first dealer, chosen by lot from the seed: the low bit of the first byte
    of ``sha256("cardtable/candidate/SEED/lot")``."""
    return hashlib.sha256(f"cardtable/candidate/{seed}/lot".encode()).digest()[0] & 1


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: what it was dealt from, every move, and what each player took."""

    dealer: int
    piles: Piles
    moves: tuple[int, ...]
    #: Who made each `draw` move, in order (lets the deal be re-walked cheaply).
    drawers: tuple[int, ...]
    captures: tuple[tuple[tuple[int, ...], ...], ...]
    scores: tuple[int, ...]
    discards: tuple[int, ...]


def check_piles(piles: Sequence[Sequence[int]], decks: int) -> str | None:
    """Why ``piles`` are not four suit piles of ``decks`` decks (C3), or None if they are."""
    if len(piles) != 4:
        return f"expected 4 piles, got {len(piles)}"
    for suit, pile in enumerate(piles):
        letter = PILE_LETTERS[suit]
        counts = Counter(pile)
        for kind in counts:
            if not 0 <= kind < 52 or kind // 13 != suit:
                return f"pile {letter}: {KIND_TEXT[kind]} is not of suit {letter}"
        for rank in range(13):
            have = counts.get(suit * 13 + rank, 0)
            if have != decks:
                text = KIND_TEXT[suit * 13 + rank]
                copies = "once" if decks == 1 else f"{decks} times"
                return (
                    f"pile {letter}: expected every {letter} card {copies} "
                    f"({13 * decks} cards), but {text} is there {have} times"
                )
    return None


def _suit_list(at_rank: int) -> tuple[int, ...]:
    return tuple(s for s in range(4) if at_rank >> s & 1)


def _set_tails(suits: Sequence[int]) -> tuple[int, ...]:
    """Id offsets (within a first card's sets) of every ordered choice of 1–4 of
    ``suits`` (a multiset of suit indexes) to follow the first card of a set."""
    found: set[int] = set()

    def grow(left: list[int], length: int, digits: int) -> None:
        for i, suit in enumerate(left):
            code = digits * 4 + suit
            found.add(SEQ_OFFSET[length + 1] + code)
            if length + 1 < 4:
                grow(left[:i] + left[i + 1 :], length + 1, code)

    grow(list(suits), 0, 0)
    return tuple(sorted(found))


# Suits present at one rank, by 4-bit mask (bit s: suit s); the set continuations
# offered by the other suits of a rank in a one-deck hand, by the same mask.
_SUITS_BY_MASK = tuple(_suit_list(mask) for mask in range(16))
_SET_TAILS_BY_MASK = tuple(_set_tails(_SUITS_BY_MASK[mask]) for mask in range(16))


def _suit_mask(kinds: int, rank: int) -> int:
    """The 4-bit mask of suits of rank index ``rank`` in a kind bit mask."""
    return (
        (kinds >> rank & 1)
        | (kinds >> (12 + rank) & 2)
        | (kinds >> (24 + rank) & 4)
        | (kinds >> (36 + rank) & 8)
    )


def _legal_plays(
    hand: list[int],
    kinds: int,
    lobby_empty: bool,
    run_need: int,
    set_need: int,
    multi: bool,
    out: list[int],
) -> list[int]:
    """C7, C12: add every play from ``hand`` onto the lobby to ``out``; return it sorted.

    ``kinds``: the bit mask of kinds in hand. ``run_need``/``set_need``: the rank index a
    card must have to continue the lobby as a run/set (-1: that kind cannot continue
    it); with an empty lobby any card starts. ``multi``: several decks (copies).

    Runs are built rank by rank from bit masks (a run never reuses a card, so copies do
    not matter); one-deck sets come from a table by the other suits of the rank.
    """
    starts = kinds if lobby_empty else kinds & (_RANK_KINDS[run_need] | _RANK_KINDS[set_need])
    while starts:
        low = starts & -starts
        starts ^= low
        first = low.bit_length() - 1
        rank = first % 13
        base = PLAY_BASE + first * PLAY_STRIDE
        out.append(base)
        if lobby_empty or rank == run_need:
            # A run: one rank up per card; `tail` while each rank has one suit.
            tails: list[int] | None = None
            tail = level = 0
            above = rank
            while above < 12 and level < 4:
                above += 1
                mask = (
                    (kinds >> above & 1)
                    | (kinds >> (12 + above) & 2)
                    | (kinds >> (24 + above) & 4)
                    | (kinds >> (36 + above) & 8)
                )
                if not mask:
                    break
                level += 1
                suits = _SUITS_BY_MASK[mask]
                offset = base + RUN_OFFSET + SEQ_OFFSET[level]
                if tails is None and len(suits) == 1:
                    tail = tail * 4 + suits[0]
                    out.append(offset + tail)
                else:
                    tails = [t * 4 + s for t in (tails or [tail]) for s in suits]
                    out.extend([offset + t for t in tails])
        if lobby_empty or rank == set_need:
            # A set: the other cards of this rank, in any order.
            if multi:
                suits_left = [k // 13 for k in hand if k % 13 == rank]
                suits_left.remove(first // 13)
                if suits_left:
                    offset = base + SET_OFFSET
                    out.extend([offset + t for t in _set_tails(suits_left)])
            else:
                others = kinds & _RANK_KINDS[rank] & ~low
                if others:
                    offset = base + SET_OFFSET
                    out.extend([offset + t for t in _SET_TAILS_BY_MASK[_suit_mask(others, rank)]])
    out.sort()
    return out


class CandidateState:
    """A Candidate match in progress (or over). See the module docstring."""

    __slots__ = (
        "_captures",
        "_deal_index",
        "_dealer",
        "_discards",
        "_drawers",
        "_first_dealer",
        "_hands",
        "_history",
        "_kinds",
        "_leader",
        "_left",
        "_legal",
        "_lobby",
        "_mask",
        "_moves",
        "_multi",
        "_options",
        "_passes",
        "_phase",
        "_pile_size",
        "_piles",
        "_placer",
        "_player",
        "_run_need",
        "_scores",
        "_seed",
        "_set_need",
        "_sink",
        "_tops",
    )

    _options: CandidateOptions
    _seed: int | str
    _first_dealer: int
    _deal_index: int
    _dealer: int
    _phase: int
    _player: int
    _piles: Piles
    _pile_size: int
    _tops: list[int]
    _left: int
    _mask: int
    _hands: list[list[int]]
    _kinds: list[int]
    _multi: bool
    _lobby: list[int]
    _run_need: int
    _set_need: int
    _placer: int
    _passes: int
    _leader: int
    _captures: list[list[tuple[int, ...]]]
    _scores: list[int]
    _discards: list[int]
    _moves: list[int]
    _drawers: list[int]
    _history: tuple[DealResult, ...]
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
        state._init(options, seed, dealer, _checked_piles(piles, options.decks))
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
        self._phase = _DEAL
        self._player = dealer
        self._legal = _DEAL_ACTIONS

    def set_deal_piles(self, piles: Sequence[Sequence[int]]) -> None:
        """Replace the current deal's piles (kinds, top first) before its first move.

        Record replay uses it: a record gives every deal's cards.
        """
        if self._phase != _DEAL or self._moves:
            raise CardtableError("the piles can only be set before a deal's first move")
        self._piles = _checked_piles(piles, self._options.decks)

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

    @property
    def current_player(self) -> int:
        """Who decides now (0 or 1), or :data:`TERMINAL` (-4) when the match is over."""
        return TERMINAL if self._phase == _OVER else self._player

    @property
    def decision(self) -> str | None:
        """What the current player decides: ``deal``, ``lobby``, ``play`` (play or pass)
        or ``draw``; None when the match is over."""
        return _DECISIONS[self._phase]

    def is_terminal(self) -> bool:
        """True when every deal of the match has been played (C17)."""
        return self._phase == _OVER

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
            if self._phase == _PLAY and self._lobby:
                # C7, C8: pass, or play cards that continue the lobby. Fast paths from
                # bit masks: no card fits (only `pass`), or only one-card plays fit.
                player = self._player
                run_need = self._run_need
                set_need = self._set_need
                starts = self._kinds[player] & (_RANK_KINDS[run_need] | _RANK_KINDS[set_need])
                if not starts:
                    legal = self._legal = _ONLY_PASS
                elif (
                    not starts & _RANK_KINDS[run_need]
                    or not self._kinds[player] & _RANK_KINDS[run_need + 1]
                ) and (
                    not starts & _RANK_KINDS[set_need]
                    or (not self._multi and starts.bit_count() == 1)
                ):
                    # No second card can follow: one-card plays, in kind (= id) order.
                    if not starts & (starts - 1):  # a single card
                        legal = self._legal = (
                            PASS,
                            PLAY_BASE + (starts.bit_length() - 1) * PLAY_STRIDE,
                        )
                        return [*legal]
                    plays = [PASS]
                    while starts:
                        low = starts & -starts
                        plays.append(PLAY_BASE + (low.bit_length() - 1) * PLAY_STRIDE)
                        starts ^= low
                    legal = self._legal = plays
                else:
                    legal = self._legal = _legal_plays(
                        self._hands[player],
                        self._kinds[player],
                        False,
                        run_need,
                        set_need,
                        self._multi,
                        [PASS],
                    )
            else:
                legal = self._legal = self._compute_legal()
        return [*legal]

    def legal_moves(self) -> list[str]:
        """The legal moves as text, in the order of :meth:`legal_actions`."""
        return [action_to_text(a) for a in self.legal_actions()]

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return action in legal

    def _compute_legal(self) -> tuple[int, ...] | list[int]:
        phase = self._phase
        if phase == _PLAY:
            hand = self._hands[self._player]
            if not self._lobby:
                # C12: an empty lobby with empty piles: start it from hand; pass only
                # with an empty hand.
                if not hand:
                    return _ONLY_PASS
                return _legal_plays(hand, self._kinds[self._player], True, -1, -1, self._multi, [])
            # C8: passing is always allowed onto a lobby.
            kinds = self._kinds[self._player]
            return _legal_plays(
                hand, kinds, False, self._run_need, self._set_need, self._multi, [PASS]
            )
        if phase == _DRAW:
            return _DRAW_BY_MASK[self._mask]
        if phase == _LOBBY:
            return _LOBBY_BY_MASK[self._mask]
        if phase == _DEAL:
            return _DEAL_ACTIONS
        return ()

    def returns(self) -> list[float]:
        """C17 as utilities: +1 for the winner, -1 for the loser, 0 each on a draw or
        while the match is not over."""
        if self._phase != _OVER:
            return [0.0, 0.0]
        totals = self.totals()
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0]

    def totals(self) -> tuple[int, int]:
        """Each player's total score: the finished deals plus the current one (C15, C17)."""
        first = sum(d.scores[0] for d in self._history)
        second = sum(d.scores[1] for d in self._history)
        if self._phase != _OVER:
            first += self._scores[0]
            second += self._scores[1]
        return first, second

    def winners(self) -> list[int]:
        """The players with the highest total so far (both on a tie), C17."""
        return best_players(self.totals())

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
            elif not lobby:  # C12: a one-card start leaves the kind open
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
                # C5, C11: the card turned starts the lobby; C7 fixes its kind later.
                self._lobby = [kind]
                rank = kind % 13
                self._run_need = rank + 1 if rank < 12 else -1
                self._set_need = rank  # (_placer and _passes were reset when needed)
                self._phase = _PLAY
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
                self._legal = _DRAW_BY_MASK[self._mask]
            elif player == self._leader and len(self._hands[1 - player]) < HAND_SIZE:
                self._player = 1 - player
                self._legal = _DRAW_BY_MASK[self._mask]
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
        self._kinds = [_kind_bits(self._hands[0]), _kind_bits(self._hands[1])]
        self._tops[pile] = 10
        self._left -= 10
        if len(cards) == 10:
            self._mask &= ~(1 << pile)
        self._phase = _LOBBY  # C5: the dealer turns the first lobby card
        self._legal = _LOBBY_BY_MASK[self._mask]
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
                self._phase = _DRAW
                self._legal = _DRAW_BY_MASK[self._mask]
                self._player = taker
                return
            if len(self._hands[1 - taker]) < HAND_SIZE:
                self._phase = _DRAW
                self._legal = _DRAW_BY_MASK[self._mask]
                self._player = 1 - taker
                return
        self._need_lobby()

    def _need_lobby(self) -> None:
        # C11: the player who will not lead turns the next lobby card; C12: with empty
        # piles the leader starts the lobby from hand; C13: no cards at all ends the deal.
        self._passes = 0
        self._placer = -1
        if self._left:
            self._phase = _LOBBY
            self._legal = _LOBBY_BY_MASK[self._mask]
            self._player = 1 - self._leader
        elif self._hands[0] or self._hands[1]:
            self._phase = _PLAY
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
            self._phase = _OVER
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

    @staticmethod
    def totals_of(history: Sequence[DealResult]) -> tuple[int, int]:
        """The sum of the deals' scores."""
        return (sum(d.scores[0] for d in history), sum(d.scores[1] for d in history))

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
            raise IllegalMove(self._explain(action), move=move)
        events: list[Event] = []
        self._sink = events
        try:
            self.apply_action(action)
        finally:
            self._sink = None
        return events

    def _explain(self, action: int) -> str:
        """Why ``action`` is not legal now, in a player's words."""
        phase = self._phase
        if phase == _OVER:
            return "the match is over: no more moves"
        if not 0 <= action < NUM_ACTIONS or (
            action >= PLAY_BASE and not PLAY_CARDS[action - PLAY_BASE]
        ):
            return f"{action} is not a move (action ids run from 0 to {NUM_ACTIONS - 1})"
        wanted = {
            _DEAL: "deal the hands: deal S, H, D or C",
            _LOBBY: "turn a lobby card: lobby X for a non-empty pile X",
            _DRAW: "draw a card: draw X for a non-empty pile X",
            _PLAY: "play cards onto the lobby or pass",
        }[phase]
        kind_of_move = (
            _PLAY
            if action >= PLAY_BASE or action == PASS
            else _DRAW
            if action >= DRAW_BASE
            else _LOBBY
            if action >= LOBBY_BASE
            else _DEAL
        )
        if kind_of_move != phase:
            return f"now is not the time for that: the player to move must {wanted}"
        if phase in (_LOBBY, _DRAW):
            return f"pile {PILE_LETTERS[(action - LOBBY_BASE) % 4]} is empty"
        hand = self._hands[self._player]
        if action == PASS:
            return (
                "the piles are used up and the lobby is empty: the leader must start the "
                "lobby with a card from hand and may not pass (C12)"
            )
        cards = PLAY_CARDS[action - PLAY_BASE]
        held = Counter(hand)
        for kind, count in Counter(cards).items():
            if held[kind] < count:
                if held[kind] == 0:
                    return f"you do not hold {KIND_TEXT[kind]}"
                return f"you hold {KIND_TEXT[kind]} only {held[kind]} times, not {count}"
        lobby = list(self._lobby)
        for kind in cards:
            reason = _why_not_next(lobby, kind)
            if reason:
                return reason
            lobby.append(kind)
        return "that move is not legal now"

    # -- reading the state ------------------------------------------------------------

    @property
    def options(self) -> CandidateOptions:
        """The match's rule options."""
        return self._options

    @property
    def seed(self) -> int | str:
        """The seed later deals are dealt from."""
        return self._seed

    @property
    def deal_number(self) -> int:
        """The current deal, counted from 1."""
        return self._deal_index + 1

    @property
    def dealer(self) -> int:
        """The current deal's dealer (C2)."""
        return self._dealer

    @property
    def leader(self) -> int:
        """Who leads the current (or next) trick."""
        return self._leader

    @property
    def history(self) -> tuple[DealResult, ...]:
        """The finished deals."""
        return self._history

    @property
    def moves(self) -> list[int]:
        """The current deal's moves so far, as ids."""
        return list(self._moves)

    @property
    def piles(self) -> Piles:
        """The current deal's four piles as dealt (kinds, top first)."""
        return self._piles

    def pile(self, suit: int) -> tuple[int, ...]:
        """The cards left in the pile of ``suit`` (0..3), top first."""
        return self._piles[suit][self._tops[suit] :]

    def hand(self, player: int) -> tuple[int, ...]:
        """Player ``player``'s hand (kinds, sorted)."""
        return tuple(sorted(self._hands[player]))

    @property
    def lobby(self) -> tuple[int, ...]:
        """The lobby sequence, in the order placed."""
        return tuple(self._lobby)

    @property
    def lobby_kind(self) -> str | None:
        """``run`` or ``set`` once fixed (C7); None for an empty or one-card lobby."""
        lobby = self._lobby
        if len(lobby) < 2:
            return None
        return "set" if lobby[0] % 13 == lobby[1] % 13 else "run"

    def captures(self, player: int) -> tuple[tuple[int, ...], ...]:
        """The sequences ``player`` took in the current deal, in order."""
        return tuple(self._captures[player])

    @property
    def discards(self) -> tuple[int, ...]:
        """Lobby cards discarded in the current deal (C9)."""
        return tuple(self._discards)

    @property
    def deal_scores(self) -> tuple[int, int]:
        """The current deal's scores so far."""
        return self._scores[0], self._scores[1]

    def all_cards(self) -> Counter[int]:
        """Every card of the current deal, wherever it is (a check: 52 × decks)."""
        cards: Counter[int] = Counter()
        for suit in _ALL_PILES:
            cards.update(self.pile(suit))
        for p in (0, 1):
            cards.update(self._hands[p])
            for captured in self._captures[p]:
                cards.update(captured)
        cards.update(self._lobby)
        cards.update(self._discards)
        return cards

    def hand_suits(self, player: int) -> tuple[int, int, int, int]:
        """How many cards of each suit ``player`` holds. Public: every card enters a hand
        from a pile whose suit everyone sees (C3, C4, C10)."""
        counts = [0, 0, 0, 0]
        for kind in self._hands[player]:
            counts[kind // 13] += 1
        return counts[0], counts[1], counts[2], counts[3]

    def view(self, player: int | None) -> CandidateView:
        """Exactly what ``player`` may see (None: a spectator, who sees no hand)."""
        over = self._phase == _OVER
        deciding = not over and player == self._player
        legal = tuple(self.legal_actions()) if deciding else ()
        if over:  # the last deal, as it ended
            last = self._history[-1]
            taken: Sequence[Sequence[tuple[int, ...]]] = last.captures
            deal_scores = (last.scores[0], last.scores[1])
            discarded: Sequence[int] = last.discards
        else:
            taken = self._captures
            deal_scores = self.deal_scores
            discarded = self._discards
        captures = tuple(tuple(tuple(KIND_TEXT[k] for k in c) for c in taken[p]) for p in (0, 1))
        discards = tuple(KIND_TEXT[k] for k in discarded)
        return CandidateView(
            viewer=player,
            deal_number=self.deal_number,
            deals=self._options.deals,
            decks=self._options.decks,
            dealer=self._dealer,
            current_player=None if over else self._player,
            decision=self.decision,
            leader=self._leader,
            hand=None if player is None else tuple(KIND_TEXT[k] for k in self.hand(player)),
            hand_sizes=(len(self._hands[0]), len(self._hands[1])),
            hand_suits=(self.hand_suits(0), self.hand_suits(1)),
            piles=tuple((PILE_LETTERS[s], len(self._piles[s]) - self._tops[s]) for s in _ALL_PILES),
            lobby=tuple(KIND_TEXT[k] for k in self._lobby),
            lobby_kind=self.lobby_kind,
            captures=captures,
            capture_scores=tuple(tuple(capture_score(c) for c in taken[p]) for p in (0, 1)),
            discards=discards,
            deal_scores=deal_scores,
            past_deal_scores=tuple(d.scores for d in self._history),
            totals=self.totals(),
            legal_actions=legal,
            legal_moves=tuple(action_to_text(a) for a in legal),
            is_over=over,
            winners=tuple(self.winners()) if over else (),
        )

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen in the match, in order: a key that is equal for
        two states exactly when ``player`` cannot tell them apart (perfect recall)."""
        parts = [f"p{player} decks{self._options.decks} deals{self._options.deals}"]
        deals: list[tuple[int, Piles, Sequence[int], Sequence[int]]] = [
            (d.dealer, d.piles, d.moves, d.drawers) for d in self._history
        ]
        if self._phase != _OVER:
            deals.append((self._dealer, self._piles, self._moves, self._drawers))
        for number, (dealer, piles, moves, drawers) in enumerate(deals, start=1):
            parts.append(f"| deal {number} dealer {dealer}:")
            for move, receiver, kind, pile in _walk(dealer, piles, moves, drawers):
                text = action_to_text(move)
                if move < LOBBY_BASE:  # the deal: only one's own five cards
                    mine = piles[pile][0 if player == 1 - dealer else 1 : 10 : 2]
                    parts.append(f"{text} [{' '.join(KIND_TEXT[k] for k in sorted(mine))}]")
                elif kind >= 0 and (receiver < 0 or receiver == player):
                    parts.append(f"{text}={KIND_TEXT[kind]}")
                else:
                    parts.append(text)
        return " ".join(parts)

    def resample_hidden(self, player: int | None, rng: random.Random) -> CandidateState:
        """A full state consistent with all ``player`` may see (None: a spectator), the
        unseen cards dealt anew uniformly at random: the basis of ISMCTS.

        Unseen are the cards in the other hand(s) and in the piles. Each suit's unseen
        cards are shuffled and split between the piles (a pile holds only its own suit)
        and the hidden hands, which keep their public suit counts. The past is rewritten
        to match: the hidden cards a player received and still holds are swapped in the
        deal's piles, so the new state replays from its own record.
        """
        state = self.clone()
        if self._phase == _OVER:
            return state
        hidden = [p for p in (0, 1) if p != player]
        piles = [list(p) for p in self._piles]
        owners = _pile_owners(self._dealer, self._piles, self._moves, self._drawers)
        new_hands: dict[int, list[int]] = {p: [] for p in hidden}
        for suit in _ALL_PILES:
            top = self._tops[suit]
            pool = list(piles[suit][top:])
            held_at: dict[int, list[int]] = {}
            for p in hidden:
                held = Counter(k for k in self._hands[p] if k // 13 == suit)
                pool.extend(held.elements())
                # The cards still held sit at the latest positions of their kind that p
                # received; earlier copies are the ones p played (always consistent).
                positions = []
                for pos in range(top - 1, -1, -1):
                    kind = piles[suit][pos]
                    if owners[suit][pos] == p and held[kind] > 0:
                        held[kind] -= 1
                        positions.append(pos)
                held_at[p] = sorted(positions)
            # Sorted first, so the sample depends only on which cards are unseen, never on
            # their hidden order: a bot's decision cannot leak what it must not know.
            pool.sort()
            rng.shuffle(pool)
            for p in hidden:
                for pos in held_at[p]:
                    kind = pool.pop()
                    piles[suit][pos] = kind
                    new_hands[p].append(kind)
            piles[suit][top:] = pool
        state._piles = tuple(tuple(p) for p in piles)
        for p in hidden:
            state._hands[p] = new_hands[p]
            state._kinds[p] = _kind_bits(new_hands[p])
        state._legal = None
        return state

    # -- records ----------------------------------------------------------------------

    def deal_records(self) -> list[dict[str, Any]]:
        """The ``deals`` of this match's record (RECORDS.md): every deal begun so far."""
        deals = [(d.dealer, d.piles, d.moves) for d in self._history]
        if self._phase != _OVER:
            deals.append((self._dealer, self._piles, tuple(self._moves)))
        return [
            {
                "dealer": dealer,
                "piles": {PILE_LETTERS[s]: [KIND_TEXT[k] for k in piles[s]] for s in _ALL_PILES},
                "moves": [action_to_text(a) for a in moves],
            }
            for dealer, piles, moves in deals
        ]

    def to_record(self, players: Sequence[str] = ("Player 1", "Player 2")) -> dict[str, Any]:
        """This match as a game record (RECORDS.md): options, every deal's piles and moves.

        The current deal is included even before its first move, so a saved game resumes
        with the same cards.
        """
        return {
            "game": "candidate",
            "options": self._options.to_dict(),
            "players": list(players),
            "deals": self.deal_records(),
        }

    # -- comparison and display -------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self._options,
            self._first_dealer,
            self._history,
            self._deal_index,
            self._dealer,
            self._phase,
            self._player,
            self._piles,
            tuple(self._tops),
            tuple(tuple(sorted(h)) for h in self._hands),
            tuple(self._lobby),
            self._run_need,
            self._set_need,
            self._placer,
            self._passes,
            self._leader,
            tuple(tuple(c) for c in self._captures),
            tuple(self._scores),
            tuple(self._discards),
            tuple(self._moves),
            tuple(self._drawers),
        )

    def __eq__(self, other: object) -> bool:
        """Equal states: the same match at the same moment (hands compared as sets)."""
        if not isinstance(other, CandidateState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self._phase == _OVER:
            return f"<CandidateState over, totals {self.totals()}>"
        return (
            f"<CandidateState deal {self.deal_number}/{self._options.deals}, "
            f"player {self._player} to {self.decision}, lobby "
            f"[{' '.join(KIND_TEXT[k] for k in self._lobby)}], totals {self.totals()}>"
        )

    def __str__(self) -> str:
        return self.view(None).describe()


def _kind_bits(hand: Sequence[int]) -> int:
    bits = 0
    for kind in hand:
        bits |= 1 << kind
    return bits


def _checked_piles(piles: Sequence[Sequence[int]], decks: int) -> Piles:
    result = tuple(tuple(p) for p in piles)
    reason = check_piles(result, decks)
    if reason:
        raise CardtableError(reason)
    return result


def _walk(
    dealer: int, piles: Piles, moves: Sequence[int], drawers: Sequence[int]
) -> list[tuple[int, int, int, int]]:
    """Each move of a deal with who received the card it took from a pile (-1: public,
    -2: nobody), the card (-1: none) and the pile (-1: none)."""
    tops = [0, 0, 0, 0]
    out = []
    draws = iter(drawers)
    for move in moves:
        if move < LOBBY_BASE:
            tops[move] = 10
            out.append((move, -2, -1, move))
        elif move < DRAW_BASE:
            pile = move - LOBBY_BASE
            out.append((move, -1, piles[pile][tops[pile]], pile))
            tops[pile] += 1
        elif move < PASS:
            pile = move - DRAW_BASE
            out.append((move, next(draws), piles[pile][tops[pile]], pile))
            tops[pile] += 1
        else:
            out.append((move, -2, -1, -1))
    return out


def _pile_owners(
    dealer: int, piles: Piles, moves: Sequence[int], drawers: Sequence[int]
) -> list[list[int]]:
    """For each pile position taken so far, the player who received it (-1: the lobby)."""
    owners = [[-1] * len(p) for p in piles]
    tops = [0, 0, 0, 0]
    draws = iter(drawers)
    for move in moves:
        if move < LOBBY_BASE:
            for pos in range(10):
                owners[move][pos] = (1 - dealer) if pos % 2 == 0 else dealer
            tops[move] = 10
        elif move < DRAW_BASE:
            tops[move - LOBBY_BASE] += 1
        elif move < PASS:
            pile = move - DRAW_BASE
            owners[pile][tops[pile]] = next(draws)
            tops[pile] += 1
    return owners


def _why_not_next(lobby: list[int], kind: int) -> str | None:
    """Why ``kind`` cannot be placed next on ``lobby`` (C7), or None if it can."""
    if not lobby:
        return None  # C12: any card starts an empty lobby
    rank = kind % 13
    last = lobby[-1] % 13
    card = KIND_TEXT[kind]
    if len(lobby) == 1:
        if rank == last or rank == last + 1:
            return None
        options = f"a {_RANKS[last + 1]} (a run) or " if last < 12 else ""
        return (
            f"{card} does not continue the lobby {KIND_TEXT[lobby[0]]}: the next card must "
            f"be {options}a {_RANKS[last]} (a set)"
        )
    if lobby[0] % 13 == lobby[1] % 13:
        if rank == last:
            return None
        return (
            f"{card} does not continue the set of {_RANKS[last]}s: "
            f"the next card must be a {_RANKS[last]}"
        )
    if rank == last + 1:
        return None
    run = "-".join(_RANKS[k % 13] for k in lobby)
    if last == 12:
        return f"{card} does not continue the run {run}: a run stops at A (C7)"
    return f"{card} does not continue the run {run}: the next card must be a {_RANKS[last + 1]}"
