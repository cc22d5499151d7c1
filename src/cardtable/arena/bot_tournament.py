"""Tournaments of bots: the server's formats (:mod:`cardtable.tournament`) played by the
arena's game runners.

A Swiss, a race tournament or an arena of bots is paired, seated and scored by the very
functions a tournament of people uses (:func:`~cardtable.tournament.pairing.pair_round`,
:func:`~cardtable.tournament.pairing.pair_waiting`,
:func:`~cardtable.tournament.standings.standings`), and every table is dealt from
:func:`~cardtable.tournament.duplicate.table_seed` with
:func:`~cardtable.tournament.duplicate.table_options`, so a researcher's Swiss of bots
follows the same rules as a club's Swiss of people. Each round's tables become arena
jobs played on any backend (this process, worker processes, Ray); a round's results
are read in table order, so the backend never changes the outcome.

A bot arena has no clock: ``rounds`` counts its *waves*, each pairing every bot
again by :func:`~cardtable.tournament.pairing.pair_waiting`.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.arena.backends import run_jobs
from cardtable.arena.raycluster import RayPlace
from cardtable.arena.schedule import Job
from cardtable.arena.work import ArenaConfig
from cardtable.bots.registry import BotSpec
from cardtable.errors import BadOptions, CardtableError
from cardtable.games.registry import find_game
from cardtable.tournament.duplicate import table_options, table_seed
from cardtable.tournament.model import (
    FORMATS,
    GameResult,
    Player,
    RoundPlan,
    Standing,
    TournamentSpec,
)
from cardtable.tournament.pairing import MAX_TABLE, MIN_TABLE, pair_round, pair_waiting
from cardtable.tournament.standings import standings

__all__ = ["BotTournament", "check_spec", "play_round", "run_bot_tournament"]


@dataclass(frozen=True)
class BotTournament:
    """A finished tournament of bots: what was asked, who played, every round's plan and
    every game's result, and the final standings."""

    spec: TournamentSpec
    seed: int
    players: tuple[Player, ...]
    plans: tuple[RoundPlan, ...]
    results: tuple[GameResult, ...]
    standings: tuple[Standing, ...]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the tournament model's forms, as the server exports them)."""
        return {
            "spec": self.spec.to_dict(),
            "seed": self.seed,
            "players": [p.to_dict() for p in self.players],
            "rounds": [p.to_dict() for p in self.plans],
            "results": [r.to_dict() for r in self.results],
            "standings": [s.to_dict() for s in self.standings],
            "seconds": round(self.seconds, 3),
        }

    def to_csv(self) -> str:
        """The standings as CSV: rank, player, points, each tie-break, games, byes."""
        names = list(self.standings[0].tiebreaks) if self.standings else []
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["rank", "player", "points", *names, "games", "byes"])
        for s in self.standings:
            writer.writerow(
                [s.rank, s.player, s.points, *(s.tiebreaks[n] for n in names), s.games, s.byes]
            )
        return buffer.getvalue()


def check_spec(spec: TournamentSpec, bots: int) -> None:
    """Refuse what a tournament of ``bots`` bots cannot be (a clear message each)."""
    if spec.format not in FORMATS:
        raise BadOptions(f"unknown format {spec.format!r}: expected one of {', '.join(FORMATS)}")
    if spec.format == "swiss" and spec.game != "candidate":
        raise BadOptions("a Swiss pairs two players a table: it is for candidate (spy: race)")
    if spec.format == "race" and spec.game != "spy":
        raise BadOptions("race rounds are for spy (candidate: swiss)")
    if spec.rounds < 1:
        raise BadOptions(f"--rounds must be at least 1, got {spec.rounds}")
    if bots < 2:
        raise BadOptions(f"a tournament needs at least 2 bots, got {bots}")
    if spec.game == "spy" and not MIN_TABLE <= spec.table_size <= MAX_TABLE:
        raise BadOptions(
            f"--table-size must be from {MIN_TABLE} to {MAX_TABLE}, got {spec.table_size}"
        )
    if spec.duplicate and spec.format == "arena":
        raise BadOptions("duplicate scoring is an option of swiss and race tournaments")
    game = find_game(spec.game)
    try:
        game.check_options(table_options(spec), game.info.min_players)
    except CardtableError as exc:
        raise BadOptions(str(exc)) from None


def play_round(
    config: ArenaConfig,
    spec: TournamentSpec,
    number: int,
    tables: Sequence[Sequence[str]],
    *,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
    first_index: int = 0,
) -> list[GameResult]:
    """Play one round's tables (player ids are the bots' labels) and return their
    results in table order."""
    index_of = {label: i for i, label in enumerate(config.labels)}
    jobs = [
        Job(
            first_index + t,
            number,
            table_seed(spec, config.seed, number, t),
            tuple(index_of[p] for p in seats),
            number,
        )
        for t, seats in enumerate(tables)
    ]
    played = sorted(
        run_jobs(config, jobs, backend=backend, workers=workers, ray_place=ray_place),
        key=lambda r: r.index,
    )
    return [
        GameResult(
            round=number,
            table=r.index - first_index,
            seats=tuple(tables[r.index - first_index]),
            totals=tuple(float(x) for x in r.scores),
        )
        for r in played
    ]


def run_bot_tournament(
    spec: TournamentSpec,
    bots: Sequence[BotSpec],
    *,
    seed: int = 0,
    backend: str = "local",
    workers: int = 1,
    ray_place: RayPlace | None = None,
    on_round: Callable[[RoundPlan, Sequence[Standing]], None] | None = None,
) -> BotTournament:
    """Play a whole tournament of ``bots`` (initial order: as listed) and rank it.

    ``on_round(plan, standings)`` is called after each round (progress, live tables).
    """
    check_spec(spec, len(bots))
    config = ArenaConfig(spec.game, tuple(bots), seed, table_options(spec))
    players = tuple(Player(label, order=i, bot=True) for i, label in enumerate(config.labels))
    plans: list[RoundPlan] = []
    results: list[GameResult] = []
    start = time.perf_counter()
    for number in range(1, spec.rounds + 1):
        if spec.format == "arena":
            waiting = [p.id for p in players]
            tables = pair_waiting(spec, players, results, waiting, number)
            plan = RoundPlan(number, tuple(tables))
        else:
            plan = pair_round(spec, players, results, plans, number)
        results.extend(
            play_round(
                config,
                spec,
                number,
                plan.tables,
                backend=backend,
                workers=workers,
                ray_place=ray_place,
                first_index=len(results),
            )
        )
        plans.append(plan)
        if on_round is not None:
            on_round(plan, standings(spec, players, results, plans))
    final = standings(spec, players, results, plans)
    return BotTournament(
        spec,
        seed,
        players,
        tuple(plans),
        tuple(results),
        tuple(final),
        time.perf_counter() - start,
    )


def spec_from_options(
    game: str,
    *,
    format: str,
    rounds: int,
    table_size: int,
    duplicate: bool,
    options: Mapping[str, Any],
) -> TournamentSpec:
    """The tournament spec of the command line's options."""
    if format not in FORMATS:
        raise BadOptions(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
    size = 2 if game == "candidate" else table_size
    return TournamentSpec(
        game=game,
        format=format,  # checked above
        rounds=rounds,
        table_size=size,
        duplicate=duplicate,
        options=dict(options),
    )
