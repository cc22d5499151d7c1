"""A Spy table with its people seated, for the table's tests."""

from __future__ import annotations

from typing import Any

from cardtable.games.registry import find_game
from cardtable.table import Pacing, Table

SPY = find_game("spy")


def spy_table(
    *, bots: tuple[str | None, ...] = (None, "easy"), rounds: int = 2, **kw: Any
) -> Table:
    """A Spy table whose people have joined at time 0; without a start count unless
    ``pacing`` has one."""
    kw.setdefault("pacing", Pacing(start_count=0.0))
    table = Table.create(
        table_id="t1",
        game=SPY,
        options={"rounds": rounds},
        seed=5,
        bot_levels=list(bots),
        invites=[f"inv{i}" for i in range(len(bots))],
        **kw,
    )
    for i, level in enumerate(bots):
        if level is None:
            table.join(f"inv{i}", f"P{i}", f"tok{i}", now=0.0)
            table.set_connected(i, True)
    return table
