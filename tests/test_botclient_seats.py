"""``cardtable connect`` rebuilds a seat's information set from the seat's own messages:
for Candidate a full state whose information-state key equals the true one's (the seat
cannot tell them apart), for Spy the same :class:`SpyInfo` the server's bots get."""

from __future__ import annotations

import random

import pytest

from cardtable.botclient.candidate_seat import Seen, rebuild
from cardtable.botclient.players import read_roster
from cardtable.botclient.spy_seat import SpySeat
from cardtable.errors import BadOptions
from cardtable.games.candidate.actions import action_to_text
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.state import CandidateState
from cardtable.games.registry import find_game


@pytest.mark.parametrize(("seed", "decks"), [(1, 1), (2, 1), (3, 2), (4, 1)])
def test_candidate_rebuilt_state_is_indistinguishable_to_the_seat(seed: int, decks: int) -> None:
    options = CandidateOptions(decks=decks, deals=2)
    true = CandidateState.new(seed, options)
    first = true.current_player
    rng = random.Random(seed)
    seen: dict[int, list[Seen]] = {0: [], 1: []}
    checked = 0
    while not true.is_terminal():
        player = true.current_player
        for seat in (0, 1):
            if seat != player:
                continue
            world = rebuild(options, seat, first, seen[seat], rng)
            assert world.information_state_string(seat) == true.information_state_string(seat)
            assert world.legal_actions() == true.legal_actions()
            checked += 1
        action = rng.choice(true.legal_actions())
        text = action_to_text(action)
        events = true.apply(action)
        for seat in (0, 1):
            mine = tuple(e.seen_by(seat).to_dict() for e in events)
            seen[seat].append(Seen(player, text, mine))
    assert checked > 20


def test_spy_seat_gives_the_servers_info() -> None:
    game = find_game("spy")
    match = game.new_match(seed=7, players=["a", "b"], options={})
    seat = SpySeat(0)
    rng = random.Random(7)
    version = 0
    state = {"view": match.view(0), "legal_moves": match.legal_moves(0)}
    seat.observe({"type": "welcome", "state": {**state, "version": version}})
    for _ in range(200):
        if match.is_terminal():
            break
        legal = match.legal_moves(0)
        if not legal:
            break
        move = rng.choice(legal)
        match.apply(0, move)
        version += 1
        seat.observe(
            {
                "type": "update",
                "event": {"type": "move", "seat": 0, "move": move},
                "state": {
                    "view": match.view(0),
                    "legal_moves": match.legal_moves(0),
                    "version": version,
                },
            }
        )
        if match.view(0)["round"] != seat.round:
            break
        assert seat.info() == match.bot_info(0)


def test_roster_reads_specs_per_game() -> None:
    roster = read_roster(["candidate=ismcts:50", "greedy"])
    assert roster.games == ["candidate", "spy"]
    assert roster.labels == {"candidate": "ismcts:50", "spy": "greedy"}  # named game first
    only = read_roster(["ismcts:50"])
    assert only.games == ["candidate"]
    with pytest.raises(BadOptions):
        read_roster(["minimax"])
    with pytest.raises(BadOptions):
        read_roster(["nosuchmodule_xyz:Bot"])
