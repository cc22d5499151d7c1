"""Every refusal of a record or a card text carries a message id of the catalog, and
the catalog's English rendering of it is the refusal's text: over records of both
games broken at random places, their JSON text cut short, and random card texts."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import Card, parse_cards
from cardtable.errors import BadRecord, CardParseError, IllegalMove
from cardtable.games.registry import find_game
from cardtable.messages import CATALOG, render
from cardtable.record import dump_record, load_record, replay

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: What a broken record may hold instead of a value.
JUNK: list[Any] = [
    None,
    True,
    0,
    -1,
    7,
    99,
    2.5,
    "",
    " ",
    "ZZ",
    "QS",
    "sq",
    "Q",
    "10HH",
    "С",
    "0 turn",
    "0 call",
    "play 2S 7S",
    "draw S",
    "pass",
    [],
    ["QS"],
    {},
    {"x": 1},
]


def check(exc: BadRecord | IllegalMove | CardParseError) -> None:
    """The refusal has a catalog id whose English rendering is its text; its
    parameters are JSON values; it reads in Ukrainian too."""
    assert exc.code in CATALOG, f"no message id: {exc}"
    assert render(exc.code, exc.params, "en") == exc.reason
    assert render(exc.code, exc.params, "uk")
    json.dumps(dict(exc.params))
    for value in exc.params.values():
        assert isinstance(value, str | int)
        assert not isinstance(value, bool)


def played_record(game: str, seed: int, moves: int) -> dict[str, Any]:
    """A record of a match of ``game`` after ``moves`` random legal moves."""
    players = ["Ann", "Bob", "Cyd"][: 3 if game == "spy" and seed % 2 else 2]
    options = {"rounds": 2} if game == "spy" else {"deals": 2}
    match = find_game(game).new_match(seed=seed, players=players, options=options)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_terminal():
            break
        seats = [s for s in range(match.seats) if match.legal_moves(s)]
        seat = rng.choice(seats)
        match.apply(seat, rng.choice(match.legal_moves(seat)))
    return match.record()


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every value inside a JSON value."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += nodes(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += nodes(item, (*path, i))
    return out


def mutate(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` with one random change: a value replaced, a key dropped or added, a
    list item dropped, doubled or swapped with another."""
    broken = copy.deepcopy(record)
    path = rng.choice(nodes(broken)[1:])
    parent = broken
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = rng.randrange(5)
    if how == 0 or not isinstance(parent, dict | list):
        parent[last] = rng.choice(JUNK)
    elif how == 1:
        del parent[last]
    elif how == 2 and isinstance(parent, dict):
        parent[rng.choice(["extra", "Game", "dealer", "moves"])] = rng.choice(JUNK)
    elif how == 2:
        parent.insert(last, copy.deepcopy(parent[last]))
    elif isinstance(parent, list) and len(parent) > 1:
        other = rng.randrange(len(parent))
        parent[last], parent[other] = parent[other], parent[last]
    else:
        parent[last] = rng.choice(JUNK)
    return broken


@SETTINGS
@given(
    st.sampled_from(["spy", "candidate"]),
    st.integers(0, 10**6),
    st.integers(0, 80),
    st.integers(0, 10**6),
)
def test_every_refusal_of_a_broken_record_has_a_message_id(
    game: str, seed: int, moves: int, breaker: int
) -> None:
    record = played_record(game, seed, moves)
    rng = random.Random(breaker)
    broken = mutate(record, rng)
    if rng.random() < 0.3:
        broken = mutate(broken, rng)
    try:
        replay(broken)
    except (BadRecord, IllegalMove) as exc:
        check(exc)


@SETTINGS
@given(st.sampled_from(["spy", "candidate"]), st.integers(0, 10**6), st.integers(0, 4000))
def test_every_refusal_of_record_text_has_a_message_id(game: str, seed: int, cut: int) -> None:
    text = dump_record(played_record(game, seed, 10))
    try:
        replay(load_record(text[:cut]))
    except (BadRecord, IllegalMove) as exc:
        check(exc)


def test_refusals_of_record_shapes_each_have_their_id() -> None:
    """One broken record per sort of fault, with the id it must carry."""
    spy = played_record("spy", 1, 20)
    cases: list[tuple[Any, str]] = [
        ("[1, 2]", "record.top_not_object"),
        ('{"game": ', "record.bad_json"),
        ("", "record.empty"),  # an empty file, or nothing on standard input
        (" \n\t", "record.empty"),
        ({"players": []}, "record.game_missing"),
        ({"game": "chess"}, "record.game_unknown"),
        ({**spy, "players": ["Ann"]}, "record.players_range"),
        ({**spy, "players": ["Ann", " "]}, "record.player_empty"),
        ({**spy, "options": {"rounds": 0}}, "value.int_range"),
        ({**spy, "options": {"rounds": "2"}}, "option.not_integer"),
        ({**spy, "options": {"speed": 2}}, "spy.option_unknown"),
        ({**spy, "rounds": {}}, "value.not_list"),
        ({**spy, "extra": 1}, "record.field_unknown"),
        ({**spy, "game": "candidate"}, "record.field_missing"),
    ]
    for value, code in cases:
        with pytest.raises((BadRecord, IllegalMove)) as caught:
            replay(load_record(value) if isinstance(value, str) else value)
        check(caught.value)
        assert caught.value.code == code, (value, caught.value)


TEXTS = st.text(alphabet="0123456789TJQKAВДКТSHDCshdcС♠♥♦♣♤ ,xX\ufe0f\t", max_size=8)


@settings(max_examples=500, deadline=None)
@given(TEXTS)
def test_every_refusal_of_a_card_text_has_a_message_id(text: str) -> None:
    for parse in (Card.parse, parse_cards):
        try:
            parse(text)
        except CardParseError as exc:
            check(exc)
