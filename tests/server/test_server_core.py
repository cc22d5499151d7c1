"""The table protocol without I/O: messages in, effects and typed messages out.

No server, no socket, no clock: a :class:`TableCore` over a table of the fake game (or
of Spy, for the pause), fed with protocol messages and a ``now``.
"""

from __future__ import annotations

import json

import pytest
from server_fakegame import FakeGame

from cardtable.games.registry import find_game
from cardtable.server.core import (
    Away,
    Back,
    Broadcast,
    Effect,
    Peer,
    Send,
    Store,
    TableCore,
    read,
)
from cardtable.server.protocol import (
    CLIENT_MESSAGE,
    SERVER_MESSAGE,
    Ack,
    ClientMessage,
    Error,
    Resync,
    ServerMessage,
    Welcome,
)
from cardtable.table import Pacing, Source, Table

TOKENS = ("token-ann-1", "token-bob-1")


def seated(game: FakeGame | None = None, **options: object) -> TableCore:
    table = Table.create(
        table_id="t1",
        game=game or FakeGame(),
        options=options or {"hand": 3},
        seed=11,
        bot_levels=[None, None],
        invites=["inv-a", "inv-b"],
        pacing=Pacing(segment_pause=10.0, start_count=0.0),
    )
    table.join("inv-a", "Ann", TOKENS[0], now=0.0)
    table.join("inv-b", "Bob", TOKENS[1], now=0.0)
    return TableCore(table)


def two_people_at(game: str, table_id: str, options: dict[str, object], seed: int) -> TableCore:
    """Ann and Bob seated at a table of ``game`` that pauses 10 s between deals or rounds."""
    table = Table.create(
        table_id=table_id,
        game=find_game(game),
        options=options,
        seed=seed,
        bot_levels=[None, None],
        invites=["inv-a", "inv-b"],
        pacing=Pacing(segment_pause=10.0, start_count=0.0),
    )
    table.join("inv-a", "Ann", TOKENS[0], now=0.0)
    table.join("inv-b", "Bob", TOKENS[1], now=0.0)
    return TableCore(table)


def two_people_at_spy(table_id: str) -> TableCore:
    """Ann and Bob seated at a two-round Spy race that pauses 10 s between rounds."""
    return two_people_at("spy", table_id, {"rounds": 2}, seed=4)


def message(data: dict[str, object]) -> ClientMessage:
    return CLIENT_MESSAGE.validate_python(data)


def sent(effects: list[Effect]) -> list[ServerMessage]:
    """The messages to the sender, each checked against the protocol's models."""
    out = [e.message for e in effects if isinstance(e, Send)]
    for m in out:
        SERVER_MESSAGE.validate_json(m.model_dump_json())
    return out


def hello(core: TableCore, seat: int, now: float = 0.0) -> Peer:
    peer = Peer()
    core.receive(peer, message({"type": "hello", "token": TOKENS[seat]}), now)
    return peer


def test_hello_marks_the_seat_present_stores_it_then_welcomes() -> None:
    core = seated()
    peer = Peer()
    effects = core.receive(peer, message({"type": "hello", "token": TOKENS[0]}), 1.0)
    classes = [type(e) for e in effects]
    assert classes == [Back, Store, Broadcast, Send]
    broadcast = effects[2]
    assert isinstance(broadcast, Broadcast)
    assert broadcast.event.type == "seat"
    assert broadcast.skip is peer  # the newcomer hears its welcome, not the update
    (welcome,) = sent(effects)
    assert isinstance(welcome, Welcome)
    assert welcome.seat == 0
    assert welcome.state.seats[0].connected
    assert welcome.state.view is not None
    assert welcome.state.view["hand"] == core.table.snapshot(0, 1.0)["view"]["hand"]
    assert peer.greeted
    assert peer.seat == 0


def test_messages_before_hello_and_wrong_tokens_are_refused() -> None:
    core = seated()
    peer = Peer()
    (refused,) = sent(core.receive(peer, message({"type": "sync"}), 0.0))
    assert isinstance(refused, Error)
    assert (refused.code, refused.message_id) == ("no_hello", "server.no_hello")
    (bad,) = sent(core.receive(peer, message({"type": "hello", "token": "x" * 12}), 0.0))
    assert isinstance(bad, Error)
    assert bad.code == "bad_token"
    ann = hello(core, 0)
    move = {"type": "move", "token": TOKENS[1], "version": 3, "move_id": "m", "move": "play 2S"}
    (wrong,) = sent(core.receive(ann, message(move), 0.0))
    assert isinstance(wrong, Error)
    assert (wrong.code, wrong.move_id) == ("bad_token", "m")
    assert core.table.moves == []


def test_an_accepted_move_is_stored_before_it_is_broadcast_and_acknowledged() -> None:
    core = seated()
    ann = hello(core, 0)
    move = core.table.legal_moves(0)[0]
    version = core.table.version
    data = {"type": "move", "token": TOKENS[0], "version": version, "move_id": "a", "move": move}
    effects = core.receive(ann, message(data), 2.0)
    assert [type(e) for e in effects] == [Store, Broadcast, Send]
    store = effects[0]
    assert isinstance(store, Store)
    assert store.entry is not None
    assert store.entry.move == move
    (ack,) = sent(effects)
    assert isinstance(ack, Ack)
    assert ack.move_version == version + 1
    # The same move id again: the same answer, nothing stored or broadcast twice.
    again = core.receive(ann, message(data), 3.0)
    assert [type(e) for e in again] == [Send]
    assert len(core.table.moves) == 1


def test_refusals_carry_code_english_message_message_id_and_params() -> None:
    core = seated()
    ann = hello(core, 0)
    version = core.table.version
    data = {"type": "move", "token": TOKENS[0], "version": version + 5, "move_id": "v"}
    (ahead,) = sent(core.receive(ann, message({**data, "move": "play 2S"}), 0.0))
    assert isinstance(ahead, Error)
    assert ahead.code == "bad_version"
    assert ahead.message_id == "table.bad_version"
    assert ahead.params == {"version": version + 5, "table": version}
    assert str(version + 5) in ahead.message
    (illegal,) = sent(
        core.receive(ann, message({**data, "version": version, "move_id": "i", "move": "x"}), 0)
    )
    assert isinstance(illegal, Error)
    assert illegal.code == "illegal"
    assert illegal.message_id
    assert "expected 'play CARD'" in illegal.message


def test_a_stale_move_is_answered_with_the_state_and_the_reasons_message_id() -> None:
    core = seated()
    ann, bob = hello(core, 0), hello(core, 1)
    old = core.table.version
    first = core.table.legal_moves(0)[0]
    move = {"type": "move", "token": TOKENS[0], "version": old, "move_id": "a", "move": first}
    core.receive(ann, message(move), 1.0)
    late = {
        "type": "move",
        "token": TOKENS[1],
        "version": old,
        "move_id": "b",
        "move": core.table.legal_moves(1)[0],
    }
    (resync,) = sent(core.receive(bob, message(late), 1.5))
    assert isinstance(resync, Resync)
    assert resync.move_id == "b"
    assert resync.message_id == "table.stale"
    assert resync.params == {"version": old, "changed": old + 1}
    assert resync.state.version == old + 1


def test_leaving_starts_the_grace_period_and_a_stand_in_takes_the_seat() -> None:
    core = seated()
    ann = hello(core, 0)
    second = hello(core, 0)  # a second tab of the same seat
    assert core.leave(second) == []  # one connection remains: nothing changes
    effects = core.leave(ann)
    assert [type(e) for e in effects] == [Store, Broadcast, Away]
    assert not core.table.seats[0].connected
    handed = core.substitute(0, now=5.0)
    assert [type(e) for e in handed] == [Store, Broadcast]
    assert core.table.seats[0].substituted
    back = hello(core, 0, now=6.0)
    assert back.seat == 0
    assert not core.table.seats[0].substituted


def test_ready_ends_the_pause_between_spy_rounds_once_every_person_is_ready() -> None:
    core = two_people_at_spy("s1")
    table = core.table
    ann, bob = hello(core, 0), hello(core, 1)
    ready = {"type": "ready", "token": TOKENS[0]}
    (early,) = sent(core.receive(ann, message(ready), 0.5))
    assert isinstance(early, Error)
    assert early.code == "not_paused"
    for peer, seat in ((ann, 0), (bob, 1)):
        move = {"type": "move", "token": TOKENS[seat], "version": table.version}
        core.receive(peer, message({**move, "move_id": f"r{seat}", "move": "resign"}), 1.0)
    assert table.paused_until == pytest.approx(11.0)
    state = core.state(0, 2.0)
    assert state.pause is not None
    assert (state.pause.seconds, state.pause.ready) == (9.0, [])
    assert state.legal_moves == []
    move = {"type": "move", "token": TOKENS[0], "version": table.version, "move_id": "t"}
    (paused,) = sent(core.receive(ann, message({**move, "move": "turn"}), 2.0))
    assert isinstance(paused, Error)
    assert (paused.code, paused.message_id) == ("paused", "table.paused_round")
    assert paused.params == {"seconds": 9}
    first = core.receive(ann, message(ready), 3.0)
    assert [type(e) for e in first] == [Broadcast]
    assert core.update(first[0].event, 1, 3.0).state.pause.ready == [0]  # type: ignore[union-attr]
    last = core.receive(bob, message({"type": "ready", "token": TOKENS[1]}), 3.5)
    assert [type(e) for e in last] == [Store, Broadcast]
    resumed = core.update(last[1].event, 0, 3.5)  # type: ignore[union-attr]
    assert resumed.event.type == "resume"
    assert resumed.state.pause is None
    assert resumed.state.legal_moves
    assert core.tick(30.0) == []  # nothing left to end


def test_the_pause_ends_by_itself_when_its_time_is_up() -> None:
    core = two_people_at_spy("s2")
    table = core.table
    for seat in (0, 1):
        answer, _effects = core.submit(
            seat, "resign", version=None, move_id=None, source=Source.PLAYER, now=1.0
        )
        assert answer.outcome == "accepted"
    assert table.next_wakeup() == pytest.approx(11.0)
    assert core.tick(10.9) == []
    effects = core.tick(11.0)
    assert [type(e) for e in effects] == [Store, Broadcast]
    assert table.paused_until is None


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (None, "bad_message"),
        (b"\x00", "bad_message"),
        ("not json", "bad_message"),
        ('{"type": "launch"}', "bad_message"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ],
)
def test_read_refuses_what_is_not_a_protocol_message(raw: str | bytes | None, code: str) -> None:
    refused = read(raw, version=7)
    assert isinstance(refused, Error)
    assert refused.code == code
    assert refused.version == 7
    assert refused.message_id == f"server.{code}"
    assert refused.message


def test_a_welcomes_history_carries_each_moves_race_time_and_public_events() -> None:
    """A reloaded page rebuilds the same move list: in a race each move keeps the
    seconds its round's race had run, and what it showed (Spy events are public, S9)."""
    core = two_people_at_spy("h1")
    ann = hello(core, 0)
    answer, effects = core.submit(
        0, "turn", version=None, move_id="t", source=Source.PLAYER, now=3.25
    )
    assert answer.outcome == "accepted"
    (broadcast,) = [e for e in effects if isinstance(e, Broadcast)]
    assert broadcast.event.time == 3.2  # the race started at 0.0 (no start count here)
    welcome = sent(core.receive(Peer(), message({"type": "hello", "token": TOKENS[1]}), 4.0))[0]
    assert isinstance(welcome, Welcome)
    (past,) = welcome.history
    assert (past.seat, past.move, past.time) == (0, "0 turn", 3.2)
    (turned,) = [e for e in past.events if e["type"] == "turn"]
    assert turned["card"] == core.table.snapshot(0, 4.0)["view"]["seats"][0]["waste_top"]
    assert ann.seat == 0


def test_a_welcomes_history_shows_a_drawn_card_only_to_its_drawer() -> None:
    """History events pass the engine's ``seen_by``, like updates: a card drawn in
    Candidate is named to its drawer and hidden from the other seat and spectators."""
    core = two_people_at("candidate", "h2", {}, seed=5)
    table = core.table
    drawn = None
    for step in range(400):
        seat = table.match.to_move() if table.match else None
        assert isinstance(seat, int)
        moves = table.legal_moves(seat)
        move = next((m for m in moves if m.startswith("draw")), moves[-1])
        core.submit(seat, move, version=None, move_id=f"m{step}", source=Source.PLAYER, now=1.0)
        if move.startswith("draw"):
            drawn = (seat, len(table.moves) - 1)
            break
    assert drawn is not None
    drawer, index = drawn
    for viewer, sees in ((drawer, True), (1 - drawer, False), (None, False)):
        events = core.history(viewer)[index].events
        (drew,) = [e for e in events if e["type"] == "drew"]
        assert bool(drew.get("cards")) is sees
        assert core.history(viewer)[index].time is None  # a turn-based game has no race
