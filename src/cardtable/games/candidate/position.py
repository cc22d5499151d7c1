"""A Candidate match at one moment, and everything that may be read from it.

:class:`CandidatePosition` holds the facts of a match: where every card of the current
deal is, the finished deals, whose decision it is and what, the scores. It only reads
them. :class:`~cardtable.games.candidate.state.CandidateState` is a position plus the
moves that change it (the state machine), as python-chess's ``Board`` is a
``BaseBoard`` plus moves. The modules that only read a match — the explanations of
illegal moves (:mod:`.explain`), the views (:mod:`.views`), the record writing
(:mod:`.record_writing`) — take a position, so the state machine can use them without
an import cycle. Rules: ``docs/rules/candidate.en.md``.

A position is never made on its own: :meth:`CandidateState.new
<cardtable.games.candidate.state.CandidateState.new>` and its siblings make states.

Internals, for speed: cards are kinds (0..51); each suit pile is an immutable tuple
(top first) with a count of cards taken from it, so clones share the piles; hands,
lobby and captures are small lists of ints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.cards import KIND_TEXT
from cardtable.games.candidate.actions import DRAW_BASE, LOBBY_BASE, PASS, action_to_text
from cardtable.games.candidate.deal import DealResult, Piles
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.scoring import winners as best_players

__all__ = [
    "PHASE_DEAL",
    "PHASE_DRAW",
    "PHASE_LOBBY",
    "PHASE_OVER",
    "PHASE_PLAY",
    "TERMINAL",
    "CandidatePosition",
]

#: :attr:`CandidateState.current_player` once the match is over (OpenSpiel's value).
TERMINAL = -4

# Phases: which decision the current player makes.
PHASE_DEAL, PHASE_LOBBY, PHASE_PLAY, PHASE_DRAW, PHASE_OVER = 0, 1, 2, 3, 4
_DECISIONS = ("deal", "lobby", "play", "draw", None)
_ALL_PILES = (0, 1, 2, 3)


class CandidatePosition:
    """A Candidate match at one moment, read-only (see the module docstring)."""

    __slots__ = (
        "_captures",
        "_deal_index",
        "_dealer",
        "_discards",
        "_drawers",
        "_first_dealer",
        "_hands",
        "_history",
        "_leader",
        "_lobby",
        "_moves",
        "_options",
        "_passes",
        "_phase",
        "_piles",
        "_placer",
        "_player",
        "_run_need",
        "_scores",
        "_seed",
        "_set_need",
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
    _tops: list[int]
    _hands: list[list[int]]
    _lobby: list[int]
    #: The rank index the next lobby card must have to continue it as a run / a set
    #: (-1: it cannot continue that way), kept as the lobby grows (C7, C12).
    _run_need: int
    _set_need: int
    #: Who placed the last card onto the lobby (-1: nobody yet), and whether the
    #: player before passed (C8, C9).
    _placer: int
    _passes: int
    _leader: int
    _captures: list[list[tuple[int, ...]]]
    _scores: list[int]
    _discards: list[int]
    _moves: list[int]
    _drawers: list[int]
    _history: tuple[DealResult, ...]

    # -- whose decision, and the scores -----------------------------------------------

    @property
    def current_player(self) -> int:
        """Who decides now (0 or 1), or :data:`TERMINAL` (-4) when the match is over."""
        return TERMINAL if self._phase == PHASE_OVER else self._player

    @property
    def decision(self) -> str | None:
        """What the current player decides: ``deal``, ``lobby``, ``play`` (play or pass)
        or ``draw``; None when the match is over."""
        return _DECISIONS[self._phase]

    def is_terminal(self) -> bool:
        """True when every deal of the match has been played (C17)."""
        return self._phase == PHASE_OVER

    def returns(self) -> list[float]:
        """C17 as utilities: +1 for the winner, -1 for the loser, 0 each on a draw or
        while the match is not over."""
        if self._phase != PHASE_OVER:
            return [0.0, 0.0]
        totals = self.totals()
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0]

    def totals(self) -> tuple[int, int]:
        """Each player's total score: the finished deals plus the current one (C15, C17)."""
        first = sum(d.scores[0] for d in self._history)
        second = sum(d.scores[1] for d in self._history)
        if self._phase != PHASE_OVER:
            first += self._scores[0]
            second += self._scores[1]
        return first, second

    def winners(self) -> list[int]:
        """The players with the highest total so far (both on a tie), C17."""
        return best_players(self.totals())

    @staticmethod
    def totals_of(history: Sequence[DealResult]) -> tuple[int, int]:
        """The sum of the deals' scores."""
        return (sum(d.scores[0] for d in history), sum(d.scores[1] for d in history))

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
    def lobby_shape(self) -> str | None:
        """The lobby's shape, ``run`` or ``set``, once fixed (C7); None for an empty or
        one-card lobby."""
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

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen in the match, in order: a key that is equal for
        two states exactly when ``player`` cannot tell them apart (perfect recall)."""
        parts = [f"p{player} decks{self._options.decks} deals{self._options.deals}"]
        deals: list[tuple[int, Piles, Sequence[int], Sequence[int]]] = [
            (d.dealer, d.piles, d.moves, d.drawers) for d in self._history
        ]
        if self._phase != PHASE_OVER:
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
        if not isinstance(other, CandidatePosition):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self._phase == PHASE_OVER:
            return f"<{type(self).__name__} over, totals {self.totals()}>"
        return (
            f"<{type(self).__name__} deal {self.deal_number}/{self._options.deals}, "
            f"player {self._player} to {self.decision}, lobby "
            f"[{' '.join(KIND_TEXT[k] for k in self._lobby)}], totals {self.totals()}>"
        )


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
