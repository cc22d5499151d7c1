"""Agreement with the reference bot: high for the bot itself, low for random moves,
only the person's own decisions, and blind to every card hidden from the seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.fairplay import REFERENCES, StoredMove, seat_agreement
from cardtable.fairplay.agreement import REFERENCE_SEED, choices
from cardtable.games.candidate.records import parse_record
from cardtable.games.candidate.state import CandidateState
from cardtable.games.registry import find_game

#: A small Candidate reference, so the tests stay fast; the default is checked once.
SMALL = "ismcts:40"


def play(game: str, seat_bots: list[str], seed: int, *, stop: int | None = None) -> Any:
    """A one-deal (one-round) match: seat s played by ``seat_bots[s]`` (``"random"``:
    uniformly among the choices; in Spy ``"resign"``: out of the round at once, so the
    other seat races alone), bots seeded as the analysis seeds its reference; stopped
    after ``stop`` moves when given."""
    options = {"rounds": 1} if game == "spy" else {"deals": 1}
    match = find_game(game).new_match(seed=seed, players=["A", "B"], options=options)
    bots = [
        None if b in ("random", "resign") else make_bot(parse_bot_spec(game, b), REFERENCE_SEED)
        for b in seat_bots
    ]
    for seat, name in enumerate(seat_bots):
        if name == "resign":
            match.apply(seat, "resign")
    rng = random.Random(seed)
    made = 0
    while not match.is_terminal() and (stop is None or made < stop):
        seats = [s for s in range(match.seats) if match.legal_actions(s)]
        seat = match.to_move() if game == "candidate" else rng.choice(seats)
        info = match.bot_info(seat)
        bot = bots[seat]
        if bot is None:
            action = rng.choice(choices(game, info.legal) or list(info.legal))
        else:
            action = bot.choose(info)
        match.apply(seat, action)
        made += 1
    return match


def test_a_candidate_record_played_by_the_reference_agrees_fully() -> None:
    match = play("candidate", [REFERENCES["candidate"], "random"], seed=3)
    bot = seat_agreement(match.record(), 0)
    assert bot.reference == "ismcts:300"
    assert bot.decisions >= 8
    assert bot.rate == 1.0
    person = seat_agreement(match.record(), 1)
    assert person.decisions >= 8
    assert person.rate is not None
    assert person.rate < 0.6


def test_candidate_counts_plays_and_passes_not_piles() -> None:
    match = play("candidate", [SMALL, SMALL], seed=4)
    checks = seat_agreement(match.record(), 0, reference=SMALL).checks
    assert checks
    assert all(c.played.split()[0] in ("play", "pass") for c in checks)


def test_a_spy_record_played_by_the_reference_agrees_fully() -> None:
    bot = seat_agreement(play("spy", [REFERENCES["spy"], "resign"], seed=8).record(), 0)
    assert bot.reference == "model"
    assert bot.decisions >= 5
    assert bot.rate == 1.0
    person = seat_agreement(play("spy", ["resign", "random"], seed=8).record(), 1)
    assert person.decisions >= 5
    assert person.rate is not None
    assert person.rate < 0.6


def test_only_the_persons_own_decisions_count() -> None:
    match = play("candidate", [SMALL, "greedy"], seed=5)
    record = match.record()
    seats = _candidate_movers(record)
    all_player = [StoredMove(s, m) for s, m in seats]
    full = seat_agreement(record, 0, all_player, reference=SMALL)
    assert full.checks == seat_agreement(record, 0, reference=SMALL).checks
    half = len(seats) // 2
    stood_in = [
        StoredMove(s, m, "substitute" if i < half else "player") for i, (s, m) in enumerate(seats)
    ]
    later = seat_agreement(record, 0, stood_in, reference=SMALL)
    assert 0 < later.decisions < full.decisions
    assert later.checks == tuple(c for c in full.checks if c.number > half)


def _candidate_movers(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Who made each move of a one-deal record, and its text."""
    parsed = parse_record(record)
    deal = parsed.deals[0]
    state = CandidateState.from_piles(deal.piles, deal.dealer, parsed.options)
    out = []
    for text in deal.moves:
        out.append((state.current_player, text))
        state.apply(text)
    return out


def test_stored_moves_of_another_seat_are_refused() -> None:
    match = play("candidate", [SMALL, "greedy"], seed=6)
    record = match.record()
    wrong = [StoredMove(1 - s, m) for s, m in _candidate_movers(record)]
    with pytest.raises(ValueError, match="seat"):
        seat_agreement(record, 0, wrong, reference=SMALL)
    with pytest.raises(ValueError, match="no seat 2"):
        seat_agreement(record, 2, reference=SMALL)


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("seat", [0, 1])
def test_candidate_agreement_never_depends_on_hidden_cards(seed: int, seat: int) -> None:
    """Stopped mid-deal, the cards hidden from the seat (the other hand, the piles'
    order) dealt anew consistently with all it saw: the same answers at every
    decision, though the record differs."""
    match = play("candidate", ["greedy", "random"], seed=seed, stop=30 + seed)
    record = match.record()
    other = match.state.resample_hidden(seat, random.Random(seed)).to_record(list(match.players))
    assert other["deals"][0]["moves"] == record["deals"][0]["moves"]
    assert other != record
    before = seat_agreement(record, seat, reference=SMALL)
    assert before.decisions >= 2
    assert seat_agreement(other, seat, reference=SMALL).checks == before.checks


def _spy_reshuffled(record: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The record with the seat's cards nobody saw mixed: the points cards still under
    the top (S4) among themselves, and the racing deck never turned (S5)."""
    cards = list(record["rounds"][0]["cards"][seat])
    base = str(seat) + " "
    moves = [m[len(base) :] for m in record["rounds"][0]["moves"] if m.startswith(base)]
    placed = sum(m.startswith("place points") or m == "open points" for m in moves)
    turns = moves.count("turn")
    for start, end in ((placed + 1, 5), (9 + turns, len(cards))):
        hidden = cards[start:end]
        rng.shuffle(hidden)
        cards[start:end] = hidden
    other = {**record, "rounds": [dict(record["rounds"][0])]}
    other["rounds"][0]["cards"] = [list(c) for c in record["rounds"][0]["cards"]]
    other["rounds"][0]["cards"][seat] = cards
    return other


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_spy_agreement_never_depends_on_hidden_cards(seed: int) -> None:
    match = play("spy", ["greedy", "random"], seed=seed)
    record = match.record()
    for seat in (0, 1):
        other = _spy_reshuffled(record, seat, random.Random(seed))
        before = seat_agreement(record, seat)
        assert seat_agreement(other, seat).checks == before.checks
    assert any(_spy_reshuffled(record, s, random.Random(seed)) != record for s in (0, 1))
