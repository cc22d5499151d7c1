"""Spy vs Spy observations as fixed-size vectors, built from the engine's views only.

Everything a view shows is public (S4-S5: nobody, the owner included, sees the racing
deck or the points pile under its top), so the vectors hold only what every player
may see. Suits never matter in Spy (S6), so cards are encoded by rank (index 0 = 2 …
12 = A).

Encoding version 1 (:data:`ENCODING_VERSION`). One seat, :data:`SEAT_SIZE` = 117 floats:

=========  ====================================================================
index      meaning
=========  ====================================================================
0–12       the points pile's face-up top, one-hot by rank (all 0 when empty, S4)
13         cards in the points pile (0–5)
14–91      piles 1–6: each pile's top card, one-hot by rank (13 each; all 0 for a
           pile not opened yet, S8)
92–97      piles 1–6: cards in each pile (0 for a pile not opened yet)
98         cards in the racing deck (its order is hidden, S5)
99–111     the waste's top card, one-hot by rank (all 0 when empty)
112        cards on the waste
113        moves made this round
114–116    1 when blocked (S12), resigned (S13), called (S10)
=========  ====================================================================

A bot is given a :class:`~cardtable.games.spy.info.SpyInfo`, not a view;
:func:`encode_info` encodes it as the same 117 floats (it rebuilds the seat's
:class:`SeatView` from the public facts the information set holds and calls
:func:`encode_seat`), so a policy trained on the race plays as a bot
(:mod:`cardtable.bots.learned`) from the seat's information only.

One encoding serves every face: the Gymnasium race (:class:`cardtable.rl.spy_v0.SpyRaceEnv`)
observes one seat; the PettingZoo table (:func:`cardtable.rl.spy_v0.parallel_env`) and
OpenSpiel's ``information_state_tensor`` and ``observation_tensor``
(:mod:`cardtable.rl.openspiel_spy`) are the table vector.

A table of N players (:func:`encode_table`, ``N·117 + 2 + N`` floats): the seats in
the order *me, then the players after me* (seat ``(me + i) % N`` at block ``i``; all 0
before the first deal), then the round number (from 1) and the rounds of the match,
then the match totals in the same seat order (S14-S16). Seats show the current round,
or the last one once the match is over.

>>> from cardtable.games.spy import GAME
>>> state = GAME.new_state(3, seed=2)
>>> len(encode_seat(state.view(0).seats[0])), len(table_of(state, 1))
(117, 356)
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.spy import SeatView, SeatWindow, SpyState
from cardtable.games.spy.actions import MAX_PILES
from cardtable.games.spy.info import SpyInfo

__all__ = [
    "ENCODING_VERSION",
    "SEAT_SIZE",
    "encode_info",
    "encode_seat",
    "encode_table",
    "info_seat",
    "seat_high",
    "table_high",
    "table_low",
    "table_of",
    "table_size",
    "write_seat",
]

ENCODING_VERSION = 1
SEAT_SIZE = 117

POINTS_TOP, POINTS_COUNT, PILE_TOPS, PILE_SIZES = 0, 13, 14, 92
DECK_COUNT, WASTE_TOP, WASTE_COUNT, MOVES = 98, 99, 112, 113
BLOCKED, RESIGNED, CALLED = 114, 115, 116
#: Most cards one player can hold: a full deck (S2).
_MOST_CARDS = 52.0


def encode_seat(seat: SeatView) -> list[float]:
    """One seat's public position as :data:`SEAT_SIZE` floats."""
    out = [0.0] * SEAT_SIZE
    write_seat(seat, out, 0)
    return out


def info_seat(info: SpyInfo) -> SeatView:
    """The public view of the seat whose information set is ``info`` (unnamed).

    Raises :class:`ValueError` for an information set that does not give its pile
    sizes (one built by hand without them): its view is not known.
    """
    if len(info.pile_sizes) != len(info.tops):
        raise ValueError(
            f"the information set gives {len(info.pile_sizes)} pile sizes for "
            f"{len(info.tops)} piles: its seat's view is not known"
        )
    return SeatView(
        player=info.player,
        name="",
        points_top=info.points_top,
        points_count=info.points_count,
        pile_tops=info.tops,
        pile_sizes=info.pile_sizes,
        deck_count=info.deck_count,
        waste_top=info.waste[-1] if info.waste else None,  # the waste lists its top last
        waste_count=len(info.waste),
        moves=info.moves,
        resigned=info.resigned,
        blocked=info.blocked,
        called=info.called,
    )


def encode_info(info: SpyInfo) -> list[float]:
    """A bot's information set as :data:`SEAT_SIZE` floats: exactly
    :func:`encode_seat` of the seat's view at the same moment."""
    return encode_seat(info_seat(info))


def write_seat(seat: SeatView, out: list[float], at: int) -> None:
    """Write one seat's block into ``out`` from index ``at``."""
    if seat.points_top is not None:
        out[at + POINTS_TOP + seat.points_top % 13] = 1.0
    out[at + POINTS_COUNT] = float(seat.points_count)
    for pile, (top, size) in enumerate(zip(seat.pile_tops, seat.pile_sizes, strict=True)):
        out[at + PILE_TOPS + 13 * pile + top % 13] = 1.0
        out[at + PILE_SIZES + pile] = float(size)
    out[at + DECK_COUNT] = float(seat.deck_count)
    if seat.waste_top is not None:
        out[at + WASTE_TOP + seat.waste_top % 13] = 1.0
    out[at + WASTE_COUNT] = float(seat.waste_count)
    out[at + MOVES] = float(seat.moves)
    out[at + BLOCKED] = 1.0 if seat.blocked else 0.0
    out[at + RESIGNED] = 1.0 if seat.resigned else 0.0
    out[at + CALLED] = 1.0 if seat.called else 0.0


def table_size(players: int) -> int:
    """The length of :func:`encode_table`'s vector for a table of ``players``."""
    return players * SEAT_SIZE + 2 + players


def encode_table(
    seats: Sequence[SeatView],
    me: int,
    count: int,
    round_number: int,
    rounds: int,
    totals: Sequence[int],
) -> list[float]:
    """The whole table of ``count`` players as player ``me`` sees it (every seat is
    public), seats from ``me`` on. ``seats`` are the players' public positions (views),
    in seat order; none before the first deal."""
    out = [0.0] * table_size(count)
    for seat in seats:
        write_seat(seat, out, ((seat.player - me) % count) * SEAT_SIZE)
    at = count * SEAT_SIZE
    out[at] = float(round_number)
    out[at + 1] = float(rounds)
    for p, total in enumerate(totals):
        out[at + 2 + (p - me) % count] = float(total)
    return out


def table_of(state: SpyState, me: int) -> list[float]:
    """:func:`encode_table` of a match as player ``me`` sees it: each seat's public
    position in the current (or, once the match is over, the last) round."""
    seats = [SeatWindow(seat).view(state.names[seat.player]) for seat in state.seats]
    count = state.num_players
    return encode_table(seats, me, count, state.round_number, state.options.rounds, state.totals)


def seat_high(move_limit: int) -> list[float]:
    """The largest value of each seat index (all lowest values are 0)."""
    high = [1.0] * SEAT_SIZE
    high[POINTS_COUNT] = 5.0
    high[PILE_SIZES : PILE_SIZES + MAX_PILES] = [_MOST_CARDS] * MAX_PILES
    high[DECK_COUNT] = _MOST_CARDS
    high[WASTE_COUNT] = _MOST_CARDS
    high[MOVES] = float(move_limit)
    return high


def table_high(players: int, move_limit: int, rounds: int, most_total: float) -> list[float]:
    """The largest value of each table index; totals lie in ``[-most_total, most_total]``
    (see :func:`table_low`)."""
    return seat_high(move_limit) * players + [float(rounds), float(rounds)] + [most_total] * players


def table_low(players: int, most_total: float) -> list[float]:
    """The lowest value of each table index (only totals go below 0)."""
    return [0.0] * (players * SEAT_SIZE + 2) + [-most_total] * players
