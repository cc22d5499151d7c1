"""The Spy planner's search and its blindness to hidden cards (S4-S5), and the
deal-set summary of ``cardtable analyse spy --deals``."""

from __future__ import annotations

import random

import pytest
from spy_bot_helpers import assert_blind_to_hidden_cards

from cardtable.arena.analysis import analyse_spy_deals, gap_interval
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_planner import PlannerBot, _distinct_moves, _Tree
from cardtable.bots.spy_search import COVER, greedy_local, race_moves, race_state, shortest_race
from cardtable.games.spy.actions import CALL, RESIGN, TURN
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.info import SpyTracker
from cardtable.games.spy.position import FITS, Position
from cardtable.games.spy.views import SeatWindow


def _walk(pos: Position, rng: random.Random, steps: int) -> None:
    """Random moves (never the call or resigning) to reach mid-race positions."""
    for _ in range(steps):
        moves = [a - pos.base for a in pos.legal if a - pos.base not in (CALL, RESIGN)]
        if not moves or pos.blocked:
            return
        pos.play(rng.choice(moves))


@pytest.mark.parametrize("seed", range(12))
def test_step_search_matches_move_by_move_astar_s6_s9(seed: int) -> None:
    """The step search (turns folded into the card they reach, S9) finds exactly the
    shortest race the move-by-move A* proves, from deals and mid-race positions."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    rng = random.Random(seed)
    for player in (0, 1):
        pos = Position.deal(player, cards[player])
        for _ in range(2):
            exact = shortest_race(pos, 60_000)
            if exact.proven:
                count = race_moves(race_state(pos), 200_000)
                assert count.proven
                assert count.moves == exact.moves
            _walk(pos, rng, rng.randint(1, 5))


def test_step_search_bound_is_a_lower_bound() -> None:
    """Out of expansions, the search reports a bound never above the true count."""
    cards = deal_cards(seed=28, round_number=1, players=2, full_decks=False)
    state = race_state(Position.deal(0, cards[0]))
    exact = race_moves(state)
    cut = race_moves(state, node_limit=20)
    assert exact.proven
    assert exact.moves is not None
    assert not cut.proven
    assert cut.moves is None
    assert 6 <= cut.bound <= exact.moves


def test_cover_is_the_fewest_neighbouring_ranks_s6() -> None:
    """COVER[mask] equals a brute-force minimum over sets of ranks (S6, cyclic ranks)."""
    rng = random.Random(5)
    subsets = sorted(range(1 << 13), key=int.bit_count)
    for mask in [0, 1, 0b11, (1 << 13) - 1, *(rng.randrange(1 << 13) for _ in range(25))]:
        best = next(s.bit_count() for s in subsets if mask & ~_neighbours(s) == 0)
        assert COVER[mask] == best


def _neighbours(ranks: int) -> int:
    out = 0
    for r in range(13):
        if ranks >> r & 1:
            out |= FITS[r]
    return out


@pytest.mark.parametrize(
    ("seed", "depth", "blind"), [(2, 1, 0.5), (7, 1, 0.0), (11, 2, 0.5), (19, 2, 0.0), (23, 1, 1.0)]
)
def test_planner_decision_ignores_reshuffled_hidden_cards_s4_s5(
    seed: int, depth: int, blind: float
) -> None:
    """The planner sees one seat's information set: reshuffling the cards hidden from
    the owner (under the points-pile top, and the racing deck until the waste has
    been turned over) leaves its information and its decision unchanged, with or without
    the information-set tree (depth 2 splits the sampled worlds by the card a move shows)."""
    assert_blind_to_hidden_cards(PlannerBot(seed, iterations=6, depth=depth, blind=blind), seed)


def test_planner_keeps_a_points_placement_over_a_hopeful_turn() -> None:
    """Sampled worlds show every card, so turning looks cheap in each of them; with a
    points card placeable, the planner turns only when that saves a lot."""
    cards = deal_cards(seed=18, round_number=1, players=2, full_decks=False)
    pos = Position.deal(0, cards[0])
    tracker = SpyTracker(SeatWindow(pos))
    bot = PlannerBot(18, iterations=16)
    for _ in range(3):
        info = tracker.info(pos.legal)
        local = bot.choose(info) - pos.base
        assert local == greedy_local(pos)  # open points, place points, open points
        pos.play(local)
        tracker.moved(local)


def test_gap_interval_is_the_ratio_of_means() -> None:
    gap = gap_interval([9.0, 6.0, 12.0], [8.0, 6.0, 10.0])
    assert gap.mean == pytest.approx(27 / 24 - 1)
    assert gap.low < gap.mean < gap.high
    assert gap_interval([6.0, 6.0], [6.0, 6.0]).mean == 0.0


def test_deal_set_summary_compares_the_same_races() -> None:
    data = analyse_spy_deals(40, 3, 2, ["greedy"], {})
    assert data["races"] == 6
    compared = [r for r in data["rows"] if r["greedy"] is not None]
    assert data["compared"] == len(compared)
    oracle = data["summary"]["oracle"]["mean"]["value"]
    greedy = data["summary"]["greedy"]["mean"]["value"]
    assert greedy >= oracle  # nobody beats the shortest race
    assert data["summary"]["greedy"]["gap"]["value"] == pytest.approx(greedy / oracle - 1)


def test_information_set_tree_splits_worlds_by_the_rank_shown_s4_s5() -> None:
    """After a turn the sampled worlds fall into groups by the turned card's rank (S6:
    only ranks matter); each group chooses one move for all its worlds, so the turn's
    cost is 1 plus the size-weighted mean of the groups' best values — and never below
    what a player seeing each world's order would expect."""
    cards = deal_cards(seed=4, round_number=1, players=2, full_decks=False)
    pos = Position.deal(0, cards[0])
    info = SpyTracker(SeatWindow(pos)).info(pos.legal)
    rng = random.Random(4)
    worlds = [info.sample_world(rng) for _ in range(8)]
    tree = _Tree(node_limit=300, exact=1.0)
    groups: dict[int, list[Position]] = {}
    for world in worlds:
        child = world.copy()
        child.play(TURN)
        groups.setdefault(child.waste[-1] % 13, []).append(child)
    assert len(groups) > 1  # the worlds disagree about the turned card
    expected = seeing = 0.0
    for group in groups.values():
        moves = _distinct_moves(group[0])
        per_move = [sum(tree.move_cost([c], m, 0) for c in group) for m in moves]
        expected += len(group) + min(per_move)
        seeing += sum(1 + min(tree.move_cost([c], m, 0) for m in moves) for c in group)
    honest = tree.move_cost(worlds, TURN, depth=1)
    assert honest == pytest.approx(expected / len(worlds))
    assert honest >= seeing / len(worlds) - 1e-9


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_blind_race_is_an_upper_bound_on_the_exact_race_s9(seed: int) -> None:
    """The blind race (greedy while unseen deck cards remain, exact once the stock is
    known, S9) never takes fewer moves than the exact race, which sees the deck order;
    with no unseen card left in the deck the two agree."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    pos = Position.deal(0, cards[0])
    info = SpyTracker(SeatWindow(pos)).info(pos.legal)
    rng = random.Random(seed)
    tree = _Tree(node_limit=300, exact=1.0, blind=1.0)
    for _ in range(6):
        world = info.sample_world(rng)
        assert tree.blind_race(world) >= tree.exact_race(world)
        while world.deck:
            world.play(TURN)
        assert tree.blind_race(world) == tree.exact_race(world)


def test_planner_never_turns_forever_s12() -> None:
    """A seat whose remaining points card can no longer be reached (deal 14, seat 1)
    once made the planner turn until the 500-move limit: an unfinished search's lower
    bound kept "turn" looking hopeful. After two passes of the stock with nothing
    placed it now follows the greedy rule, which places what fits until the position
    blocks (S12 note: bots place or resign rather than turn forever)."""
    cards = deal_cards(seed=14, round_number=1, players=2, full_decks=False)
    race = solo_race(PlannerBot(seed=14, iterations=16), Position.deal(1, cards[1]))
    assert race.moves < 150
    assert race.called or race.blocked
