"""The Spy model player (``model``, the ``hard`` level): its shipped table solves the
order-blind model (S3-S10), it decides from the seat's information only (S4-S5) and
takes over a seat at any moment like every bot (S4-S5, S9)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spy_bot_helpers import assert_blind_to_hidden_cards, seat_at_deal
from takeover_helpers import SPY_STYLES, Walk, spy_random_move, take_over
from typer.testing import CliRunner

from cardtable.bots.registry import LEVELS, make_bot, parse_bot_spec
from cardtable.bots.seat import SeatBot
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_model import (
    HIDDEN,
    RANKS,
    SCALE,
    STATES,
    ModelBot,
    model_move_costs,
    model_value,
    model_values,
)
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.cli import app as cli_app
from cardtable.games.spy.actions import CALL, OPEN_POINTS, PLACE_POINTS, RESIGN, TURN

UNIFORM = [(rank, 1 / RANKS) for rank in range(RANKS)]

#: A state of the model: 4-6 pile-top ranks, the points top, the hidden points cards
#: under it (S3: five in all) and the waste top (None: no waste card).
states = st.tuples(
    st.lists(st.integers(0, RANKS - 1), min_size=4, max_size=6),
    st.integers(0, RANKS - 1),
    st.integers(0, HIDDEN - 1),
    st.none() | st.integers(0, RANKS - 1),
)


def test_table_holds_every_state_of_the_model() -> None:
    assert len(model_values()) == STATES == 26_572 * 5 * 14


@settings(max_examples=400, deadline=None)
@given(states)
def test_table_solves_the_model_s6_s10(state: tuple[list[int], int, int, int | None]) -> None:
    """Each value is its best move's cost: one move, plus the value after it averaged
    over the rank it shows (uniform in the model), placing the last points card then
    the call (S10). Rounding to 1/SCALE leaves at most a few thousandths."""
    tops, points, hidden, waste = state
    costs = model_move_costs(tops, points, hidden, waste, None, UNIFORM)
    assert TURN in costs
    assert abs(min(costs.values()) - model_value(tops, points, hidden, waste)) <= 2 / SCALE


@settings(max_examples=400, deadline=None)
@given(states)
def test_table_is_the_same_for_mirrored_ranks_s6(
    state: tuple[list[int], int, int, int | None],
) -> None:
    """Cards fit one rank up or down (S6), so mirroring every rank changes no value;
    the solution never used that, so this checks it independently."""
    tops, points, hidden, waste = state
    mirror = [(-t) % RANKS for t in tops]
    shown = None if waste is None else (-waste) % RANKS
    same = model_value(mirror, (-points) % RANKS, hidden, shown)
    assert abs(model_value(tops, points, hidden, waste) - same) <= 1.5 / SCALE


@settings(max_examples=200, deadline=None)
@given(states)
def test_value_is_at_least_one_move_per_points_card_and_the_call_s10(
    state: tuple[list[int], int, int, int | None],
) -> None:
    tops, points, hidden, waste = state
    assert model_value(tops, points, hidden, waste) >= hidden + 2 - 1 / SCALE


def test_last_points_card_on_a_fitting_pile_then_the_call_s6_s10() -> None:
    assert model_value([1, 5, 5, 9], 0, 0, None) == 2.0
    costs = model_move_costs([1, 5, 5, 9], 0, 0, None, None, UNIFORM)
    assert costs[PLACE_POINTS] == costs[OPEN_POINTS] == 2.0


def test_registered_and_the_hard_level() -> None:
    spec = parse_bot_spec("spy", "model:8")
    assert (spec.name, spec.iterations) == ("model", 8)
    assert LEVELS["spy"]["hard"] == parse_bot_spec("spy", "model")
    bot = make_bot(spec, 3)
    assert isinstance(bot, ModelBot)
    assert bot.planner.budget.iterations == 8


@pytest.mark.parametrize("seed", range(4))
def test_choice_is_the_move_of_fewest_expected_moves_s4_s5(seed: int) -> None:
    """While the deck is unknown the move is the table's best, weighted by the seat's
    unseen ranks (never the hidden cards themselves), and the analysis agrees."""
    pos, tracker = seat_at_deal(seed)
    info = tracker.info(pos.legal)
    bot = ModelBot(seed)
    costs = bot.move_costs(info)
    assert set(costs) == set(info.locals) - {RESIGN, CALL}
    choice = bot.choose(info)
    assert costs[choice - info.action(0)] == min(costs.values())
    analysis = bot.analyse(info)
    assert analysis.best.action == choice
    assert {m.action for m in analysis.moves} == set(info.legal)


def test_planner_takes_over_once_the_deck_is_known_s9() -> None:
    """After the waste has been turned over the deck is known: the planner decides."""
    pos, tracker = seat_at_deal(5)
    while True:
        info = tracker.info(pos.legal)
        if info.deck is not None or CALL in info.locals or info.blocked:
            break
        pos.play(TURN)
        tracker.moved(TURN)
    assert info.deck is not None
    bot = ModelBot(5, iterations=6)
    assert bot.choose(info) == PlannerBot(seed=5, iterations=6).choose(info)


@pytest.mark.parametrize("seed", range(4))
def test_model_decision_ignores_reshuffled_hidden_cards_s4_s5(seed: int) -> None:
    """Reshuffling the cards hidden from the seat (under the points-pile top, and the
    racing deck until the waste is turned over) changes neither its information nor
    its move, move after move."""
    assert_blind_to_hidden_cards(ModelBot(seed, iterations=4), seed, steps=30)


@pytest.mark.parametrize("seed", range(6))
def test_model_races_to_the_call_never_shorter_than_the_oracle(seed: int) -> None:
    pos, _ = seat_at_deal(seed)
    race = solo_race(ModelBot(seed, iterations=4), pos)
    best = OracleBot().race(pos)
    assert race.called
    assert best.moves is not None
    assert race.moves >= best.moves


def test_model_takes_over_any_seat_mid_round_s4_s5_s9() -> None:
    """Two to four players; other seats move at random, a seat is handed to ``model``
    at a random moment (often one that went round its deck, S9); its information is the
    referee's, its move is legal and made through the Match API, and the same move
    comes in a second match whose cards hidden from the seat were reshuffled."""
    tally: Counter[str] = Counter()
    seed = 0
    while tally["points"] < 60:
        rng = random.Random(f"spy/model/{seed}")
        players = 2 + seed % 3
        walk = Walk.spy(seed=seed, players=players, options={}, move_limit=None)
        styles = [rng.choice(SPY_STYLES) for _ in range(players)]
        for _ in range(6):
            for _ in range(rng.randint(0, 25)):
                if not spy_random_move(walk, rng, styles):
                    break
            if walk.match.is_terminal():
                break
            seat = rng.randrange(players)
            info = walk.match.bot_info(seat)
            model_phase = info.legal and info.deck is None and info.deck_count > 0
            bot = SeatBot.make("spy", "model", seed=seed, seat=seat)
            if take_over(walk, seat, bot, rng, reshuffle=True, tally=tally):
                tally["deck unknown"] += bool(model_phase)
        seed += 1
    assert tally["reshuffled"] == tally["points"]
    assert tally["hidden cards changed"] >= tally["points"] // 2, tally
    # Both halves of the bot are exercised: the table's and the planner's.
    assert 10 <= tally["deck unknown"] <= tally["points"] - 10, tally


def test_analyse_spy_reports_the_model_player_beside_the_other_bots() -> None:
    """``cardtable analyse spy --deals N`` races the model player by default."""
    result = CliRunner().invoke(
        cli_app, ["analyse", "spy", "--seed", "3", "--deals", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bots"] == ["model", "planner", "greedy", "random"]
    assert data["races"] == 4
    model = data["summary"]["model"]
    assert model["no_call"] == 0
    assert model["mean"]["value"] >= data["summary"]["oracle"]["mean"]["value"]
