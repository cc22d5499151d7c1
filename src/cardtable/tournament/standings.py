"""Standings: tournament points and tie-breaks from the stored results, per format.

Everything is a pure function of the values of :mod:`cardtable.tournament.model`, so
the server, the arena and an independent check compute the same table. The rules (also
in ``docs/tournaments.md``):

**Swiss** (Candidate): a win 1, a draw ½, a loss 0 — a match is won by the higher total
(C17 in ``docs/rules/candidate.en.md``). A bye scores 1. A forfeit (a seat named in
``GameResult.forfeited``) scores 0 for the absent player and 1 for the one present.
A resignation (``GameResult.resigned``) scores 0 for the resigner and 1 for the
opponent whatever the totals, in duplicate too, and counts for the tie-breaks.
Tie-breaks, in order: Buchholz cut 1 (the sum of the opponents' points without the
lowest one), plain Buchholz, Sonneborn-Berger (each opponent's points times the points
scored against them), then the initial order. Forfeits and byes count for no
tie-break: only games played over the board have an opponent.

**Race** (Spy vs Spy): the points are the sum of the player's match totals as the
rules score them (S14-S16 in ``docs/rules/spy.en.md``: the *lowest* total is best).
A round not raced — a forfeit, a round before joining or after withdrawing — counts as
one more than the worst total raced in that round, so missing a race never pays.
Tie-breaks: race wins (tables where the player had the best total; more is better),
the best single race total (lower is better), then the initial order.

**Duplicate** (an option of both): each result is compared with every other result
from the same cards — Swiss: the same round and the same seat (the seat's margin over
its opponent), race: every other racer of the round (their totals). It scores 1 per
result it beats and ½ per equal one, divided by the number compared: a fraction from
0 to 1 (shown as a percentage), and the round's points are that fraction. Alone with
its cards (a round of one table), a result scores ½. A bye scores ½ (the average); a
forfeit 0 for the absent player and 1 for the one present in Swiss. Tie-breaks: Swiss
as above on these points; race: the sum of totals, then race wins.

**Arena**: a win 2, a draw 1, a loss 0; after two wins in a row a player is on a
streak and a win scores 4, a draw 2, until a result that is not a win ends it. A win
is the best total alone at the table, a draw a shared best; a forfeit is a loss (the
others rank among themselves). Tie-breaks: wins, then the initial order.

Players equal on points and every tie-break share a rank and are listed by initial
order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cardtable.games.registry import find_game
from cardtable.tournament.model import GameResult, Player, RoundPlan, Standing, TournamentSpec

__all__ = [
    "ARENA_DRAW",
    "ARENA_WIN",
    "SWISS_BYE",
    "SWISS_DRAW",
    "SWISS_WIN",
    "higher_is_better",
    "race_absent_total",
    "seat_ranks",
    "standings",
]

SWISS_WIN = 1.0
SWISS_DRAW = 0.5
SWISS_BYE = 1.0
#: A duplicate bye: the average matchpoint fraction.
DUPLICATE_BYE = 0.5
ARENA_WIN = 2.0
ARENA_DRAW = 1.0
#: Wins in a row after which arena points double.
ARENA_STREAK = 2


def higher_is_better(game: str) -> bool:
    """Whether the game's highest total wins (Candidate, C17) or its lowest (Spy, S16)."""
    return find_game(game).info.higher_is_better


def seat_ranks(result: GameResult, higher: bool) -> tuple[int, ...]:
    """Competition ranks of a table's seats (1 best, equal totals share): the players
    present rank by their totals, a forfeited or resigned seat ranks after all of them
    (a resignation loses whatever the totals).

    >>> seat_ranks(GameResult(1, 0, ("a", "b", "c"), (5, -20, 5), forfeited=("c",)), False)
    (2, 1, 3)
    >>> seat_ranks(GameResult(1, 0, ("a", "b"), (30, 4), resigned=("a",)), True)
    (2, 1)
    """
    sign = -1.0 if higher else 1.0
    lost = set(result.forfeited) | set(result.resigned)
    present = [sign * t for p, t in zip(result.seats, result.totals, strict=True) if p not in lost]
    ranks = []
    for p, t in zip(result.seats, result.totals, strict=True):
        if p in lost:
            ranks.append(len(present) + 1)
        else:
            ranks.append(1 + sum(1 for other in present if other < sign * t))
    return tuple(ranks)


@dataclass
class _Line:
    """One player's running sums."""

    points: float = 0.0
    games: int = 0
    byes: int = 0
    #: (opponent, points scored against them) for each game played over the board.
    met: list[tuple[str, float]] = field(default_factory=list)
    wins: int = 0
    total: float = 0.0
    best: float | None = None
    streak: int = 0


def _complete_rounds(plans: Sequence[RoundPlan], results: Sequence[GameResult]) -> set[int]:
    """Rounds whose every planned table has a result."""
    done: dict[int, set[int]] = {}
    for r in results:
        done.setdefault(r.round, set()).add(r.table)
    return {
        p.round for p in plans if p.tables and set(range(len(p.tables))) <= done.get(p.round, set())
    }


def _matchpoints(
    groups: Mapping[object, list[tuple[str, float]]],
) -> dict[tuple[object, str], float]:
    """Each (group, player)'s fraction of the results of its group it beats (1) or ties
    (½); ``groups`` hold (player, value) with the higher value better. Alone: ½."""
    out: dict[tuple[object, str], float] = {}
    for key, entries in groups.items():
        for player, value in entries:
            others = len(entries) - 1
            if others == 0:
                out[key, player] = 0.5
                continue
            better = sum(1 for _, v in entries if v < value)
            equal = sum(1 for _, v in entries if v == value) - 1
            out[key, player] = (better + 0.5 * equal) / others
    return out


def _swiss(
    spec: TournamentSpec,
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
    lines: dict[str, _Line],
) -> None:
    higher = higher_is_better(spec.game)
    sign = 1.0 if higher else -1.0
    scored: dict[tuple[object, str], float] = {}
    if spec.duplicate:
        groups: dict[object, list[tuple[str, float]]] = {}
        for r in results:
            if r.forfeited or r.resigned or len(r.seats) != 2:
                continue  # no margin to compare: a forfeit or resignation scores below
            for seat in range(2):
                margin = sign * (r.totals[seat] - r.totals[1 - seat])
                groups.setdefault((r.round, seat), []).append((r.seats[seat], margin))
        scored = _matchpoints(groups)
    for r in results:
        ranks = seat_ranks(r, higher)
        for seat, player in enumerate(r.seats):
            line = lines.setdefault(player, _Line())
            line.games += 1
            if player in r.forfeited:
                continue
            if r.forfeited:
                line.points += SWISS_WIN
                continue
            if r.resigned:
                got = 0.0 if player in r.resigned else SWISS_WIN
            elif spec.duplicate:
                got = scored.get(((r.round, seat), player), 0.5)
            elif ranks[seat] == 1:
                got = SWISS_DRAW if ranks.count(1) > 1 else SWISS_WIN
            else:
                got = 0.0
            line.points += got
            if got == SWISS_WIN and not spec.duplicate:
                line.wins += 1
            for other in r.seats:
                if other != player:
                    line.met.append((other, got))
    bye_points = DUPLICATE_BYE if spec.duplicate else SWISS_BYE
    for plan in plans:
        for player in plan.byes:
            line = lines.setdefault(player, _Line())
            line.byes += 1
            line.points += bye_points


def _swiss_tiebreaks(lines: dict[str, _Line]) -> dict[str, dict[str, float]]:
    out = {}
    for player, line in lines.items():
        opp = sorted(lines[o].points if o in lines else 0.0 for o, _ in line.met)
        out[player] = {
            "buchholz_cut1": sum(opp[1:]) if len(opp) > 1 else sum(opp),
            "buchholz": sum(opp),
            "sonneborn_berger": sum(
                (lines[o].points if o in lines else 0.0) * got for o, got in line.met
            ),
        }
    return out


def race_absent_total(round_results: Iterable[GameResult]) -> float | None:
    """What a round not raced counts in a race tournament: one more than the worst
    (highest, S16) total raced in the round; ``None`` if nobody raced it."""
    raced = [
        t
        for r in round_results
        for p, t in zip(r.seats, r.totals, strict=True)
        if p not in r.forfeited
    ]
    return max(raced) + 1.0 if raced else None


def _race(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
    lines: dict[str, _Line],
) -> None:
    by_round: dict[int, list[GameResult]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    complete = _complete_rounds(plans, results)
    fractions: dict[tuple[object, str], float] = {}
    if spec.duplicate:
        groups: dict[object, list[tuple[str, float]]] = {}
        for r in results:
            for p, t in zip(r.seats, r.totals, strict=True):
                if p not in r.forfeited:
                    groups.setdefault(r.round, []).append((p, -t))  # lowest total best
        fractions = _matchpoints(groups)
    for number, round_results in sorted(by_round.items()):
        absent = race_absent_total(round_results)
        raced: set[str] = set()
        for r in round_results:
            ranks = seat_ranks(r, higher=False)
            for seat, player in enumerate(r.seats):
                line = lines.setdefault(player, _Line())
                line.games += 1
                if player in r.forfeited:
                    continue
                raced.add(player)
                total = r.totals[seat]
                line.total += total
                line.best = total if line.best is None else min(line.best, total)
                if ranks[seat] == 1:
                    line.wins += 1
                line.points += fractions.get((number, player), 0.0)
        if number in complete and absent is not None:
            for entrant in players:
                if entrant.id not in raced:
                    lines.setdefault(entrant.id, _Line()).total += absent


def _arena(spec: TournamentSpec, results: Sequence[GameResult], lines: dict[str, _Line]) -> None:
    higher = higher_is_better(spec.game)
    for r in sorted(results, key=lambda g: (g.round, g.table)):
        ranks = seat_ranks(r, higher)
        for seat, player in enumerate(r.seats):
            line = lines.setdefault(player, _Line())
            line.games += 1
            on_streak = line.streak >= ARENA_STREAK
            if ranks[seat] == 1 and player not in r.forfeited:
                won = ranks.count(1) == 1
                base = ARENA_WIN if won else ARENA_DRAW
                line.points += 2 * base if on_streak else base
                line.wins += int(won)
                line.streak = line.streak + 1 if won else 0
            else:
                line.streak = 0


def _ranked(
    players: Sequence[Player],
    lines: dict[str, _Line],
    tiebreaks: dict[str, dict[str, float]],
    key: Callable[[str], tuple[float, ...]],
) -> list[Standing]:
    order = {p.id: (p.order, p.id) for p in players}
    ids = sorted(lines, key=lambda pid: (key(pid), order.get(pid, (0, pid))))
    out: list[Standing] = []
    for index, pid in enumerate(ids):
        rank = index + 1
        if out and key(ids[index - 1]) == key(pid):
            rank = out[-1].rank
        line = lines[pid]
        out.append(Standing(pid, rank, line.points, tiebreaks[pid], line.games, line.byes))
    return out


def standings(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
) -> list[Standing]:
    """Every entrant's standing, best first (the rules are in the module docstring).

    >>> spec = TournamentSpec("candidate", "swiss", rounds=1)
    >>> people = [Player("a", 0), Player("b", 1), Player("c", 2)]
    >>> plan = RoundPlan(1, (("b", "a"),), byes=("c",))
    >>> game = GameResult(1, 0, ("b", "a"), (30.0, 12.0))
    >>> [(s.player, s.rank, s.points) for s in standings(spec, people, [game], [plan])]
    [('b', 1, 1.0), ('c', 1, 1.0), ('a', 3, 0.0)]
    """
    lines: dict[str, _Line] = {p.id: _Line() for p in players}
    if spec.format == "swiss":
        _swiss(spec, results, plans, lines)
        tbs = _swiss_tiebreaks(lines)
        return _ranked(
            players,
            lines,
            tbs,
            lambda p: (
                -lines[p].points,
                -tbs[p]["buchholz_cut1"],
                -tbs[p]["buchholz"],
                -tbs[p]["sonneborn_berger"],
            ),
        )
    if spec.format == "race":
        _race(spec, players, results, plans, lines)
        if not spec.duplicate:
            for line in lines.values():
                line.points = line.total
        tbs = {
            p: {
                "race_total": line.total,
                "race_wins": float(line.wins),
                "best_race": line.best if line.best is not None else 0.0,
            }
            for p, line in lines.items()
        }

        def race_key(p: str) -> tuple[float, ...]:
            line = lines[p]
            best = line.best if line.best is not None else float("inf")
            if spec.duplicate:
                return (-line.points, line.total, -line.wins, best)
            return (line.total, -line.wins, best)

        return _ranked(players, lines, tbs, race_key)
    _arena(spec, results, lines)
    tbs = {p: {"wins": float(line.wins)} for p, line in lines.items()}
    return _ranked(players, lines, tbs, lambda p: (-lines[p].points, -lines[p].wins))
