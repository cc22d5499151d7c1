"""Pairing and seating: who plays whom in each round, for people and bots alike.

Pure and deterministic: the same entrants, results and earlier plans give the same
plan, so a restarted server or another process pairs a round exactly as before.

**Swiss** (two seats a table, Candidate). Players active in the round are ranked by the
current standings (:func:`cardtable.tournament.standings.standings`; initial order
last). With an odd number one player gets a *bye*: the lowest-ranked player who has not
had one yet and without whom the others can still be paired with no rematch (when no
such choice exists, simply the lowest-ranked without a bye; when everyone has had a
bye, the lowest-ranked with the fewest). The others are paired by a maximum-weight
perfect matching (:func:`networkx.max_weight_matching`, ``maxcardinality=True``) whose
edge costs are ordered lexicographically, each level weighing more than every lower
level of a whole pairing can add up to:

1. a rematch (the pair met in an earlier round) — so a pairing with a rematch is chosen
   only when no perfect pairing without one exists;
2. a strong colour clash (:func:`clash`): seating the pair would leave one player
   three or more games off balance (firsts minus seconds);
3. the squared difference of their points (pairs players with equal or near scores);
4. a mild colour clash: one player would end two games off balance;
5. the distance of their ranks (within a score group the nearest ranks meet).

So nobody's firsts and seconds differ by more than two while pairings without a strong
clash exist (the property tests check it round by round); a difference of two is
accepted only where keeping to one would pair players of different scores.

Large fields (more than :data:`BLOCK` × 2 players) are cut into consecutive blocks of
at least :data:`BLOCK` players (at score-group boundaries when possible), each matched
exactly with the allowed edges (no rematch, no strong clash). A block with no perfect
matching of allowed edges is merged with the next (the last with the one before) until
one block is the whole field, which, if it still has none, is matched exactly with
every edge and its cost — so the guarantees of levels 1 and 2 hold for every field
size, and only the optimality of levels 3 to 5 is per block in large fields (the
benchmark ``python -m benchmarks tournament`` times it).

Seats (*colour*: seat 0 deals first): the player with fewer firsts than seconds takes
seat 0; when equal, the one who was seated second in their latest game (alternation);
then the higher-ranked in odd rounds and the lower-ranked in even ones.

**Race rounds** (Spy vs Spy, tables of 2-8): see :func:`race_sizes` for the table
sizes. Round 1 seats by initial order in a serpentine (snake) over the tables, so each
table gets a spread of strengths. Later rounds seat by standings — the best at the
first table, and so on — then improve the seating by swapping two players of different
tables while a swap lowers, lexicographically, (the number of pairs of table-mates who
have already shared a table, counted with multiplicity; the sum over players of how far
their table is from the one the standings gave them).

**Arena** (:func:`pair_waiting`): the players waiting now are paired by closeness of
arena points, avoiding an opponent's immediate rematch when another waiting player
exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import networkx as nx

from cardtable.tournament.model import GameResult, Player, RoundPlan, TournamentSpec
from cardtable.tournament.standings import standings

__all__ = [
    "BLOCK",
    "MAX_TABLE",
    "MIN_TABLE",
    "PairingError",
    "clash",
    "colour_balance",
    "met_before",
    "pair_round",
    "pair_waiting",
    "race_sizes",
    "rematch_free_exists",
    "table_mates",
]

#: Fields of more than twice this many players are matched in blocks of at least this many.
BLOCK = 32
#: A race seats two to eight players (S1 in ``docs/rules/spy.en.md``).
MIN_TABLE = 2
MAX_TABLE = 8


class PairingError(ValueError):
    """Nobody can be paired (fewer than two players are active)."""


def met_before(plans: Iterable[RoundPlan], results: Iterable[GameResult]) -> set[frozenset[str]]:
    """Every pair of players who have shared a table (seated in a plan or a result)."""
    met: set[frozenset[str]] = set()
    for seats in [*(t for p in plans for t in p.tables), *(r.seats for r in results)]:
        for a, b in combinations(seats, 2):
            met.add(frozenset((a, b)))
    return met


def table_mates(plans: Iterable[RoundPlan]) -> dict[frozenset[str], int]:
    """How many times each pair of players has shared a table."""
    counts: dict[frozenset[str], int] = {}
    for plan in plans:
        for seats in plan.tables:
            for a, b in combinations(seats, 2):
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts


def colour_balance(plans: Iterable[RoundPlan]) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's firsts minus seconds (seat 0 minus seat 1 of two-seat tables), and
    the seat of their latest game."""
    balance: dict[str, int] = {}
    last: dict[str, int] = {}
    for plan in sorted(plans, key=lambda p: p.round):
        for seats in plan.tables:
            if len(seats) != 2:
                continue
            for seat, player in enumerate(seats):
                balance[player] = balance.get(player, 0) + (1 if seat == 0 else -1)
                last[player] = seat
    return balance, last


def clash(a: int, b: int) -> int:
    """How far pairing players of balances ``a`` and ``b`` pushes one of them off
    balance (the lower balance deals first: ``a + 1`` and ``b - 1`` when ``a <= b``):
    0 when neither ends beyond ±1, 1 when one ends at ±2, 2 when one ends beyond ±2.

    >>> clash(1, -1), clash(1, 1), clash(2, 1), clash(2, 2), clash(-2, -1)
    (0, 1, 1, 2, 1)
    """
    low, high = min(a, b), max(a, b)
    worst = max(abs(low + 1), abs(high - 1))
    return 0 if worst <= 1 else 1 if worst == 2 else 2


def rematch_free_exists(ids: Sequence[str], met: set[frozenset[str]]) -> bool:
    """Whether ``ids`` (an even number) can all be paired with no rematch.

    Dirac's theorem answers at once when everyone can meet at least half the others
    (a Hamiltonian cycle exists, so a perfect matching does); otherwise a maximum
    matching decides.
    """
    if len(ids) % 2:
        return False
    degrees = [sum(1 for b in ids if b != a and frozenset((a, b)) not in met) for a in ids]
    if not ids or min(degrees) * 2 >= len(ids):
        return True
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for a, b in combinations(ids, 2) if frozenset((a, b)) not in met)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)


def _choose_bye(ranked: Sequence[str], byes: dict[str, int], met: set[frozenset[str]]) -> str:
    """The bye of an odd round (``ranked`` best first): the lowest-ranked player with
    the fewest byes whose absence leaves a rematch-free pairing, else the lowest-ranked
    with the fewest byes."""
    fewest = min(byes.get(p, 0) for p in ranked)
    eligible = [p for p in reversed(ranked) if byes.get(p, 0) == fewest]
    for candidate in eligible:
        if rematch_free_exists([p for p in ranked if p != candidate], met):
            return candidate
    return eligible[0]


def _blocks(ranked: Sequence[str], points: dict[str, float]) -> list[list[str]]:
    """Consecutive blocks of an even number (at least :data:`BLOCK`) of ranked players,
    cut where the points change (or, in a long score group, at twice that size)."""
    if len(ranked) <= 2 * BLOCK:
        return [list(ranked)]
    blocks: list[list[str]] = []
    current: list[str] = []
    for index, player in enumerate(ranked):
        current.append(player)
        rest = len(ranked) - index - 1
        at_boundary = rest == 0 or points[ranked[index + 1]] != points[player]
        even = len(current) >= BLOCK and len(current) % 2 == 0
        if rest >= BLOCK and even and (at_boundary or len(current) >= 2 * BLOCK):
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _match(
    ranked: Sequence[str],
    points: dict[str, float],
    met: set[frozenset[str]],
    balance: dict[str, int],
    *,
    allowed_only: bool,
) -> list[tuple[str, str]] | None:
    """A maximum-weight perfect matching of ``ranked`` (costs as in the module
    docstring); with ``allowed_only`` only edges without a rematch or a strong clash, and
    ``None``
    if those have no perfect matching."""
    n = len(ranked)
    position = {p: i for i, p in enumerate(ranked)}
    halves = {p: round(2 * points[p]) for p in ranked}
    spread = max(halves.values()) - min(halves.values()) if ranked else 0
    # Each level outweighs everything the lower levels of a whole pairing can add up to.
    rank_level = 1
    mild_level = rank_level * (n * n + 1)
    score_level = mild_level * (n + 1)
    strong_level = score_level * (n * (spread * spread + 1) + 1)
    rematch_level = strong_level * (n + 1)
    top = rematch_level * 2
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            rematch = frozenset((a, b)) in met
            off = clash(balance.get(a, 0), balance.get(b, 0))
            if allowed_only and (rematch or off == 2):
                continue
            cost = (
                rematch_level * rematch
                + strong_level * (off == 2)
                + score_level * (halves[a] - halves[b]) ** 2
                + mild_level * (off == 1)
                + rank_level * abs(position[a] - position[b])
            )
            graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n:
        if allowed_only:
            return None
        raise PairingError("no perfect pairing")  # pragma: no cover - a complete graph has one
    pairs: list[tuple[str, str]] = []
    for u, v in matching:
        pairs.append((u, v) if position[u] < position[v] else (v, u))
    return sorted(pairs, key=lambda pair: position[pair[0]])


def _seat(
    a: str, b: str, balance: dict[str, int], last: dict[str, int], round_number: int
) -> tuple[str, str]:
    """Seat order of a pair (``a`` ranked above ``b``): seat 0 deals first."""
    ba, bb = balance.get(a, 0), balance.get(b, 0)
    if ba != bb:
        return (a, b) if ba < bb else (b, a)
    la, lb = last.get(a), last.get(b)
    if la != lb:
        if la == 1 or lb == 0:
            return (a, b)
        return (b, a)
    return (a, b) if round_number % 2 else (b, a)


def _swiss(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
    round_number: int,
) -> RoundPlan:
    earlier = [p for p in plans if p.round < round_number]
    table = standings(spec, players, results, earlier)
    points = {s.player: s.points for s in table}
    active = {p.id for p in players if p.active_in(round_number)}
    ranked = [s.player for s in table if s.player in active]
    if len(ranked) < 2:
        raise PairingError(f"round {round_number}: fewer than two players to pair")
    met = met_before(earlier, results)
    balance, last = colour_balance(earlier)
    byes: tuple[str, ...] = ()
    if len(ranked) % 2:
        had: dict[str, int] = {}
        for plan in earlier:
            for player in plan.byes:
                had[player] = had.get(player, 0) + 1
        bye = _choose_bye(ranked, had, met)
        byes = (bye,)
        ranked = [p for p in ranked if p != bye]
    matched: list[tuple[list[str], list[tuple[str, str]]]] = []
    blocks = _blocks(ranked, points)
    while blocks:
        block = blocks.pop(0)
        found = _match(block, points, met, balance, allowed_only=True)
        if found is not None:
            matched.append((block, found))
        elif blocks:  # merged with the next block and tried again
            blocks[0] = block + blocks[0]
        elif matched:  # the last block: merged with the one before
            blocks = [matched.pop()[0] + block]
        else:  # the whole field has no allowed perfect pairing: every edge, with its cost
            matched.append((block, _match(block, points, met, balance, allowed_only=False) or []))
    pairs = [pair for _, found_pairs in matched for pair in found_pairs]
    tables = tuple(_seat(a, b, balance, last, round_number) for a, b in pairs)
    return RoundPlan(round_number, tables, byes)


def race_sizes(players: int, table_size: int) -> list[int]:
    """The table sizes of a race round, largest first.

    As few tables as the organiser's size allows (``ceil(players / table_size)``), the
    players spread as evenly as possible (sizes differ by at most one, none above the
    chosen size): 7 at size 5 are 4 + 3, never 5 + 2. Only at size 2 with an odd count
    would a table of one be left; there one table seats three instead.

    >>> race_sizes(7, 5), race_sizes(16, 5), race_sizes(16, 3), race_sizes(5, 2)
    ([4, 3], [4, 4, 4, 4], [3, 3, 3, 3, 2, 2], [3, 2])
    """
    if players < MIN_TABLE:
        raise PairingError(f"a race needs at least {MIN_TABLE} players, got {players}")
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise PairingError(f"a race table seats {MIN_TABLE}-{MAX_TABLE}, not {table_size}")
    tables = -(-players // table_size)
    if players // tables < MIN_TABLE:
        tables = players // MIN_TABLE
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _snake(ranked: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``ranked`` over the tables in a serpentine, skipping full tables."""
    tables: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    index = 0
    forward = True
    for player in ranked:
        while True:
            lane = order if forward else order[::-1]
            table = lane[index]
            index += 1
            if index == len(order):
                index = 0
                forward = not forward
            if len(tables[table]) < sizes[table]:
                tables[table].append(player)
                break
    return tables


#: Race seating swaps players of tables at most this far apart in large rounds
#: (every pair of tables when there are at most twice as many).
SWAP_REACH = 4


def _improve(
    tables: list[list[str]], home: dict[str, int], mates: dict[frozenset[str], int]
) -> None:
    """Swap players of two tables while a swap lowers (repeats, displacement)
    lexicographically; a swap moves a player who shares their table with someone met
    before (any swap that lowers the repeats moves one)."""
    count = len(tables)
    reach = count if count <= 2 * SWAP_REACH else SWAP_REACH

    def conflicts(player: str, members: Sequence[str]) -> int:
        return sum(mates.get(frozenset((player, x)), 0) for x in members if x != player)

    def try_swap(t: int, u: int) -> bool:
        for i, a in enumerate(tables[t]):
            a_here = conflicts(a, tables[t])
            if a_here == 0:
                continue
            a_there = conflicts(a, tables[u])
            for j, b in enumerate(tables[u]):
                both = mates.get(frozenset((a, b)), 0)
                repeats = (
                    conflicts(b, tables[t])
                    - both
                    - a_here
                    + a_there
                    - both
                    - conflicts(b, tables[u])
                )
                moved = abs(home[b] - t) + abs(home[a] - u) - abs(home[a] - t) - abs(home[b] - u)
                if (repeats, moved) < (0, 0):
                    tables[t][i], tables[u][j] = b, a
                    return True
        return False

    improved = True
    while improved:
        improved = False
        for t in range(count):
            for u in range(max(0, t - reach), min(count, t + reach + 1)):
                if u != t and try_swap(t, u):
                    improved = True


def _race(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
    round_number: int,
) -> RoundPlan:
    earlier = [p for p in plans if p.round < round_number]
    active = {p.id for p in players if p.active_in(round_number)}
    if len(active) < MIN_TABLE:
        raise PairingError(f"round {round_number}: fewer than two players to seat")
    sizes = race_sizes(len(active), spec.table_size)
    if not earlier and not results:
        ranked = [p.id for p in sorted(players, key=lambda p: (p.order, p.id)) if p.id in active]
        return RoundPlan(round_number, tuple(tuple(t) for t in _snake(ranked, sizes)))
    table = standings(spec, players, results, earlier)
    ranked = [s.player for s in table if s.player in active]
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(ranked[start : start + size])
        start += size
    home = {p: t for t, members in enumerate(tables) for p in members}
    _improve(tables, home, table_mates(earlier))
    return RoundPlan(round_number, tuple(tuple(t) for t in tables))


def pair_round(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    plans: Sequence[RoundPlan],
    round_number: int,
) -> RoundPlan:
    """The plan of round ``round_number``: Swiss pairs or race tables (module docstring).

    ``players`` are all entrants (:meth:`Player.active_in` decides who plays),
    ``results`` every result so far and ``plans`` every earlier round's plan.

    >>> spec = TournamentSpec("candidate", "swiss", rounds=3)
    >>> people = [Player(name, order) for order, name in enumerate("abcde")]
    >>> pair_round(spec, people, [], [], 1)
    RoundPlan(round=1, tables=(('a', 'b'), ('c', 'd')), byes=('e',))
    """
    if spec.format == "race":
        return _race(spec, players, results, plans, round_number)
    if spec.format == "swiss":
        return _swiss(spec, players, results, plans, round_number)
    raise PairingError(f"the {spec.format} format pairs players as they wait (pair_waiting)")


def pair_waiting(
    spec: TournamentSpec,
    players: Sequence[Player],
    results: Sequence[GameResult],
    waiting: Sequence[str],
    sequence: int,
) -> list[tuple[str, ...]]:
    """Arena: tables for the players waiting now; those left over keep waiting.

    Waiting players are ranked by arena points (then initial order). Two-seat games
    pair the best-ranked waiting player with the nearest-ranked one who was not their
    latest opponent (or the nearest if everyone was), and so on; an odd one out waits.
    Races gather all waiting players (at least two) into tables of
    :func:`race_sizes`, consecutive by rank. Seat 0 goes to the player who has dealt
    first less often. ``sequence`` numbers this call (the game sequence in the arena)
    and breaks seat ties.
    """
    table = standings(spec, players, results, [])
    position = {s.player: i for i, s in enumerate(table)}
    known = set(position)
    ranked = sorted((p for p in dict.fromkeys(waiting) if p in known), key=position.__getitem__)
    if len(ranked) < 2:
        return []
    if spec.game != "candidate":
        sizes = race_sizes(len(ranked), spec.table_size)
        out = []
        start = 0
        for size in sizes:
            out.append(tuple(ranked[start : start + size]))
            start += size
        return out
    latest: dict[str, str] = {}
    firsts: dict[str, int] = {}
    for r in sorted(results, key=lambda g: (g.round, g.table)):
        if len(r.seats) == 2:
            a, b = r.seats
            latest[a], latest[b] = b, a
            firsts[a] = firsts.get(a, 0) + 1
            firsts[b] = firsts.get(b, 0) - 1
    pairs: list[tuple[str, ...]] = []
    pool = list(ranked)
    while len(pool) >= 2:
        a = pool.pop(0)
        fresh = [b for b in pool if latest.get(a) != b and latest.get(b) != a]
        b = fresh[0] if fresh else pool[0]
        pool.remove(b)
        fa, fb = firsts.get(a, 0), firsts.get(b, 0)
        if fa != fb:
            pairs.append((a, b) if fa < fb else (b, a))
        else:
            pairs.append((a, b) if sequence % 2 else (b, a))
    return pairs
