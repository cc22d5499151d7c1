"""Helpers for Candidate tests: build exact positions from chosen cards."""

from __future__ import annotations

import random
from collections.abc import Iterable

from cardtable.cards import parse_card_kind
from cardtable.games.candidate import CandidateOptions, CandidateState

LETTERS = "SHDC"


def kinds(text: str) -> list[int]:
    """Card kinds of a space-separated text (``"9S 10H"``)."""
    return [parse_card_kind(t) for t in text.split()]


def arranged_piles(decks: int = 1, **tops: str) -> list[list[int]]:
    """Four suit piles whose top cards are given (``S="9S QS"``, top first); the rest
    of each suit follows in rank order."""
    piles = []
    for suit, letter in enumerate(LETTERS):
        top = kinds(tops.get(letter, ""))
        rest = [suit * 13 + r for r in range(13) for _ in range(decks)]
        for kind in top:
            assert kind // 13 == suit, f"{kind} is not of suit {letter}"
            rest.remove(kind)
        piles.append(top + rest)
    return piles


def dealt(
    dealer_hand: str,
    other_hand: str,
    *,
    dealer: int = 0,
    pile: str = "S",
    decks: int = 1,
    deals: int = 1,
    rest: str = "",
    **tops: str,
) -> CandidateState:
    """A state just after ``deal <pile>`` in which the hands are exactly as given.

    ``rest``: the cards of ``pile`` under the ten dealt (top first); ``tops``: the top
    cards of the other piles.
    """
    dealer_cards = dealer_hand.split()
    other_cards = other_hand.split()
    assert len(dealer_cards) == len(other_cards) == 5
    interleaved = [c for pair in zip(other_cards, dealer_cards, strict=True) for c in pair]
    tops[pile] = " ".join([*interleaved, *rest.split()])
    piles = arranged_piles(decks, **tops)
    state = CandidateState.from_piles(piles, dealer, CandidateOptions(decks=decks, deals=deals))
    state.apply(f"deal {pile}")
    return state


def play_out(state: CandidateState, rng: random.Random, limit: int = 100_000) -> list[int]:
    """Random legal moves (checked) until the match ends; the moves made."""
    made = []
    while not state.is_terminal() and len(made) < limit:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        made.append(action)
    return made


def texts(state_cards: Iterable[int]) -> list[str]:
    from cardtable.cards import KIND_TEXT

    return [KIND_TEXT[k] for k in state_cards]
