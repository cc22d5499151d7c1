"""A Candidate seat's information set, rebuilt from what the server told the seat.

The Bot API sends a seat exactly what a person there sees (docs/protocol.md): the
public moves, the cards it was dealt and drew, every card turned or played. A bot of
:mod:`cardtable.bots` wants a :class:`~cardtable.games.candidate.info.CandidateInfo`,
made from a full state. :func:`rebuild` makes one full state the seat cannot tell
from the true one, from the seat's messages only:

- each deal's pile positions are walked as the engine takes cards (C3-C10): ``deal P``
  gives the first ten cards of pile P alternately (the non-dealer first), ``lobby P``
  turns the top face up, ``draw P`` gives the top to the drawer;
- a position holds the card the seat saw there (its own cards, the turned ones), or, for
  a card the opponent later played, the opponent's earliest position of that suit not
  yet used and taken before the play (any such choice is consistent);
- every other position gets the suit's remaining cards in a random order.

The moves are then replayed on those piles; ISMCTS and the others determinise from
that state as they would from the true one. Nothing of the true hidden cards is read
(there is none to read), so the info is a fair one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import parse_card_kind
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState

__all__ = ["CandidateSeat", "Seen", "rebuild"]

#: The piles in the order of their index (a card's suit is ``kind // 13``).
PILES = "SHDC"
#: Cards the deal gives out from its pile (five each, C4).
DEALT = 10


@dataclass(frozen=True, slots=True)
class Seen:
    """One move as the seat saw it: who made it, its text, its events for the seat."""

    seat: int
    move: str
    events: tuple[dict[str, Any], ...] = ()


def _cards(events: Sequence[dict[str, Any]], kind: str, player: int | None = None) -> list[int]:
    for event in events:
        if event.get("type") == kind and (player is None or event.get("player") == player):
            return [parse_card_kind(text) for text in event.get("cards", ())]
    return []


def _piles(decks: int, seat: int, moves: Sequence[Seen], rng: random.Random) -> list[list[int]]:
    """One deal's piles consistent with what ``seat`` saw of its ``moves``."""
    size = 13 * decks
    known: list[list[int | None]] = [[None] * size for _ in PILES]
    owner: list[list[int | None]] = [[None] * size for _ in PILES]
    tops = [0, 0, 0, 0]
    for seen in moves:
        word, *rest = seen.move.split()
        if word in ("deal", "lobby", "draw"):
            pile = PILES.index(rest[0])
        if word == "deal":
            dealer = seen.seat
            for k in range(DEALT):
                owner[pile][k] = 1 - dealer if k % 2 == 0 else dealer
            mine = [k for k in range(DEALT) if owner[pile][k] == seat]
            for k, card in zip(mine, sorted(_cards(seen.events, "received", seat)), strict=False):
                known[pile][k] = card
            tops[pile] = DEALT
        elif word == "lobby":
            owner[pile][tops[pile]] = -1
            turned = _cards(seen.events, "lobby_turned")
            known[pile][tops[pile]] = turned[0] if turned else None
            tops[pile] += 1
        elif word == "draw":
            owner[pile][tops[pile]] = seen.seat
            if seen.seat == seat:
                drawn = _cards(seen.events, "drew")
                known[pile][tops[pile]] = drawn[0] if drawn else None
            tops[pile] += 1
        elif word == "play" and seen.seat != seat:
            for text in rest:
                card = parse_card_kind(text)
                suit = card // 13
                held = next(
                    k
                    for k in range(tops[suit])
                    if owner[suit][k] == seen.seat and known[suit][k] is None
                )
                known[suit][held] = card
    piles: list[list[int]] = []
    for index, spots in enumerate(known):
        left = [index * 13 + rank for rank in range(13)] * decks
        for spot in spots:
            if spot is not None:
                left.remove(spot)
        rng.shuffle(left)
        fill = iter(left)
        piles.append([spot if spot is not None else next(fill) for spot in spots])
    return piles


def rebuild(
    options: CandidateOptions,
    seat: int,
    first_dealer: int,
    moves: Sequence[Seen],
    rng: random.Random,
) -> CandidateState:
    """A full state ``seat`` cannot tell from the true one (module docstring)."""
    deals: list[list[Seen]] = []
    for seen in moves:
        if seen.move.startswith("deal ") or not deals:
            deals.append([])
        deals[-1].append(seen)
    if not deals:
        deals.append([])
    state: CandidateState | None = None
    for moves_of_deal in deals:
        piles = _piles(options.decks, seat, moves_of_deal, rng)
        if state is None:
            state = CandidateState.from_piles(
                piles, first_dealer, options, seed=rng.randrange(2**62)
            )
        else:
            state.set_deal_piles(piles)
        for seen in moves_of_deal:
            state.apply(seen.move)
    assert state is not None  # a deal not begun yet has random piles: from the seed
    return state


@dataclass
class CandidateSeat:
    """Follows one Candidate seat's messages and makes its information set."""

    seat: int
    rng: random.Random
    moves: list[Seen] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def observe(self, message: dict[str, Any]) -> None:
        """Take in one message of the seat's stream."""
        if message.get("type") == "welcome":
            self.moves = [
                Seen(h["seat"], h["move"], tuple(h.get("events") or ())) for h in message["history"]
            ]
        event = message.get("event") or {}
        if message.get("type") == "update" and event.get("type") == "move":
            self.moves.append(Seen(event["seat"], event["move"], tuple(event.get("events") or ())))
        if isinstance(message.get("state"), dict):
            self.state = message["state"]

    def info(self) -> CandidateInfo:
        """The seat's information set now (its state rebuilt; module docstring)."""
        assert self.state is not None
        view = self.state["view"]
        options = CandidateOptions(decks=view["decks"], deals=view["deals"])
        first = self.moves[0].seat if self.moves else view["dealer"]
        state = rebuild(options, self.seat, first, self.moves, self.rng)
        info = CandidateInfo.of(state, self.seat)
        mine = sorted(info.view.hand or ())
        if mine != sorted(view["hand"] or ()):
            raise RuntimeError(f"the rebuilt hand {mine} is not the seat's {view['hand']}")
        return info
