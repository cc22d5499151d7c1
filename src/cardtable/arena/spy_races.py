"""The arena's Spy driver: one round raced by every bot, through the engine's race
runner (S17 in ``docs/rules/spy.en.md``: one time unit per move for everyone; ties by
a seeded coin).

Why the race runner and not the shared table (:class:`cardtable.table.Table`): an
arena compares bots over duplicate deals, so every bot must race on equal terms —
each move takes the same fixed time, and a round is won by the fewest moves to the
call. The table's pacing (:class:`cardtable.table.Pacing`: move times drawn around
each bot's speed) is made for races against people; it would let drawn move times, not
play, decide close rounds. The runner (:func:`cardtable.games.spy.race.run_race`)
plays each seat alone and merges the moves by time, which is also far faster than
stepping a table move by move. This driver has no speeds or move-time model of its
own: the runner's fixed time is the one it uses.

Each bot plays through :class:`~cardtable.bots.spy_common.BotPolicy`, the race
runner's policy protocol, so it sees only its seat's public window. The finished race
is read as a :class:`~cardtable.games.spy.match.SpyMatch`, whose
:meth:`~cardtable.games.spy.match.SpyMatch.result` ranks the round (the lowest score
wins, S16). The per-seat metric ``race_moves`` is the winner's number of moves to the
call.
"""

from __future__ import annotations

from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.bots.registry import make_bot
from cardtable.bots.spy_common import BotPolicy
from cardtable.games.spy import SpyOptions
from cardtable.games.spy.match import SpyMatch
from cardtable.games.spy.race import run_race

__all__ = ["play_spy"]


def play_spy(config: ArenaConfig, job: Job) -> GameResult:
    """Race ``job``'s round to its end (or its match, when the options count rounds;
    the metrics are then the last round's)."""
    options = SpyOptions.from_dict({"rounds": 1, **config.options})
    policies = [
        BotPolicy(make_bot(config.bots[b], job.bot_seed(config.seed, seat)))
        for seat, b in enumerate(job.seats)
    ]
    race = run_race(len(job.seats), policies, seed=job.deal_seed, options=options)
    result = SpyMatch(race.state).result()
    timing = race.rounds[-1]
    metrics = []
    for seat in range(len(job.seats)):
        seat_metrics: dict[str, float] = {}
        finish = timing.finish_times[seat]
        if timing.outcomes[seat] == "called" and finish is not None:
            seat_metrics["race_moves"] = finish
        metrics.append(seat_metrics)
    tie = (
        timing.finisher is not None
        and sum(
            1
            for o, t in zip(timing.outcomes, timing.finish_times, strict=True)
            if o == "called" and t == timing.end_time
        )
        > 1
    )
    return GameResult(
        index=job.index,
        deal=job.deal,
        group=job.group,
        seats=job.seats,
        scores=tuple(float(s) for s in result.totals),
        ranks=result.ranks,
        metrics=tuple(metrics),
        facts={
            "finisher": timing.finisher,
            "blocked_round": timing.finisher is None,
            "end_time": timing.end_time,
            "tie": tie,
        },
    )
