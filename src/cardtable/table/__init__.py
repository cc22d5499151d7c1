"""The one table under every face: seats, versions, clocks, pacing, pauses, stand-ins.

:class:`Table` (no I/O; time passed in) is the authority over one match; the server, the
terminal app and the arena drive it and keep only transport, storage and drawing.
:mod:`.pacing` holds the one move-time model and the one table of bot speeds.
:mod:`.endings` (resign, abort, takeback) and :mod:`.pauses` (pauses between deals or
rounds, a race's start count) are parts :class:`Table` inherits.
"""

from cardtable.table.pacing import LEVEL_SPEEDS, SPEEDS, Pacing, parse_speed
from cardtable.table.parts import (
    Answer,
    MoveEntry,
    Seat,
    Source,
    Status,
    TableError,
    TimeControl,
    hash_token,
)
from cardtable.table.table import Table

__all__ = [
    "LEVEL_SPEEDS",
    "SPEEDS",
    "Answer",
    "MoveEntry",
    "Pacing",
    "Seat",
    "Source",
    "Status",
    "Table",
    "TableError",
    "TimeControl",
    "hash_token",
    "parse_speed",
]
