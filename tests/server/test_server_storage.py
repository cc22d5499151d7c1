"""Storage on SQLite and PostgreSQL: migrations, moves, resuming, records, ratings."""

from __future__ import annotations

from concurrent.futures import Future

import pytest
from server_fakegame import FakeGame, state_hash
from sqlalchemy import inspect

from cardtable.server import account_store
from cardtable.server.ratings import DEFAULT_MU
from cardtable.server.storage import Storage
from cardtable.table import Status, Table, TimeControl


def seated_table(
    table_id: str = "t1",
    names: tuple[str, str] = ("Ann", "Bob"),
    accounts: tuple[str | None, str | None] = (None, None),
) -> Table:
    table = Table.create(
        table_id=table_id,
        game=FakeGame(),
        options={"hand": 2},
        seed=5,
        bot_levels=[None, None],
        invites=["a" * 12, "b" * 12],
        time_control=TimeControl(60_000, 1_000),
    )
    table.join("a" * 12, names[0], "token-" + names[0] * 4, now=0.0, account=accounts[0])
    table.join("b" * 12, names[1], "token-" + names[1] * 4, now=0.0, account=accounts[1])
    return table


def play_one(storage: Storage, table: Table, move_id: str) -> None:
    seat = table.match.to_move() if table.match else None
    assert isinstance(seat, int)
    answer = table.submit(
        seat, table.legal_moves(seat)[-1], version=table.version, move_id=move_id, now=1.0
    )
    assert answer.entry is not None
    storage.write(Storage.append_move(table, answer.entry)).result(timeout=10)


def test_migrations_create_the_schema_and_rerun_harmlessly(db_url: str) -> None:
    storage = Storage(db_url)
    storage.close()
    storage = Storage(db_url)  # a second start finds the schema up to date
    try:
        names = set(inspect(storage.engine).get_table_names())
        assert {
            "tables",
            "moves",
            "accounts",
            "sessions",
            "player_ratings",
            "rating_history",
            "alembic_version",
        } <= names
        assert "ratings" not in names  # the per-name ratings are dropped
    finally:
        storage.close()


def test_unfinished_tables_are_resumed_by_replaying_their_moves(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        table = seated_table()
        storage.write(Storage.insert_table(table)).result(timeout=10)
        play_one(storage, table, "m1")
        play_one(storage, table, "m2")
        (stored,) = storage.read(Storage.load_unfinished)
        assert [m.move_id for m in stored.moves] == ["m1", "m2"]
        copy = stored.restore(FakeGame(), 2.0)
        assert copy.match is not None
        assert table.match is not None
        assert state_hash(copy.match) == state_hash(table.match)
        assert copy.clocks_ms == table.clocks_ms
        assert copy.seat_of_token("token-" + "Ann" * 4) == 0
    finally:
        storage.close()


def register(storage: Storage, name: str) -> str:
    """An account called ``name`` (any password hash): its id."""
    account = storage.write(account_store.create_account(name, "hash")).result(timeout=10)
    return account.id


def test_finished_game_keeps_its_record_and_updates_ratings(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        ann, bob = register(storage, "Ann"), register(storage, "Bob")
        table = seated_table(accounts=(ann, bob))
        storage.write(Storage.insert_table(table)).result(timeout=10)
        for i in range(4):
            play_one(storage, table, f"m{i}")
        assert table.status is Status.FINISHED
        assert storage.read(Storage.load_unfinished) == []
        row = storage.read(lambda s: Storage.finished_table(s, "t1"))
        assert row is not None
        assert row["record"] is not None
        assert row["record"]["moves"] == [m.move for m in table.moves]
        board = storage.read(lambda s: Storage.leaderboard(s, "fake", 10))
        assert {e["name"] for e in board} == {"Ann", "Bob"}
        assert all(e["games"] == 1 for e in board)
        winner = table.match.result().winners if table.match else ()
        top = board[0]["name"]
        if len(winner) == 1:
            assert top == ("Ann", "Bob")[winner[0]]
            assert board[0]["mu"] > DEFAULT_MU > board[1]["mu"]
        profile = storage.read(lambda s: account_store.profile(s, "ann"))
        assert profile is not None
        (candidate,) = profile["ratings"]
        assert candidate["games"] == 1
        assert [p["table"] for p in candidate["history"]] == ["t1"]
        assert profile["finished"][0]["table"] == "t1"
        # Deleting Ann takes her rating and history, never the game's record.
        storage.write(account_store.delete_account(ann)).result(timeout=10)
        assert storage.read(lambda s: account_store.profile(s, "Ann")) is None
        board = storage.read(lambda s: Storage.leaderboard(s, "fake", 10))
        assert [e["name"] for e in board] == ["Bob"]
        assert storage.read(lambda s: Storage.finished_table(s, "t1"))["record"] is not None
    finally:
        storage.close()


def test_ratings_change_only_for_the_accounts_that_played(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        ann, _bob, cid = (register(storage, n) for n in ("Ann", "Bob", "Cid"))
        # Ann (an account) against a guest who calls himself "Bob": only Ann is rated,
        # and the account Bob is untouched; Cid did not play at all.
        table = seated_table(accounts=(ann, None))
        storage.write(Storage.insert_table(table)).result(timeout=10)
        for i in range(4):
            play_one(storage, table, f"m{i}")
        assert table.status is Status.FINISHED
        board = storage.read(lambda s: Storage.leaderboard(s, "fake", 10))
        assert [e["name"] for e in board] == []  # one rated player: nothing to compare
        table = seated_table("t2", ("Ann", "Cid"), accounts=(ann, cid))
        storage.write(Storage.insert_table(table)).result(timeout=10)
        for i in range(4):
            play_one(storage, table, f"n{i}")
        board = storage.read(lambda s: Storage.leaderboard(s, "fake", 10))
        assert sorted(e["name"] for e in board) == ["Ann", "Cid"]
        bob_profile = storage.read(lambda s: account_store.profile(s, "Bob"))
        assert bob_profile is not None
        assert bob_profile["ratings"] == []
        assert bob_profile["finished"] == []
    finally:
        storage.close()


def test_a_failing_write_fails_alone(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        first = seated_table("t1")
        storage.write(Storage.insert_table(first)).result(timeout=10)
        duplicate = storage.write(Storage.insert_table(first))  # same primary key
        second = storage.write(Storage.insert_table(seated_table("t2")))
        with pytest.raises(Exception):  # noqa: B017, PT011 - the database's own error
            duplicate.result(timeout=10)
        assert second.result(timeout=10) is None
        assert storage.read(lambda s: Storage.load(s, "t2")) is not None
    finally:
        storage.close()


def test_a_write_whose_waiter_gave_up_is_committed_and_the_writer_goes_on(db_url: str) -> None:
    """A waiter that stopped waiting (its future cancelled, as at shutdown) must not
    stop the writer thread: the write is committed and later writes still resolve."""
    storage = Storage(db_url)
    try:
        first = seated_table("t-gave-up")
        gone: Future[None] = Future()
        gone.cancel()
        storage._run_batch([(Storage.insert_table(first), gone)])  # the writer's own step
        second = seated_table("t-after")
        storage.write(Storage.insert_table(second)).result(timeout=10)
        loaded = storage.read(lambda s: Storage.load(s, "t-gave-up"))
        assert loaded is not None
    finally:
        storage.close()
