"""Property tests of the pairing (docs/tournaments.md): random tournaments with late
joins, withdrawals, forfeits and random results; every round checked against the
pairing rules with independent feasibility checks (a maximum matching over the
allowed pairs, computed here and not by the pairing)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.tournament.model import GameResult, Player, RoundPlan, TournamentSpec
from cardtable.tournament.pairing import (
    SWAP_REACH,
    PairingError,
    clash,
    pair_round,
    race_sizes,
    table_mates,
)
from cardtable.tournament.standings import standings


def perfect_pairing_exists(
    ids: Sequence[str], allowed: set[frozenset[str]] | None, banned: set[frozenset[str]]
) -> bool:
    """Whether ``ids`` can all be paired using only pairs not in ``banned``."""
    if len(ids) % 2:
        return False
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for a, b in combinations(ids, 2) if frozenset((a, b)) not in banned)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)


def make_players(rng: random.Random, count: int, rounds: int) -> list[Player]:
    players = []
    for i in range(count):
        joined = 1 if rng.random() < 0.85 else rng.randint(2, max(2, rounds))
        left = None if rng.random() < 0.85 else rng.randint(joined, max(joined, rounds))
        players.append(Player(f"p{i:03d}", order=i, joined=joined, left=left))
    return players


def play(rng: random.Random, plan: RoundPlan, spy: bool) -> list[GameResult]:
    results = []
    for index, seats in enumerate(plan.tables):
        totals = tuple(float(rng.randint(-20, 40) if spy else rng.randint(0, 3)) for _ in seats)
        forfeited = tuple(p for p in seats if rng.random() < 0.05)
        results.append(GameResult(plan.round, index, seats, totals, forfeited))
    return results


def check_swiss_round(
    spec: TournamentSpec,
    players: list[Player],
    results: list[GameResult],
    plans: list[RoundPlan],
    plan: RoundPlan,
) -> None:
    number = plan.round
    active = [p.id for p in players if p.active_in(number)]
    seated = [p for t in plan.tables for p in t] + list(plan.byes)
    # Every active player exactly once, nobody else; two seats a table.
    assert sorted(seated) == sorted(active)
    assert all(len(t) == 2 for t in plan.tables)
    assert len(plan.byes) == len(active) % 2
    met = {frozenset(t) for p in plans for t in p.tables}
    paired = [p for t in plan.tables for p in t]
    # No rematch while a rematch-free pairing of the same players exists.
    rematches = [t for t in plan.tables if frozenset(t) in met]
    if rematches:
        assert not perfect_pairing_exists(paired, None, met)
    # Colour: no strong clash while a pairing without rematch or strong clash exists.
    balance: dict[str, int] = {}
    for earlier in plans:
        for t in earlier.tables:
            balance[t[0]] = balance.get(t[0], 0) + 1
            balance[t[1]] = balance.get(t[1], 0) - 1
    strong = {
        frozenset((a, b))
        for a, b in combinations(paired, 2)
        if clash(balance.get(a, 0), balance.get(b, 0)) == 2
    }
    if not rematches and any(frozenset(t) in strong for t in plan.tables):
        assert not perfect_pairing_exists(paired, None, met | strong)
    # Seat 0 goes to the player with the lower balance.
    for first, second in plan.tables:
        assert balance.get(first, 0) <= balance.get(second, 0)
    if plan.byes:
        (bye,) = plan.byes
        had: dict[str, int] = {}
        for earlier in plans:
            for p in earlier.byes:
                had[p] = had.get(p, 0) + 1
        fewest = min(had.get(p, 0) for p in active)
        # At most one bye each: only a player with the fewest byes gets one.
        assert had.get(bye, 0) == fewest
        ranked = [s.player for s in standings(spec, players, results, plans) if s.player in active]
        eligible = [p for p in ranked if had.get(p, 0) == fewest]
        below = eligible[eligible.index(bye) + 1 :]
        # The bye goes to the lowest-ranked eligible player whose absence leaves a
        # rematch-free pairing (or the lowest-ranked if nobody's does).
        for lower in below:
            assert not perfect_pairing_exists([p for p in active if p != lower], None, met)
        if below:
            assert perfect_pairing_exists([p for p in active if p != bye], None, met)


def run_swiss(count: int, rounds: int, rng_seed: int) -> int:
    rng = random.Random(rng_seed)
    spec = TournamentSpec("candidate", "swiss", rounds=rounds, duplicate=rng.random() < 0.3)
    players = make_players(rng, count, rounds)
    plans: list[RoundPlan] = []
    results: list[GameResult] = []
    strong_forced = False
    for number in range(1, rounds + 1):
        active = [p for p in players if p.active_in(number)]
        if len(active) < 2:
            try:
                pair_round(spec, players, results, plans, number)
            except PairingError:
                continue
            raise AssertionError("a round of fewer than two players was paired")
        plan = pair_round(spec, players, results, plans, number)
        assert plan == pair_round(spec, players, results, plans, number)  # deterministic
        check_swiss_round(spec, players, results, plans, plan)
        plans.append(plan)
        results.extend(play(rng, plan, spy=False))
    # Deal-first balance: firsts and seconds differ by at most two for everyone, unless
    # a round could only be paired with a strong clash (checked above when it happened).
    balance: dict[str, int] = {}
    for plan in plans:
        for first, second in plan.tables:
            balance[first] = balance.get(first, 0) + 1
            balance[second] = balance.get(second, 0) - 1
    if not strong_forced and balance:
        assert max(abs(b) for b in balance.values()) <= 2 or _forced(plans)
    return len(plans)


def _forced(plans: list[RoundPlan]) -> bool:
    """Whether some round seated a strong clash (allowed only when forced, as checked)."""
    balance: dict[str, int] = {}
    for plan in plans:
        for first, second in plan.tables:
            if clash(balance.get(first, 0), balance.get(second, 0)) == 2:
                return True
            balance[first] = balance.get(first, 0) + 1
            balance[second] = balance.get(second, 0) - 1
    return False


def check_race_round(
    spec: TournamentSpec,
    players: list[Player],
    results: list[GameResult],
    plans: list[RoundPlan],
    plan: RoundPlan,
) -> None:
    active = [p.id for p in players if p.active_in(plan.round)]
    seated = [p for t in plan.tables for p in t]
    assert sorted(seated) == sorted(active)
    assert not plan.byes
    sizes = sorted((len(t) for t in plan.tables), reverse=True)
    assert sizes == race_sizes(len(active), spec.table_size)
    assert min(sizes) >= 2
    assert max(sizes) <= max(spec.table_size, 3)
    assert max(sizes) - min(sizes) <= 1
    if spec.table_size > 2 or len(active) % 2 == 0:
        assert max(sizes) <= spec.table_size
    if not plans:
        return
    mates = table_mates(plans)

    def repeats(tables: Sequence[Sequence[str]]) -> int:
        return sum(mates.get(frozenset(pair), 0) for t in tables for pair in combinations(t, 2))

    # Never more repeats than the plain seating by standings it starts from.
    ranked = [s.player for s in standings(spec, players, results, plans) if s.player in active]
    naive, start = [], 0
    for size in race_sizes(len(active), spec.table_size):
        naive.append(ranked[start : start + size])
        start += size
    got = repeats(plan.tables)
    assert got <= repeats(naive)
    # A local optimum: no swap of two players of two tables lowers the repeats.
    tables = [list(t) for t in plan.tables]
    if len(tables) <= 2 * SWAP_REACH:
        for t, u in combinations(range(len(tables)), 2):
            for i in range(len(tables[t])):
                for j in range(len(tables[u])):
                    swapped = [list(x) for x in tables]
                    swapped[t][i], swapped[u][j] = tables[u][j], tables[t][i]
                    assert repeats(swapped) >= got


def run_race(count: int, rounds: int, size: int, rng_seed: int) -> int:
    rng = random.Random(rng_seed)
    spec = TournamentSpec(
        "spy", "race", rounds=rounds, table_size=size, duplicate=rng.random() < 0.3
    )
    players = make_players(rng, count, rounds)
    plans: list[RoundPlan] = []
    results: list[GameResult] = []
    for number in range(1, rounds + 1):
        if sum(p.active_in(number) for p in players) < 2:
            continue
        plan = pair_round(spec, players, results, plans, number)
        check_race_round(spec, players, results, plans, plan)
        plans.append(plan)
        results.extend(play(rng, plan, spy=True))
    return len(plans)


def fixed(examples: int) -> settings:
    """Seeded (the same examples every run) and without deadlines: a busy machine
    changes how long the tests take, never whether they pass."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


# About three thousand random tournaments in all (2,990), split so parallel workers share them.
@fixed(1000)
@given(st.integers(4, 11), st.integers(1, 9), st.integers(0, 2**32))
def test_swiss_tournaments_of_4_to_11_are_paired_validly(
    count: int, rounds: int, rng_seed: int
) -> None:
    run_swiss(count, rounds, rng_seed)


@fixed(600)
@given(st.integers(12, 24), st.integers(1, 9), st.integers(0, 2**32))
def test_swiss_tournaments_of_12_to_24_are_paired_validly(
    count: int, rounds: int, rng_seed: int
) -> None:
    run_swiss(count, rounds, rng_seed)


@fixed(30)
@given(st.integers(25, 80), st.integers(2, 6), st.integers(0, 2**32))
def test_swiss_tournaments_of_25_to_80_are_paired_validly(
    count: int, rounds: int, rng_seed: int
) -> None:
    run_swiss(count, rounds, rng_seed)


@fixed(30)
@given(st.integers(81, 140), st.integers(2, 6), st.integers(0, 2**32))
def test_swiss_tournaments_of_81_to_140_are_paired_validly(
    count: int, rounds: int, rng_seed: int
) -> None:
    run_swiss(count, rounds, rng_seed)


@fixed(30)
@given(st.integers(141, 200), st.integers(2, 6), st.integers(0, 2**32))
def test_swiss_tournaments_of_141_to_200_are_paired_validly(
    count: int, rounds: int, rng_seed: int
) -> None:
    run_swiss(count, rounds, rng_seed)


@fixed(800)
@given(st.integers(4, 40), st.integers(1, 5), st.integers(2, 8), st.integers(0, 2**32))
def test_race_rounds_of_4_to_40_are_seated_validly(
    count: int, rounds: int, size: int, rng_seed: int
) -> None:
    run_race(count, rounds, size, rng_seed)


@fixed(500)
@given(st.integers(41, 200), st.integers(1, 5), st.integers(2, 8), st.integers(0, 2**32))
def test_race_rounds_of_41_to_200_are_seated_validly(
    count: int, rounds: int, size: int, rng_seed: int
) -> None:
    run_race(count, rounds, size, rng_seed)
