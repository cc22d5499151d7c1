"""One player's position in a round, and the rules that touch only it (S3-S13).

Players never touch each other's cards, so every move changes exactly one
:class:`Position`; the match state (:mod:`cardtable.games.spy.state`) only adds the
round's end, scoring and the match around them. A position is also what a player's
race is simulated on, alone (:mod:`cardtable.games.spy.race`).

Cards are kinds (ints 0..51, :mod:`cardtable.cards`); a card's rank index is
``kind % 13`` (0 is the 2, 12 the ace). Every stack is a list with its top **last**.

A position holds hidden cards (the racing deck, the points pile under its top, S4-S5):
it is engine-internal. Players, bots and clients see :mod:`~cardtable.games.spy.views`.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import KIND_TEXT
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    CALL,
    MAX_PILES,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
)
from cardtable.games.spy.deal import POINTS_PILE_SIZE, SQUARE

__all__ = ["FITS", "NO_LIMIT", "Position", "fits"]

#: S6: ``FITS[r]`` has bit ``s`` set when rank index ``s`` may go on rank index ``r``:
#: one rank above or below, cyclically (…Q K A 2 3…), suits never matter.
FITS: tuple[int, ...] = tuple((1 << (r + 1) % 13) | (1 << (r - 1) % 13) for r in range(13))

_UP = tuple((r + 1) % 13 for r in range(13))
_DOWN = tuple((r - 1) % 13 for r in range(13))

#: A move limit that is never reached.
NO_LIMIT = 1 << 62


def fits(card: int, onto: int) -> bool:
    """S6: may card kind ``card`` go on a pile whose top is kind ``onto``?

    >>> from cardtable.cards import parse_card_kind as k
    >>> fits(k("2H"), k("AS")), fits(k("AH"), k("KS")), fits(k("7H"), k("QS"))
    (True, True, False)
    """
    return bool(FITS[onto % 13] >> (card % 13) & 1)


class Position:
    """One player's cards in a round and the moves they make on them.

    Attributes (read them, change them only through :meth:`play`):

    - ``points``: the points pile, top last (S3; only the top is face-up, S4).
    - ``piles``: the piles' cards, bottom first (S3, S8); ``tops``: their top ranks.
    - ``deck``: the racing deck, top last (hidden, S5); ``waste``: top last (S5, S9).
    - ``counts``: per-rank counts of deck + waste, kept up to date so the S12 test is
      O(piles), not O(cards); None until the first time the test needs them (most
      positions never reach six piles).
    - ``need``: bitmask of the ranks that fit some pile top (S6).
    - ``blocked`` (S12), ``resigned`` (S13), ``called`` (S10), ``moves`` made this round.
    - ``legal``: this player's legal action ids, sorted, recomputed after each move.
    """

    __slots__ = (
        "base",
        "blocked",
        "called",
        "counts",
        "deck",
        "legal",
        "limit",
        "moves",
        "need",
        "piles",
        "player",
        "points",
        "resigned",
        "tops",
        "waste",
    )

    player: int
    base: int
    points: list[int]
    piles: list[list[int]]
    tops: list[int]
    deck: list[int]
    waste: list[int]
    counts: list[int] | None
    need: int
    blocked: bool
    resigned: bool
    called: bool
    moves: int
    limit: int
    legal: list[int]

    @classmethod
    def deal(cls, player: int, cards: Sequence[int], limit: int = NO_LIMIT) -> Position:
        """S3: lay out ``cards`` (kinds, top first as in a record's ``cards[p]``): the
        first 5 are the points pile, the next 4 piles 1-4, the rest the racing deck."""
        pos = cls.__new__(cls)
        pos.player = player
        pos.base = player * ACTIONS_PER_PLAYER
        pos.points = points = list(cards[POINTS_PILE_SIZE - 1 :: -1])
        one, two, three, four = cards[POINTS_PILE_SIZE : POINTS_PILE_SIZE + SQUARE]
        pos.piles = [[one], [two], [three], [four]]
        pos.tops = tops = [one % 13, two % 13, three % 13, four % 13]
        pos.deck = list(cards[: POINTS_PILE_SIZE + SQUARE - 1 : -1])
        pos.waste = []
        pos.counts = None
        pos.need = need = FITS[tops[0]] | FITS[tops[1]] | FITS[tops[2]] | FITS[tops[3]]
        pos.resigned = pos.called = pos.blocked = False  # fewer than 6 piles (S12)
        pos.moves = 0
        pos.limit = limit
        base = pos.base
        rank = points[-1] % 13
        legal = [base]  # S9: the racing deck is full
        if need >> rank & 1:
            fit = FITS[rank]
            action = base + PLACE_POINTS
            for top in tops:
                if fit >> top & 1:
                    legal.append(action)
                action += 1
        legal.append(base + OPEN_POINTS)
        legal.append(base + RESIGN)
        pos.legal = legal if limit > 0 else [base + RESIGN]
        return pos

    @classmethod
    def from_parts(
        cls,
        player: int,
        *,
        points: Sequence[int],
        piles: Sequence[Sequence[int]],
        deck: Sequence[int],
        waste: Sequence[int],
        limit: int = NO_LIMIT,
    ) -> Position:
        """A position from its parts, each listed **top first** except ``piles``
        (each pile bottom first, as it was built). For tests, puzzles and bots."""
        if not 1 <= len(piles) <= MAX_PILES or any(not pile for pile in piles):
            raise ValueError(f"a position has 1 to {MAX_PILES} non-empty piles")
        pos = cls()
        pos.player = player
        pos.base = player * ACTIONS_PER_PLAYER
        pos.points = list(reversed(points))
        pos.piles = [list(pile) for pile in piles]
        pos.tops = [pile[-1] % 13 for pile in piles]
        pos.deck = list(reversed(deck))
        pos.waste = list(reversed(waste))
        pos.counts = None
        pos.need = 0
        for top in pos.tops:
            pos.need |= FITS[top]
        pos.resigned = False
        pos.called = False
        pos.moves = 0
        pos.limit = limit
        pos.blocked = pos.is_blocked()
        pos.refresh()
        return pos

    def copy(self) -> Position:
        """An independent copy (for clones and simulations)."""
        pos = Position.__new__(Position)
        pos.player = self.player
        pos.base = self.base
        pos.points = self.points[:]
        pos.piles = [pile[:] for pile in self.piles]
        pos.tops = self.tops[:]
        pos.deck = self.deck[:]
        pos.waste = self.waste[:]
        counts = self.counts
        pos.counts = counts[:] if counts is not None else None
        pos.need = self.need
        pos.blocked = self.blocked
        pos.resigned = self.resigned
        pos.called = self.called
        pos.moves = self.moves
        pos.limit = self.limit
        pos.legal = self.legal[:]
        return pos

    def is_blocked(self) -> bool:
        """S12: points pile not empty, six piles, and no card among the points-pile
        top, the racing deck and the waste fits any pile top.

        Turning shows every deck and waste card in turn, so any of them that fits
        could be placed; the cards under the points-pile top can never come up while
        the top stays. Hence nothing can ever change the position. O(piles): it reads
        the per-rank counts of deck + waste.
        """
        points = self.points
        if not points or len(self.tops) < MAX_PILES:
            return False
        need = self.need
        if need >> points[-1] % 13 & 1:
            return False
        counts = self.counts
        if counts is None:
            self.counts = counts = [0] * 13
            for kind in self.deck:
                counts[kind % 13] += 1
            for kind in self.waste:
                counts[kind % 13] += 1
        return not any(counts[_UP[top]] or counts[_DOWN[top]] for top in self.tops)

    def refresh(self) -> None:
        """Recompute :attr:`legal`, this player's legal action ids in sorted order,
        for a player still in the round (calling and resigning empty it themselves)."""
        base = self.base
        if self.moves >= self.limit:
            # A stalled player's clock has run out: resigning is all that is left (S13).
            self.legal = [base + RESIGN]
            return
        points = self.points
        waste = self.waste
        tops = self.tops
        need = self.need
        legal = [base] if self.deck or waste else []  # S9: turn
        if points:
            rank = points[-1] % 13
            if need >> rank & 1:  # S6-S7: the points-pile top fits some pile
                fit = FITS[rank]
                pile = base + PLACE_POINTS
                for top in tops:
                    if fit >> top & 1:
                        legal.append(pile)
                    pile += 1
        if waste:
            rank = waste[-1] % 13
            if need >> rank & 1:  # S6-S7: the waste top fits some pile
                fit = FITS[rank]
                pile = base + PLACE_WASTE
                for top in tops:
                    if fit >> top & 1:
                        legal.append(pile)
                    pile += 1
        if len(tops) < MAX_PILES:  # S8: open a 5th or 6th pile with a playable card
            if points:
                legal.append(base + OPEN_POINTS)
            if waste:
                legal.append(base + OPEN_WASTE)
        if not points:
            legal.append(base + CALL)  # S10
        legal.append(base + RESIGN)  # S13
        self.legal = legal

    def play(self, local: int) -> bool:
        """Make local move ``local`` (0..16) without checking it is legal.

        Returns True when the move takes the player out of the race without a call:
        they resign, or this move blocks them (S12). A move that is not legal leaves
        the position inconsistent: check with :attr:`legal` first.

        This is the hot path of every simulation, so it updates the piles, the rank
        counts and :attr:`legal` in place, in one function; :meth:`refresh` computes
        the same legal list from scratch (the tests hold them equal).
        """
        self.moves += 1
        points = self.points
        waste = self.waste
        tops = self.tops
        blocked = False
        if local == TURN:  # S9
            deck = self.deck
            if deck:
                waste.append(deck.pop())
            else:
                # The waste flipped over is the new racing deck: its first-turned card
                # (the waste's bottom) is on top again. Rank counts do not change.
                waste.reverse()
                self.deck = waste
                self.waste = waste = [waste.pop()]
        else:
            if local < OPEN_POINTS:  # S6-S7: a playable card onto pile ``index``
                if local < PLACE_WASTE:
                    kind = points.pop()
                    index = local - PLACE_POINTS
                else:
                    kind = waste.pop()
                    index = local - PLACE_WASTE
                    counts = self.counts
                    if counts is not None:
                        counts[kind % 13] -= 1
                self.piles[index].append(kind)
                tops[index] = kind % 13
                need = 0
                for top in tops:
                    need |= FITS[top]
                self.need = need
            elif local <= OPEN_WASTE:  # S8: a playable card starts a new pile
                if local == OPEN_POINTS:
                    kind = points.pop()
                else:
                    kind = waste.pop()
                    counts = self.counts
                    if counts is not None:
                        counts[kind % 13] -= 1
                self.piles.append([kind])
                tops.append(kind % 13)
                self.need |= FITS[kind % 13]
            elif local == CALL:  # S10
                self.called = True
                self.legal = []
                return False
            else:  # S13: resign; a blocked player was already out of the race
                self.resigned = True
                self.legal = []
                return not self.blocked
            # S11: cards on piles never move again, so only these moves can block (S12).
            if len(tops) == MAX_PILES:
                self.blocked = blocked = self.is_blocked()
        # The legal moves, as in refresh().
        base = self.base
        if self.moves >= self.limit:
            self.legal = [base + RESIGN]  # the round's clock has run out (S13)
            return blocked
        need = self.need
        legal = [base] if waste or self.deck else []
        if points:
            rank = points[-1] % 13
            if need >> rank & 1:
                fit = FITS[rank]
                action = base + PLACE_POINTS
                for top in tops:
                    if fit >> top & 1:
                        legal.append(action)
                    action += 1
        if waste:
            rank = waste[-1] % 13
            if need >> rank & 1:
                fit = FITS[rank]
                action = base + PLACE_WASTE
                for top in tops:
                    if fit >> top & 1:
                        legal.append(action)
                    action += 1
        if len(tops) < MAX_PILES:
            if points:
                legal.append(base + OPEN_POINTS)
            if waste:
                legal.append(base + OPEN_WASTE)
        if not points:
            legal.append(base + CALL)
        legal.append(base + RESIGN)
        self.legal = legal
        return blocked

    def cards(self) -> list[int]:
        """Every card the player holds, in no particular order (for accounting)."""
        return [*self.points, *(k for pile in self.piles for k in pile), *self.deck, *self.waste]

    def __repr__(self) -> str:
        def text(kinds: Sequence[int]) -> str:
            return " ".join(KIND_TEXT[k] for k in kinds)

        piles = " | ".join(text(pile) for pile in self.piles)
        return (
            f"<Position player={self.player} points(top first)=[{text(self.points[::-1])}] "
            f"piles=[{piles}] deck(top first)=[{text(self.deck[::-1])}] "
            f"waste(top first)=[{text(self.waste[::-1])}]>"
        )
