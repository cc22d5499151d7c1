"""The arena's Candidate driver: one deal (options ``deals=1``; a bot tournament's
match may set more) between two bots, at
the shared table (:class:`cardtable.table.Table`) on a simulated clock.

The table is the one the server and the terminal drive: the bots sit in its seats,
and the driver moves its clock from one wake-up to the next (``table.next_wakeup()``:
the turn delay of the bot to move), asks each due bot for its move from the seat's
information (:meth:`~cardtable.bots.seat.SeatBot.choose`, through
``match.bot_info``) and submits it. Time is simulated, so a deal takes only the bots'
thinking; the ranks are the match's (:meth:`~cardtable.games.base.Match.result`).

The deal and its first dealer come from the job's deal seed (C2 in
``docs/rules/candidate.en.md``), so the two games of a duplicate pair have the same
cards and the same dealer seat, with the bots swapped. The table judges every move,
so a bot's illegal move would stop the arena with an error rather than be played.
"""

from __future__ import annotations

from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.bots.seat import SeatBot
from cardtable.games.registry import find_game
from cardtable.table import Source, Status, Table

__all__ = ["play_candidate"]

BOT = Source.BOT


def play_candidate(config: ArenaConfig, job: Job) -> GameResult:
    """Play ``job`` to the end of its deal (or match, when the options count deals)."""
    bots = [
        SeatBot(config.bots[b], job.bot_seed(config.seed, seat), seat)
        for seat, b in enumerate(job.seats)
    ]
    table = Table.create(
        table_id=f"arena/{job.index}",
        game=find_game("candidate"),
        options={"deals": 1, **config.options},
        seed=job.deal_seed,
        bot_levels=[bot.label for bot in bots],
        invites=["", ""],
    )
    table.start(0.0)
    match = table.match
    assert match is not None  # started
    dealer = match.view(None)["dealer"]
    while table.status is Status.PLAYING:
        now = table.next_wakeup()
        assert now is not None  # a bot has the move
        for seat in table.due_bots(now):
            move = bots[seat].choose(match)
            answer = table.submit(
                seat, move, version=None, move_id=None, now=now, source=Source.BOT
            )
            if answer.outcome != "accepted":
                raise RuntimeError(f"{bots[seat].label} made a move the table refused: {answer}")
    result = match.result()
    return GameResult(
        index=job.index,
        deal=job.deal,
        group=job.group,
        seats=job.seats,
        scores=tuple(float(t) for t in result.totals),
        ranks=result.ranks,
        facts={"dealer": dealer, "moves": len(table.moves)},
    )
