"""The moves as the server stores them, lined up with a record's deals or rounds.

The server keeps every accepted move with its seat, its text, who made it (``source``:
``player`` — the seat's own client —, ``bot``, ``substitute`` or ``clock``) and, in a
race, the seconds the round's race had run (``race_time``); after a takeback the moves
taken back are deleted, so the stored moves of a finished table are the record's moves
in order. :class:`StoredMove` is that row without the storage; :func:`stored_segments`
splits a table's moves by deal (Candidate) or round (Spy) and checks that each is the
record's move at the same place, so a signal is never computed on a mismatched pair.

>>> from cardtable.record import new_record
>>> record = new_record("spy", seed=3)
>>> record["rounds"][0]["moves"] = ["1 turn", "0 turn"]
>>> parts = stored_segments(record, [StoredMove(1, "1 turn"), StoredMove(0, "0 turn", "bot")])
>>> [[(m.seat, m.by_person) for m in part] for part in parts]
[[(1, True), (0, False)]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.games.candidate import actions as candidate_actions
from cardtable.games.spy import actions as spy_actions
from cardtable.record import game_of, replay

__all__ = ["PERSON", "StoredMove", "move_action", "segment_key", "stored_segments"]

#: The ``source`` of a move the seat's own client made (the server's ``Source.PLAYER``).
PERSON: Final = "player"


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One stored move: the server's ``MoveEntry`` as
    ``StoredMove(e.seat, e.move, e.source.value, e.time)`` (or a ``moves`` row's
    ``seat``, ``move``, ``source``, ``race_time``)."""

    seat: int
    move: str
    source: str = PERSON
    #: In a race, the seconds the round's race had run when the table took the move.
    race_time: float | None = None

    @property
    def by_person(self) -> bool:
        """Whether the seat's own person made it (no bot, stand-in or clock)."""
        return self.source == PERSON


def segment_key(game: str) -> str:
    """The record's list of deals or rounds: ``deals`` (Candidate) or ``rounds`` (Spy)."""
    return "rounds" if game == "spy" else "deals"


def move_action(game: str, text: str) -> int:
    """A move text's action id in ``game`` (any spelling the records accept)."""
    parse = spy_actions.text_to_action if game == "spy" else candidate_actions.text_to_action
    return parse(text)


def stored_segments(
    record: Mapping[str, Any], moves: Sequence[StoredMove]
) -> list[list[StoredMove]]:
    """``moves`` split as the record's deals or rounds are, each checked against the
    record's move at its place (the same action; in Spy, where the move names its
    seat, the same seat).

    The record is replayed first, so a malformed one raises the engine's located
    error. Raises :class:`ValueError` when the stored moves are not the record's.
    """
    game = game_of(record)
    replay(record)
    segments = [list(part["moves"]) for part in record[segment_key(game)]]
    expected = sum(len(part) for part in segments)
    if len(moves) != expected:
        raise ValueError(f"{len(moves)} stored moves for a record of {expected} moves")
    out: list[list[StoredMove]] = []
    index = 0
    for part in segments:
        chunk = list(moves[index : index + len(part)])
        for offset, (text, stored) in enumerate(zip(part, chunk, strict=True)):
            action = move_action(game, text)
            same_seat = game != "spy" or action // spy_actions.ACTIONS_PER_PLAYER == stored.seat
            if move_action(game, stored.move) != action or not same_seat:
                raise ValueError(
                    f"stored move {index + offset + 1} ({stored.seat}: {stored.move!r}) "
                    f"is not the record's ({text!r})"
                )
        out.append(chunk)
        index += len(part)
    return out
