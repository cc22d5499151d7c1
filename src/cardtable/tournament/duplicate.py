"""Duplicate rounds: every table of a round is dealt from the same seed.

A Candidate match is a function of its seed (C2 in ``docs/rules/candidate.en.md``: the
piles and the first dealer by lot), so tables dealt from one seed hold the same cards
for the same seat. A Spy race deals each player their own deck; the option
``same_deal`` (``docs/rules/spy.en.md``) gives every racer the same order of a full
deck, so every racer of the round — at every table, whatever its size — races the
same cards. Standings then compare each result with the others from the same cards
(:mod:`cardtable.tournament.standings`).

Seeds are hashes of their parts (BLAKE2b), the same on every machine and process.

Who deals first is the pairing's to give (seat 0 of a Candidate table, balanced over
the rounds), while the rules draw the first dealer by lot from the seed (C2). The two
agree because a table's seed is chosen among the seeds whose lot falls on seat 0
(:func:`dealing_seed`): the lot is still the rules' own draw, the deal is still unknown
to everyone, and seat 0 deals first at every table.
"""

from __future__ import annotations

import hashlib
from typing import Any

from cardtable.games.candidate import first_dealer
from cardtable.tournament.model import TournamentSpec

__all__ = ["dealing_seed", "round_seed", "table_options", "table_seed"]


def _hashed(*parts: object) -> int:
    text = "/".join(str(p) for p in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits: fits a signed 64-bit column


def round_seed(tournament_seed: int, round_number: int) -> int:
    """The one seed every table of a duplicate round is dealt from.

    >>> round_seed(7, 1) == round_seed(7, 1) != round_seed(7, 2)
    True
    """
    return _hashed("cardtable/tournament", tournament_seed, "round", round_number)


def dealing_seed(game: str, seed: int) -> int:
    """``seed`` itself, or for Candidate the first of ``seed`` and its rehashes whose lot
    for the first dealer (C2) falls on seat 0, so the seat the pairing gives the first
    deal is the seat that deals it (half the seeds qualify: two tries on average).

    >>> from cardtable.games.candidate import first_dealer
    >>> all(first_dealer(dealing_seed("candidate", s)) == 0 for s in range(50))
    True
    >>> dealing_seed("spy", 12345)
    12345
    """
    if game != "candidate":
        return seed
    candidate, tries = seed, 0
    while first_dealer(candidate) != 0:
        tries += 1
        candidate = _hashed("cardtable/tournament/lot", seed, tries)
    return candidate


def table_seed(spec: TournamentSpec, tournament_seed: int, round_number: int, table: int) -> int:
    """The seed table ``table`` (from 0) of a round is dealt from: the round's seed in a
    duplicate tournament, otherwise one of the table's own; for Candidate, one whose
    lot gives seat 0 the first deal (:func:`dealing_seed`).

    >>> spec = TournamentSpec("spy", "race", rounds=2, table_size=4, duplicate=True)
    >>> table_seed(spec, 7, 1, 0) == table_seed(spec, 7, 1, 3) == round_seed(7, 1)
    True
    """
    if spec.duplicate:
        seed = round_seed(tournament_seed, round_number)
    else:
        seed = _hashed("cardtable/tournament", tournament_seed, "round", round_number, table)
    return dealing_seed(spec.game, seed)


def table_options(spec: TournamentSpec) -> dict[str, Any]:
    """The game options every table of this tournament is created with: the organiser's,
    and for a duplicate Spy tournament ``same_deal`` (every racer the same deck order;
    it needs a full deck each, so ``full_decks`` too, S2).

    >>> table_options(TournamentSpec("spy", "race", duplicate=True, options={"rounds": 1}))
    {'rounds': 1, 'full_decks': True, 'same_deal': True}
    >>> table_options(TournamentSpec("candidate", "swiss", duplicate=True, options={"deals": 2}))
    {'deals': 2}
    """
    options = dict(spec.options)
    if spec.duplicate and spec.game == "spy":
        options["full_decks"] = True
        options["same_deal"] = True
    return options
