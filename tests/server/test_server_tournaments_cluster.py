"""Tournaments run by several server processes sharing PostgreSQL and Redis.

Three real ``cardtable serve --redis`` processes (server_cluster_launch.py: short
leases). Each simulated player (test_server_tournaments_e2e.py) keeps their tournament
page's socket and plays their tables through one process of their own, so most seats
are claimed through a process that does not own the table and most pages hear of the
tournament's changes from a director elsewhere; registrations and the organiser's start
arrive at other processes still. A Candidate Swiss plays to its end; another survives
a SIGKILL of its director's process mid-round: another process takes the tournament's
lease and finishes it. Either way the standings equal a recomputation from the stored
records, each round is paired once, and every player played every game of theirs.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import test_server_tournaments_e2e as e2e
from server_cluster import Node, fresh_database, services_missing
from server_helpers import wait_healthy
from sqlalchemy import Engine, create_engine, text
from test_server_tournaments_e2e import (
    Simulated,
    bearer,
    check_against_records,
    round_progress,
    sign_up,
    tournament,
)

from cardtable.server.storage import database_url

MISSING = services_missing()
pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    # Three server processes each: one after another on one test worker.
    pytest.mark.xdist_group("server_processes"),
]

PLAYERS = 6
SWISS = {
    "name": "Club Swiss",
    "game": "candidate",
    "format": "swiss",
    "rounds": 2,
    "options": {"deals": 1},
    "start_in": 3600,
    "checkin_seconds": 0,
    "forfeit_seconds": 3600,  # nobody forfeits: every game is played
}


class Home:
    """Where a player's page and tables are served: their own process while it lives,
    else another live one (what a load balancer does when a process dies)."""

    def __init__(self, nodes: list[Node], index: int) -> None:
        self.nodes = nodes
        self.index = index
        self.rng = random.Random(index)

    @property
    def base(self) -> str:
        own = self.nodes[self.index]
        if alive(own):
            return own.base
        return self.rng.choice([n.base for n in self.nodes if alive(n)])


#: A guard against a hang, never a measure: the runs take a fraction of it.
GUARD = 120.0


def wait_until(check: Callable[[], bool], what: str, why: Callable[[], Any] = str) -> None:
    """Wait for ``check`` (``why`` says what things look like should it time out)."""
    deadline = time.monotonic() + GUARD
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {why()}")
        time.sleep(0.1)


def looks(nodes: list[Node], tid: str, sims: list[Simulated]) -> Any:
    """The tournament's rounds and each player's tables, for a failure to show."""
    page = tournament(Home(nodes, 0), tid)  # type: ignore[arg-type]
    rounds = [
        (r["round"], [(t["table_id"], t["status"], t["seats"]) for t in r["tables"]])
        for r in page["rounds"]
    ]
    players = [(s.name, s.done.is_set(), sorted(s.played), s.seated, s.errors) for s in sims]
    return page["status"], rounds, players


def alive(node: Node) -> bool:
    return node.proc is not None and node.proc.poll() is None


@pytest.fixture(autouse=True)
def _guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulated players' own waits end within the guard too."""
    monkeypatch.setattr(e2e, "WAIT", GUARD)


@pytest.fixture
def nodes() -> Iterator[list[Node]]:
    with fresh_database() as db:
        prefix = f"t{uuid.uuid4().hex[:10]}:"
        first = Node(db, prefix, "n0-0").start()  # migrates the fresh database
        started = [first]
        try:
            started += [Node(db, prefix, f"n{i}-0").start(wait=False) for i in (1, 2)]
            for node in started[1:]:  # started side by side
                wait_healthy(node.base, proc=node.proc)
            yield started
        finally:
            for node in started:
                node.stop()
                print(node.log_tail())
                node.remove_logs()


def director(engine: Engine, tid: str) -> str | None:
    """The process holding the tournament's lease now (None: nobody)."""
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT owner, lease_until FROM tournaments WHERE id = :id"), {"id": tid}
        ).one()
    return str(row[0]) if row[0] is not None and row[1] > time.time() else None


def enter(nodes: list[Node]) -> tuple[str, str, dict[str, str]]:
    """Sign everyone up and register them, each through another process than the one
    that created the tournament; its id, the organiser's token, and each player's own
    session token for their page."""
    names = [f"tc{i}" for i in range(PLAYERS)]
    tokens = {n: sign_up(nodes[i % 3].base, n) for i, n in enumerate(names)}
    created = httpx.post(
        f"{nodes[0].base}/api/tournaments", json=SWISS, headers=bearer(tokens[names[0]]), timeout=30
    )
    assert created.status_code == 201, created.text
    tid = str(created.json()["id"])
    for i, name in enumerate(names):
        answer = httpx.post(
            f"{nodes[(i + 1) % 3].base}/api/tournaments/{tid}/register",
            headers=bearer(tokens[name]),
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["you"]["registered"] is True
    pages = {n: sign_up(nodes[i % 3].base, n, again=True) for i, n in enumerate(names)}
    return tid, tokens[names[0]], pages


def play(
    nodes: list[Node], tid: str, organiser: str, pages: dict[str, str], kill: bool
) -> tuple[list[Simulated], str, str]:
    """Play the tournament to its end (``kill``: SIGKILL its director's process once a
    game of round 1 has finished); the players, the first director and the last."""
    engine = create_engine(database_url(nodes[0].db))
    try:
        wait_until(lambda: director(engine, tid) is not None, "a director")
        first = director(engine, tid)
        assert first is not None
        sims = [
            Simulated(Home(nodes, i % 3), tid, name, token, race=False)  # type: ignore[arg-type]
            for i, (name, token) in enumerate(pages.items())
        ]
        for sim in sims:
            sim.start()
        try:
            # The organiser starts it through a process that is not the director's.
            other = next(n for n in nodes if n.name != first)
            started = httpx.post(
                f"{other.base}/api/tournaments/{tid}/start", headers=bearer(organiser), timeout=30
            )
            assert started.status_code == 200, started.text
            if kill:
                live = Home(nodes, 0)
                wait_until(
                    lambda: round_progress(live, tid, 1) >= 1,  # type: ignore[arg-type]
                    "a finished game in round 1",
                )
                victim = next(n for n in nodes if n.name == first)
                victim.kill()
                wait_until(lambda: director(engine, tid) not in (None, first), "another director")
            wait_until(
                lambda: all(s.done.is_set() for s in sims),
                "the end of the tournament",
                lambda: looks(nodes, tid, sims),
            )
        finally:
            for sim in sims:
                sim.done.set()
            for sim in sims:
                sim.join(timeout=30)
        assert not [e for s in sims for e in s.errors]
        with engine.connect() as connection:
            last = connection.execute(
                text("SELECT owner FROM tournaments WHERE id = :id"), {"id": tid}
            ).scalar_one()
        return sims, first, str(last)
    finally:
        engine.dispose()


def check(nodes: list[Node], tid: str, sims: list[Simulated]) -> dict[str, Any]:
    """Standings from the records; each round paired once, everyone at one table of it,
    and every table of theirs played by each of its players."""
    page = check_against_records(Home(nodes, 0), tid)  # type: ignore[arg-type]
    names = sorted(s.name for s in sims)
    assert [r["round"] for r in page["rounds"]] == [1, 2]
    for r in page["rounds"]:
        assert sorted(p for t in r["tables"] for p in t["seats"]) == names
        for table in r["tables"]:
            assert table["status"] == "finished"
            for name in table["seats"]:
                sim = next(s for s in sims if s.name == name)
                # Played to the end, or played (moves of theirs accepted) when the end's
                # update was lost with the process killed as the game finished; never
                # a table only a stand-in played for them.
                assert table["table_id"] in sim.played | sim.moved
    return page


def test_a_swiss_played_through_three_processes(nodes: list[Node]) -> None:
    tid, organiser, pages = enter(nodes)
    sims, first, last = play(nodes, tid, organiser, pages, kill=False)
    check(nodes, tid, sims)
    assert last == first  # one director throughout
    # Four of the six players' pages and tables were served by other processes than
    # the director's: their seats were claimed on the tables' owner through the cluster.
    assert sum(nodes[i % 3].name != first for i in range(PLAYERS)) == 4


def test_a_killed_directors_swiss_is_finished_by_another_process(nodes: list[Node]) -> None:
    tid, organiser, pages = enter(nodes)
    sims, first, last = play(nodes, tid, organiser, pages, kill=True)
    assert last != first
    check(nodes, tid, sims)
