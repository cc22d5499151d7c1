"""The compiled core is proven equal to the pure-Python engine, never trusted.

``games/candidate/_core.c`` plays one-deck deals in C (legal moves, the unchecked
``apply_action``, the search's ``advance``, both random playouts; C4-C15 of
``docs/rules/candidate.en.md``). Every test here runs the same moves through both
engines and asserts identical states, legal moves, scores and records: every golden
record and sample in the repo, hypothesis-generated games, and 10,000 random playouts.
Where a C compiler is present the core must have been built (``tests/core/test_compiled_cores.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.candidate import CandidateOptions, CandidateState, playout
from cardtable.games.candidate import engine as engines
from cardtable.games.candidate.actions import text_to_action
from cardtable.games.candidate.records import parse_record, record_seed

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(
    [*(ROOT / "tests/candidate/golden").glob("*.json"), ROOT / "samples/candidate-sample.json"]
)
RECORDS = [p for p in RECORDS if not p.name.endswith(".summary.json")]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

needs_core = pytest.mark.skipif(not engines.available(), reason="the compiled core was not built")


@pytest.fixture(autouse=True)
def _restore_engine() -> Iterator[None]:
    """Each test leaves the engine it found."""
    with engines.using(engines.engine_in_use()):
        yield


def in_both(make: Callable[[], CandidateState]) -> tuple[CandidateState, CandidateState]:
    """The same state made twice (the making itself is pure Python)."""
    return make(), make()


def step_both(pure: CandidateState, compiled: CandidateState, action: int) -> None:
    """One unchecked move in each engine; then the states and legal moves agree."""
    with engines.using(engines.PURE):
        pure.apply_action(action)
        pure_legal = pure.legal_actions()
    with engines.using(engines.COMPILED):
        compiled.apply_action(action)
        compiled_legal = compiled.legal_actions()
    assert compiled == pure
    assert compiled_legal == pure_legal
    assert compiled.totals() == pure.totals()


@needs_core
@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_every_golden_record_and_sample_replays_alike(path: Path) -> None:
    """C1-C17: each record's moves through both engines, state by state, to the same
    record."""
    record = json.loads(path.read_text(encoding="utf-8"))
    parsed = parse_record(record)
    first = parsed.deals[0]
    pure, compiled = in_both(
        lambda: CandidateState.from_piles(
            first.piles, first.dealer, parsed.options, seed=record_seed(parsed)
        )
    )
    for i, deal in enumerate(parsed.deals):
        if i:
            pure.set_deal_piles(deal.piles)
            compiled.set_deal_piles(deal.piles)
        for text in deal.moves:
            step_both(pure, compiled, text_to_action(text))
    assert compiled.to_record(record["players"]) == pure.to_record(record["players"])
    assert compiled.to_record(record["players"])["deals"] == record["deals"]


#: seed, decks, deals, random moves.
games = st.tuples(st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 3), st.integers(0, 400))


@needs_core
@SETTINGS
@given(games)
def test_random_games_agree_move_by_move(game: tuple[int, int, int, int]) -> None:
    """C1-C17: random legal moves through both engines (several decks go to the pure
    functions inside the core), states, legal moves and scores equal after each."""
    seed, decks, deals, moves = game
    options = CandidateOptions(decks=decks, deals=deals)
    pure, compiled = in_both(lambda: CandidateState.new(seed, options))
    rng = random.Random(seed)
    for _ in range(moves):
        if pure.is_terminal():
            break
        with engines.using(engines.PURE):
            action = rng.choice(pure.legal_actions())
        step_both(pure, compiled, action)
    assert compiled.to_record() == pure.to_record()
    assert compiled.returns() == pure.returns()


def start(seed: int, decks: int = 1, deals: int = 1) -> CandidateState:
    """A state some random moves into a match (any decision, the deal move included)."""
    rng = random.Random(seed)
    state = CandidateState.new(seed, CandidateOptions(decks=decks, deals=deals))
    with engines.using(engines.PURE):
        for _ in range(rng.randrange(0, 130)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return state


#: seed, decks, deals, the playout's seed, its cut.
playouts = st.tuples(
    st.integers(0, 10**6),
    st.integers(1, 2),
    st.integers(1, 3),
    st.integers(0, 10**6),
    st.one_of(st.none(), st.integers(0, 60)),
)


@needs_core
@SETTINGS
@given(playouts)
def test_playouts_and_tree_steps_agree(game: tuple[int, int, int, int, int | None]) -> None:
    """The same numbers give the same playout (recorded and score-only) and the same
    tree steps in both engines."""
    seed, decks, deals, playout_seed, cut = game
    begin = start(seed, decks, deals)
    pure, compiled = begin.clone(), begin.clone()
    with engines.using(engines.PURE):
        engines.random_playout(pure, random.Random(playout_seed).random, cut)
    with engines.using(engines.COMPILED):
        engines.random_playout(compiled, random.Random(playout_seed).random, cut)
    assert compiled == pure
    with engines.using(engines.PURE):
        pure_margin = engines.search_functions()[1](
            begin.clone(), random.Random(playout_seed).random, cut
        )
    with engines.using(engines.COMPILED):
        compiled_margin = engines.search_functions()[1](
            begin.clone(), random.Random(playout_seed).random, cut
        )
    assert compiled_margin == pure_margin
    # Tree steps: the same moves, the same next legal moves (or the end of the deal).
    pure, compiled = begin.clone(), begin.clone()
    rng = random.Random(playout_seed)
    moves = pure.legal_actions()
    while moves:
        action = rng.choice(list(moves))
        with engines.using(engines.PURE):
            moves = engines.search_functions()[0](pure, action)
        with engines.using(engines.COMPILED):
            assert list(engines.search_functions()[0](compiled, action)) == list(moves)
        assert compiled == pure


@needs_core
@pytest.mark.slow
def test_ten_thousand_random_playouts_agree() -> None:
    """10,000 one-deck playouts from random moments of random matches (1-2 deals, any
    decision): the recorded playout reaches the same state, the score-only one the same
    margin, in both engines."""
    for seed in range(10_000):
        begin = start(seed, deals=1 + seed % 2)
        pure, compiled = begin.clone(), begin.clone()
        with engines.using(engines.PURE):
            playout.random_playout(pure, random.Random(seed).random)
            expected = playout.playout_margin(begin.clone(), random.Random(-seed).random)
        with engines.using(engines.COMPILED):
            engines.random_playout(compiled, random.Random(seed).random)
            margin = engines.search_functions()[1](begin.clone(), random.Random(-seed).random)
        assert compiled == pure, seed
        assert margin == expected, seed
