"""A resigned tournament game: lost by the resigner whatever the totals (C17 ranks
totals only for a match played to its end), yet played over the board, so the
opponent counts for the tie-breaks, unlike a forfeit's."""

from __future__ import annotations

from cardtable.tournament.model import GameResult, Player, RoundPlan, TournamentSpec
from cardtable.tournament.standings import seat_ranks, standings

PEOPLE = [Player("a", 0), Player("b", 1), Player("c", 2), Player("d", 3)]
PLAN = RoundPlan(1, (("a", "b"), ("c", "d")))
#: ``a`` led 30 to 4 when they resigned; ``c`` beat ``d`` over the cards.
RESIGNED = GameResult(1, 0, ("a", "b"), (30.0, 4.0), resigned=("a",))
PLAYED = GameResult(1, 1, ("c", "d"), (20.0, 10.0))


def points(spec: TournamentSpec) -> dict[str, float]:
    return {s.player: s.points for s in standings(spec, PEOPLE, [RESIGNED, PLAYED], [PLAN])}


def test_a_resignation_ranks_the_resigner_last_whatever_the_totals() -> None:
    assert seat_ranks(RESIGNED, higher=True) == (2, 1)
    assert GameResult.from_dict(RESIGNED.to_dict()) == RESIGNED
    # A result stored before resignations were kept reads as none.
    old = {k: v for k, v in RESIGNED.to_dict().items() if k != "resigned"}
    assert GameResult.from_dict(old).resigned == ()


def test_swiss_scores_a_resignation_as_a_loss_with_its_opponent_for_tie_breaks() -> None:
    spec = TournamentSpec("candidate", "swiss", rounds=1)
    assert points(spec) == {"a": 0.0, "b": 1.0, "c": 1.0, "d": 0.0}
    table = {s.player: s for s in standings(spec, PEOPLE, [RESIGNED, PLAYED], [PLAN])}
    # Played over the board: b's opponent a counts for Buchholz (a forfeit's would not).
    assert table["a"].tiebreaks["buchholz"] == 1.0


def test_duplicate_and_arena_score_a_resignation_as_a_loss() -> None:
    duplicate = TournamentSpec("candidate", "swiss", rounds=1, duplicate=True)
    assert points(duplicate)["a"] == 0.0
    assert points(duplicate)["b"] == 1.0
    arena = TournamentSpec("candidate", "arena", rounds=1)
    assert points(arena)["a"] == 0.0
    assert points(arena)["b"] == 2.0
