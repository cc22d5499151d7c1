"""Spy's compiled core is proven equal to the pure-Python engine, never trusted.

``games/spy/_core.c`` makes a position's moves, the match's unchecked ``apply_action``
and ``legal_actions``, the recorded random playout, the race runner's greedy race and
the exact searches of the planner and the oracle in C (S3-S17 of
``docs/rules/spy.en.md``). Every test here runs the same moves through both engines and
asserts identical states (every slot of every position), legal moves, scores and
records: every golden record and the sample, hypothesis-generated matches and
positions, 10,000 random playouts; the searches return identical results and the bots
that use them make identical decisions. Where a C compiler is present the core must
have been built (``tests/core/test_compiled_cores.py``).
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_spy_golden import CASES, GOLDEN, outputs

from cardtable.bots import spy_search
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_model import ModelBot
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.games.spy import SpyOptions, SpyState, text_to_action
from cardtable.games.spy import deal as deal_module
from cardtable.games.spy import engine as engines
from cardtable.games.spy.actions import RESIGN
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position
from cardtable.games.spy.race import (
    ExponentialTime,
    FixedTime,
    GreedyPolicy,
    RandomPolicy,
    run_race,
    run_race_naive,
)
from cardtable.record import load_record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(
    [
        *(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".summary.json")),
        ROOT / "samples/spy-sample.json",
    ]
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOTH = (engines.PURE, engines.COMPILED)

needs_core = pytest.mark.skipif(not engines.available(), reason="the compiled core was not built")


@pytest.fixture(autouse=True)
def _restore_engine() -> Iterator[None]:
    """Each test leaves the engine it found."""
    with engines.using(engines.engine_in_use()):
        yield


def on_both(run: Callable[[], Any]) -> list[Any]:
    """``run()`` on the pure engine, then on the compiled core."""
    found = []
    for name in BOTH:
        with engines.using(name):
            found.append(run())
    return found


def assert_same(run: Callable[[], Any]) -> Any:
    """``run()`` gives the same on both engines; returns the pure engine's answer."""
    pure, compiled = on_both(run)
    assert compiled == pure
    return pure


def seat_slots(seat: Position) -> tuple[Any, ...]:
    """Every slot of a position, lists copied."""
    return tuple(copy.deepcopy(getattr(seat, name)) for name in Position.__slots__)


def snapshot(state: SpyState) -> tuple[Any, ...]:
    """Everything a state holds and tells: positions, legal moves, scores, the log."""
    players = range(state.num_players)
    return (
        state.phase,
        state.round_number,
        [seat_slots(seat) for seat in state.seats],
        state.legal_actions(),
        [state.legal_actions(p) for p in players],
        state.totals[:],
        state.results,
        state.moves(),
        state._active,
    )


@needs_core
def test_the_engines_switch_the_methods_and_back() -> None:
    with engines.using(engines.PURE):
        assert engines.core() is None
        assert engines.engine_in_use() == "pure"
        with engines.using(engines.COMPILED):
            assert engines.core() is not None
            assert Position.play is not engines._SWITCH._methods["pure"][Position]["play"]
        assert Position.play is engines._SWITCH._methods["pure"][Position]["play"]


# ----------------------------------------------------------------- records


def replay_steps(record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The record's moves made one by one with the unchecked path: a snapshot after each,
    then the record the state writes."""
    rounds = record["rounds"]
    state = SpyState.from_cards(
        record["players"], rounds[0]["cards"], options=SpyOptions.from_dict(record["options"])
    )
    steps = [snapshot(state)]
    for number, played in enumerate(rounds):
        if number:
            state.start_round(played["cards"])
        for move in played["moves"]:
            state.apply_action(text_to_action(move))
            steps.append(snapshot(state))
    steps.append((state.to_record(),))
    return steps


@needs_core
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_record_replays_identically_move_by_move(path: Path) -> None:
    record = load_record(path.read_text(encoding="utf-8"))
    steps = assert_same(lambda: replay_steps(record))
    assert steps[-1][0] == record


@needs_core
@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_cases_are_made_and_told_identically(name: str) -> None:
    """The race runner makes each golden record, and the checked replay tells it, the
    same on both engines: the stored files."""
    stored = load_record((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    made = assert_same(CASES[name])
    assert made == stored
    told = assert_same(lambda: outputs(stored))
    for suffix, text in told.items():
        assert text == (GOLDEN / f"{name}{suffix}").read_text(encoding="utf-8")


# ----------------------------------------------------------------- generated matches


@st.composite
def matches(draw: st.DrawFn) -> tuple[int, SpyOptions, int, int | None, list[float]]:
    players = draw(st.integers(2, 5))
    options = SpyOptions(
        rounds=draw(st.integers(1, 3)),
        full_decks=draw(st.booleans()),
        count_points_pile=draw(st.booleans()),
        bonus=draw(st.integers(0, 30)),
    )
    limit = draw(st.one_of(st.none(), st.integers(1, 300)))
    draws = draw(st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=400))
    return players, options, draw(st.integers(0, 10**6)), limit, draws


def play_match(
    players: int, options: SpyOptions, seed: int, limit: int | None, draws: list[float]
) -> list[tuple[Any, ...]]:
    """Moves chosen by ``draws`` (a resign only one time in ten, so rounds last), with
    a snapshot after each."""
    state = SpyState.deal(players, seed=seed, options=options, move_limit=limit)
    steps = [snapshot(state)]
    for x in draws:
        legal = state.legal_actions()
        if not legal:
            break
        keep = [a for a in legal if a % 17 != RESIGN] if x > 0.1 else legal
        state.apply_action((keep or legal)[int(x * 7919) % len(keep or legal)])
        steps.append(snapshot(state))
    steps.append((state.to_record(),))
    return steps


@needs_core
@SETTINGS
@given(matches())
def test_generated_matches_are_identical_move_by_move(
    match: tuple[int, SpyOptions, int, int | None, list[float]],
) -> None:
    assert_same(lambda: play_match(*match))


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, Any], list[float]]:
    """A position from its parts (a shuffled deck cut into points, 1-6 piles, deck,
    waste) and the draws that choose its moves."""
    cards = draw(st.permutations(range(52)))
    size = draw(st.integers(12, 52))
    cards = list(cards[:size])
    points = draw(st.integers(0, 5))
    piles = draw(st.integers(1, 6))
    deck = draw(st.integers(0, size - points - piles))
    parts = {
        "points": cards[:points],
        "piles": [[c] for c in cards[points : points + piles]],
        "deck": cards[points + piles : points + piles + deck],
        "waste": cards[points + piles + deck :],
    }
    return parts, draw(st.lists(st.floats(0, 1, exclude_max=True), max_size=200))


def play_position(parts: dict[str, Any], draws: list[float]) -> list[tuple[Any, ...]]:
    pos = Position.from_parts(0, **parts)
    steps = [seat_slots(pos)]
    for x in draws:
        if not pos.legal:
            break
        pos.play(pos.legal[int(x * len(pos.legal))] - pos.base)
        steps.append(seat_slots(pos))
    return steps


@needs_core
@SETTINGS
@given(positions())
def test_generated_positions_play_identically(case: tuple[dict[str, Any], list[float]]) -> None:
    """Positions of every shape — six piles, blocked (S12), an empty deck turned over
    (S9) — change identically, slot by slot, the rank counts included."""
    assert_same(lambda: play_position(*case))


# ----------------------------------------------------------------- random playouts

PLAYOUTS = 10_000


def playouts(first: int, count: int) -> Iterator[tuple[Any, ...]]:
    """Random playouts of the engine in use from random moments of random matches: the
    final state, the record and how many numbers each drew."""
    for i in range(first, first + count):
        rng = random.Random(i)
        options = SpyOptions(rounds=1 + i % 2, full_decks=i % 3 == 0)
        state = SpyState.deal(2 + i % 3, seed=i, options=options, move_limit=rng.choice([None, 60]))
        for _ in range(rng.randrange(120)):  # a random moment, without resigning
            legal = [a for a in state.legal_actions() if a % 17 != RESIGN]
            if not legal:
                break
            state.apply_action(rng.choice(legal))
        engines.random_playout(state, rng.random, rng.choice([None, 5, 50]))
        yield snapshot(state), state.to_record(), rng.random()


@needs_core
@pytest.mark.parametrize("part", range(4))
def test_ten_thousand_random_playouts_are_identical(part: int) -> None:
    share = PLAYOUTS // 4
    pure, compiled = on_both(lambda: list(playouts(part * share, share)))
    for i, (a, b) in enumerate(zip(pure, compiled, strict=True)):
        assert a == b, f"playout {part * share + i} differs"


@needs_core
def test_a_playout_of_a_match_without_a_seed_stops_at_the_round_end() -> None:
    cards = deal_cards(seed=3, round_number=1, players=2, full_decks=False)

    def run() -> tuple[Any, ...]:
        state = SpyState.from_cards(2, cards, options=SpyOptions(rounds=2))
        engines.random_playout(state, random.Random(1).random)
        return snapshot(state)

    assert assert_same(run)[0] == "between_rounds"


@needs_core
def test_the_playout_of_a_state_subclass_chooses_by_its_legal_actions() -> None:
    class NoResign(SpyState):
        __slots__ = ()

        def legal_actions(self, player: int | None = None) -> list[int]:
            moves = super().legal_actions(player)
            return [a for a in moves if a % 17 != RESIGN] or moves

    def run() -> tuple[Any, ...]:
        state = NoResign.deal(2, seed=8, options=SpyOptions(rounds=1), move_limit=80)
        engines.random_playout(state, random.Random(2).random)
        return snapshot(state)

    moves = assert_same(run)[7]
    assert all(a % 17 != RESIGN for a in moves[:-1])  # nobody resigned while they could move


# ----------------------------------------------------------------- dealing


@needs_core
@pytest.mark.parametrize("size", [0, 1, 19, 127, 128, 129, 255, 256, 257, 400])
def test_the_cores_blake2b_is_hashlibs(size: int) -> None:
    """The deal's generator hashes in C exactly as ``hashlib.blake2b`` (RFC 7693), block
    edges (128 bytes) included."""
    core = engines.core()
    assert core is not None
    data = bytes(random.Random(size).randrange(256) for _ in range(size))
    assert core.blake2b_256(data) == hashlib.blake2b(data, digest_size=32).digest()


class Numbers:
    """A stand-in for the round generator that hands out given numbers."""

    def __init__(self, *numbers: int) -> None:
        self.numbers = list(numbers)

    def next_number(self) -> int:
        return self.numbers.pop(0)


@needs_core
def test_the_cores_shuffle_takes_the_same_digits_and_redraws_at_the_same_edge() -> None:
    """S2: every number below the largest multiple of 52! under 2**256 gives the pure
    shuffle's deck, and the numbers from that multiple up are redrawn."""
    core = engines.core()
    assert core is not None
    rng = random.Random(52)
    edge = deal_module._ACCEPT_BELOW
    numbers = [0, 1, 2, edge - 1, math.factorial(52) - 1, math.factorial(52)]
    numbers += [rng.randrange(edge) for _ in range(3000)]
    numbers += [rng.randrange(1 << 64) for _ in range(200)]  # leading zero words
    for number in numbers:
        pure = deal_module._shuffled_deck(Numbers(number))  # type: ignore[arg-type]
        assert core.shuffle_number(number.to_bytes(32, "big")) == pure, number
    for number in (edge, edge + 1, (1 << 256) - 1):
        assert core.shuffle_number(number.to_bytes(32, "big")) is None


@needs_core
@SETTINGS
@given(
    seed=st.one_of(st.integers(-(10**6), 10**6), st.integers(-(10**80), 10**80)),
    round_number=st.integers(1, 20),
    players=st.integers(2, 8),
    full_decks=st.booleans(),
    same_deal=st.booleans(),
)
def test_the_core_deals_every_round_as_the_pure_deal(
    seed: int, round_number: int, players: int, full_decks: bool, same_deal: bool
) -> None:
    """S2, S2a: the seeded cards of any round, table size and options, dealt in C, are
    the pure deal's; and the positions laid out from them are Position.deal's (S3)."""
    core = engines.core()
    assert core is not None
    pure = deal_cards(
        seed=seed,
        round_number=round_number,
        players=players,
        full_decks=full_decks,
        same_deal=same_deal,
    )
    assert core.deal_cards(seed, round_number, players, full_decks, same_deal) == pure
    options = SpyOptions(rounds=1, full_decks=full_decks, same_deal=same_deal)
    for limit in (None, 1, 40):
        assert_same(
            lambda limit=limit: snapshot(
                SpyState.deal(players, seed=seed, options=options, move_limit=limit)
            )
        )


@needs_core
def test_every_later_round_is_dealt_and_laid_out_identically() -> None:
    """S3, S15: rounds after the first are dealt by the same path on both engines."""

    def run() -> list[tuple[Any, ...]]:
        state = SpyState.deal(3, seed=11, options=SpyOptions(rounds=4), move_limit=30)
        steps = []
        while not state.is_terminal():
            engines.random_playout(state, random.Random(state.round_number).random)
            steps.append(snapshot(state))
        return steps

    assert len(assert_same(run)) >= 1


# ----------------------------------------------------------------- the race runner


@needs_core
@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_races_are_identical(players: int) -> None:
    """The runner's greedy race in C gives the same matches and timings, cut-offs
    included, and the naive runner agrees on the compiled engine too."""
    for seed in range(25):
        setting = {
            "seed": seed,
            "options": SpyOptions(rounds=2, full_decks=seed % 2 == 0),
            "times": [FixedTime(1.0 + 0.25 * (p % 2)) for p in range(players)],
            "move_limit": 300 + seed,
        }

        def race(setting: dict[str, Any] = setting) -> Any:
            result = run_race(players, [GreedyPolicy()] * players, **setting)
            return result.state.to_record(), result.rounds

        fast = assert_same(race)
        with engines.using(engines.COMPILED):
            naive = run_race_naive(players, [GreedyPolicy()] * players, **setting)
        assert (naive.state.to_record(), naive.rounds) == fast


@needs_core
def test_mixed_races_are_identical() -> None:
    """Other policies and random move times run the pure solo race on either engine."""
    for seed in range(10):
        assert_same(
            lambda seed=seed: (
                run_race(
                    3,
                    [GreedyPolicy(), RandomPolicy(), GreedyPolicy()],
                    seed=seed,
                    options=SpyOptions(rounds=1),
                    times=[FixedTime(), ExponentialTime(1.0), ExponentialTime(0.7)],
                    move_limit=200,
                ).rounds
            )
        )


# ----------------------------------------------------------------- the searches


def moments(count: int, seed: int) -> list[Position]:
    """Positions from random moments of dealt rounds (half or full decks)."""
    rng = random.Random(seed)
    found = []
    with engines.using(engines.PURE):
        for i in range(count):
            cards = deal_cards(seed=seed + i, round_number=1, players=2, full_decks=i % 3 == 0)
            pos = Position.deal(i % 2, cards[i % 2])
            for _ in range(rng.randrange(80)):
                legal = [a for a in pos.legal if a - pos.base != RESIGN]
                if not legal or pos.blocked:
                    break
                pos.play(rng.choice(legal) - pos.base)
            found.append(pos)
    return found


@needs_core
def test_the_searches_return_identical_results() -> None:
    """race_moves, shortest_race and greedy_race, with node limits that cut the search
    short as well as ones that let it finish."""
    found = moments(150, 40)
    assert_same(
        lambda: [
            spy_search.race_moves(spy_search.race_state(p), limit)
            for p in found
            for limit in (0, 20, 300, 20_000)
        ]
    )
    assert_same(lambda: [spy_search.greedy_race(p, cap) for p in found for cap in (10, 300)])
    races = assert_same(
        lambda: [spy_search.shortest_race(p, limit) for p in found[:60] for limit in (5, 2_000)]
    )
    assert any(not r.proven for r in races)
    assert any(r.proven for r in races)


@needs_core
@SETTINGS
@given(positions())
def test_the_searches_agree_on_generated_positions(
    case: tuple[dict[str, Any], list[float]],
) -> None:
    parts, _ = case
    pos = Position.from_parts(0, **parts)
    assert_same(
        lambda: (
            spy_search.race_moves(spy_search.race_state(pos), 500),
            spy_search.greedy_race(pos),
            spy_search.shortest_race(pos, 500),
        )
    )


@needs_core
def test_the_bots_decide_identically() -> None:
    """The planner and the model race the same moves, the oracle analyses the same."""
    for seed in range(3):
        cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
        for bot in (PlannerBot(seed=seed), ModelBot(seed=seed)):
            assert_same(lambda bot=bot, cards=cards: solo_race(bot, Position.deal(0, cards[0])))
    oracle = OracleBot(iterations=3_000)
    found = [p for p in moments(15, 7) if p.legal]
    assert_same(lambda: [(oracle.analyse_true(p), oracle.choose_true(p)) for p in found])
