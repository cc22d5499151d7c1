"""Duplicate rounds: every table of a round is dealt from the same seed.

A Candidate match is a function of its seed (C2 in ``docs/rules/candidate.en.md``: the
piles and the first dealer by lot), so tables dealt from one seed hold the same cards
for the same seat. A Spy race deals each player their own deck; the option
``same_deal`` (``docs/rules/spy.en.md``) gives every racer the same order of a full
deck, so every racer of the round — at every table, whatever its size — races the
same cards. Standings then compare each result with the others from the same cards
(:mod:`cardtable.tournament.standings`).

Seeds are hashes of their parts (BLAKE2b), the same on every machine and process.
"""

from __future__ import annotations

import hashlib
from typing import Any

from cardtable.tournament.model import TournamentSpec

__all__ = ["round_seed", "table_options", "table_seed"]


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


def table_seed(spec: TournamentSpec, tournament_seed: int, round_number: int, table: int) -> int:
    """The seed table ``table`` (from 0) of a round is dealt from: the round's seed in a
    duplicate tournament, otherwise one of the table's own.

    >>> spec = TournamentSpec("spy", "race", rounds=2, table_size=4, duplicate=True)
    >>> table_seed(spec, 7, 1, 0) == table_seed(spec, 7, 1, 3) == round_seed(7, 1)
    True
    """
    if spec.duplicate:
        return round_seed(tournament_seed, round_number)
    return _hashed("cardtable/tournament", tournament_seed, "round", round_number, table)


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
