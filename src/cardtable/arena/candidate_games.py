"""The arena's Candidate driver: one deal (options ``deals=1``) between two bots.

The deal and its first dealer come from the job's deal seed (C2), so the two games of
a duplicate pair have the same cards and the same dealer seat, with the bots swapped.
Every move goes through the engine's checked :meth:`apply`, so a bot's illegal move
would stop the arena with an error rather than be played.
"""

from __future__ import annotations

from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig, GameResult, ranks_of
from cardtable.bots.registry import make_bot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo

__all__ = ["play_candidate"]


def play_candidate(config: ArenaConfig, job: Job) -> GameResult:
    """Play ``job`` to the end of its deal."""
    options = CandidateOptions.from_dict({**config.options, "deals": 1})
    state = CandidateState.new(job.deal_seed, options)
    dealer = state.dealer
    bots = [
        make_bot(config.bots[b], job.bot_seed(config.seed, seat))
        for seat, b in enumerate(job.seats)
    ]
    moves = 0
    while not state.is_terminal():
        player = state.current_player
        state.apply(bots[player].choose(CandidateInfo.of(state, player)))
        moves += 1
    totals = state.totals()
    scores = (float(totals[0]), float(totals[1]))
    return GameResult(
        index=job.index,
        deal=job.deal,
        group=job.group,
        seats=job.seats,
        scores=scores,
        ranks=ranks_of(scores, higher_is_better=True),
        facts={"dealer": dealer, "moves": moves},
    )
