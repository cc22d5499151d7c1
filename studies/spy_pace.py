"""How fast the Spy bot levels race at the table, in moves per second of race time.

Each level's bot races alone at a :class:`cardtable.table.Table` with the default
:class:`~cardtable.table.Pacing` (the one every face uses: the server, the terminal),
its opponent out of the round from the start (S13), on deals ``seed … seed + deals − 1``
of one round each. Time is simulated: the clock jumps to the table's next wake-up, so
the figures are the table's pacing and the bot's own move count, not this machine's
speed. For each level the script prints the moves per second of race time (the count
excluded), the placements (``place`` and ``open``, the moves that need a decision) per
second, the moves a round takes (all rounds, and the median of those that end in a call)
and the seconds from the start to the call «finished»
(median and the fastest tenth), and how many races ended blocked (S12).

Run: ``python -m studies.spy_pace --deals 200`` (a few seconds a level).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import typer

from cardtable.bots.seat import SeatBot
from cardtable.games.registry import find_game
from cardtable.table import LEVEL_SPEEDS, Pacing, Source, Status, Table

SPY = find_game("spy")


@dataclass(frozen=True, slots=True)
class Race:
    """One bot's round: its moves, placements, seconds raced, and whether it called."""

    moves: int
    placements: int
    seconds: float
    called: bool


def race(level: str, seed: int, pacing: Pacing) -> Race:
    """One round of ``level``'s bot alone at the table (its opponent resigned at once)."""
    table = Table.create(
        table_id=f"pace-{level}-{seed}",
        game=SPY,
        options={"rounds": 1},
        seed=seed,
        bot_levels=[None, level],
        invites=["person", "-"],
        pacing=pacing,
    )
    table.join("person", "Person", "token-of-the-person", 0.0)
    table.set_connected(0, True)
    bot = SeatBot.make("spy", level, seed=seed, seat=1)
    now = pacing.start_count
    table.tick(now)
    start = now
    assert table.submit(0, "resign", version=None, move_id=None, now=now).outcome == "accepted"
    moves = placements = 0
    while table.status is Status.PLAYING and table.legal_moves(1):
        wake = table.next_wakeup()
        assert wake is not None, "the bot must be due"
        now = wake
        for seat in table.due_bots(now):
            match = table.match
            assert match is not None
            answer = table.submit(
                seat,
                bot.think(match.bot_info(seat)),
                version=None,
                move_id=None,
                now=now,
                source=Source.BOT,
            )
            assert answer.entry is not None
            moves += 1
            placements += answer.entry.move.split()[1] in ("place", "open")
    match = table.match
    assert match is not None
    finished = table.status is Status.FINISHED
    called = finished and match.segment_results()[-1].ending == "called"
    return Race(moves, placements, now - start, called)


def main(
    deals: int = typer.Option(200, help="Deals (one round each) per level."),
    seed: int = typer.Option(0, help="The first deal's seed."),
) -> None:
    """Print each level's pace at the table (see the module docstring)."""
    pacing = Pacing()
    print(
        f"{'level':<7} {'speed':>5} {'moves/s':>8} {'places/s':>8} {'moves':>6} "
        f"{'call moves':>10} {'call s (median)':>15} {'call s (10 %)':>13} {'blocked':>7}"
    )
    for level in LEVEL_SPEEDS:
        races = []
        with typer.progressbar(range(seed, seed + deals), label=level, file=None) as bar:
            for deal in bar:
                races.append(race(level, deal, pacing))
        seconds = sum(r.seconds for r in races)
        calls = sorted(r.seconds for r in races if r.called)
        tenth = calls[len(calls) // 10] if calls else float("nan")
        print(
            f"{level:<7} {pacing.speed_of(level):>5.2f} "
            f"{sum(r.moves for r in races) / seconds:>8.2f} "
            f"{sum(r.placements for r in races) / seconds:>8.2f} "
            f"{statistics.mean(r.moves for r in races):>6.1f} "
            f"{statistics.median(r.moves for r in races if r.called):>10.1f} "
            f"{statistics.median(calls) if calls else float('nan'):>15.1f} {tenth:>13.1f} "
            f"{sum(not r.called for r in races):>7}"
        )


if __name__ == "__main__":
    typer.run(main)
