"""Tournaments end to end through a real server process over real WebSockets.

Simulated players (signed-in accounts, one thread each) keep the tournament's socket
open, go to their table when it says ``seated``, play legal moves from their seat's view
and come back. The Candidate Swiss survives a SIGKILL of the server mid-round. At the
end the final standings must equal an independent recomputation from the stored
records: each table's record replayed by the engine, its totals compared, and the
standings recomputed from them. A duplicate Swiss deals every table of a round the
same cards for the same seat, checked from the records.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerProcess
from test_server_games import spy_choice
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from cardtable.record import replay
from cardtable.tournament import GameResult, Player, RoundPlan, TournamentSpec
from cardtable.tournament.standings import standings

pytestmark = pytest.mark.xdist_group("tournaments_e2e")

#: Generous: a busy two-core machine may be slow, but nothing here waits on a guess.
WAIT = 600.0
HEADERS = {"X-Cardtable-Client": "1"}


def sign_up(base: str, name: str, *, again: bool = False) -> str:
    """Register an account (``again``: log in to it); its bearer session token."""
    answer = httpx.post(
        f"{base}/api/account/{'login' if again else 'register'}",
        json={"name": name, "password": "a long password", "bearer": True},
        headers=HEADERS,
        timeout=30,
    )
    assert answer.status_code == (200 if again else 201), answer.text
    return str(answer.json()["token"])


def sign_in(server: ServerProcess, name: str) -> str:
    """A second session of an account (each player's own, apart from registering)."""
    return sign_up(server.base, name, again=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Simulated(threading.Thread):
    """One player: listens on the tournament socket, plays each table it is sent to."""

    def __init__(self, server: ServerProcess, tid: str, name: str, token: str, race: bool) -> None:
        super().__init__(daemon=True, name=f"player-{name}")
        self.server, self.tid, self.name, self.token, self.race = server, tid, name, token, race
        self.rng = random.Random(name)
        self.played: set[str] = set()
        #: Tables where a move of this player's was accepted: played by them, though the
        #: last update may have been lost with a process killed as the game ended.
        self.moved: set[str] = set()
        self.seated: list[str] = []
        self.errors: list[str] = []
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while not self.done.is_set():
                # The server restarting, or a socket closed: connect again (the state
                # sent on connecting names the table still to play).
                with contextlib.suppress(OSError, TimeoutError, WebSocketException):
                    self._listen()
                time.sleep(0.05)
        except Exception as exc:  # reported by the test
            self.errors.append(repr(exc))
            self.done.set()

    def _listen(self) -> None:
        url = self.server.base.replace("http", "ws", 1) + f"/ws/tournament/{self.tid}"
        # Unbounded queue: the socket is not read while a table is played.
        with connect(
            url, additional_headers=bearer(self.token), open_timeout=10, max_queue=None
        ) as ws:
            while not self.done.is_set():
                message = json.loads(ws.recv(timeout=WAIT))
                if message["type"] == "tournament" and message["status"] == "finished":
                    self.done.set()
                    return
                if message["type"] == "tournament" and message["you"]["table_id"]:
                    table_id = message["you"]["table_id"]
                    if table_id not in self.played:  # back after a restart
                        self._play(table_id, message["you"]["play_url"])
                if message["type"] == "seated":
                    self.seated.append(message["table_id"])
                    if message["table_id"] not in self.played:
                        self._play(message["table_id"], message["play_url"])

    def _play(self, table_id: str, play_url: str) -> None:
        token = play_url.split("token=", 1)[1]
        client = Client(self.server.base, table_id, token)
        try:
            welcome = client.hello()
            assert welcome["type"] == "welcome", welcome
            while True:
                client.drain(0.005)
                state = client.state
                assert state is not None
                if state["status"] == "finished":
                    self.played.add(table_id)
                    return
                legal = state["legal_moves"]
                if not legal:
                    client.wait_for(lambda m: m["type"] in ("update", "resync"), timeout=WAIT)
                    continue
                move = spy_choice(legal) if self.race else self.rng.choice(legal)
                answer = client.move(move)
                if answer["type"] == "ack":
                    self.moved.add(table_id)
                # In a race another player's call may end the round first: the move is
                # then refused as too late, never as illegal.
                assert answer["type"] in ("ack", "resync", "error"), answer
                assert answer.get("code") not in ("illegal", "bad_token"), answer
        finally:
            client.close()


@contextlib.contextmanager
def players(
    server: ServerProcess, tid: str, tokens: dict[str, str], race: bool
) -> Iterator[list[Simulated]]:
    sims = [Simulated(server, tid, name, token, race) for name, token in tokens.items()]
    for sim in sims:
        sim.start()
    try:
        yield sims
    finally:
        for sim in sims:
            sim.done.set()
        for sim in sims:
            sim.join(timeout=30)


def wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def tournament(server: ServerProcess, tid: str) -> dict[str, Any]:
    with contextlib.suppress(httpx.HTTPError):
        answer = httpx.get(f"{server.base}/api/tournaments/{tid}", timeout=30)
        if answer.status_code == 200:
            return answer.json()  # type: ignore[no-any-return]
    return {"status": "unknown", "rounds": [], "round": 0}


def run_event(server: ServerProcess, names: list[str], body: dict[str, Any]) -> tuple[str, str]:
    """Sign everyone up, create the tournament (the first name organises), register
    everyone and start it; the id and the organiser's token."""
    tokens = {name: sign_up(server.base, name) for name in names}
    organiser = tokens[names[0]]
    created = httpx.post(
        f"{server.base}/api/tournaments",
        json={"start_in": 3600, "checkin_seconds": 0, "forfeit_seconds": 3600, **body},
        headers=bearer(organiser),
        timeout=30,
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    for token in tokens.values():
        answer = httpx.post(
            f"{server.base}/api/tournaments/{tid}/register", headers=bearer(token), timeout=30
        )
        assert answer.status_code == 200, answer.text
    return tid, organiser


def start(server: ServerProcess, tid: str, organiser: str) -> None:
    answer = httpx.post(
        f"{server.base}/api/tournaments/{tid}/start", headers=bearer(organiser), timeout=30
    )
    assert answer.status_code == 200, answer.text


def check_against_records(server: ServerProcess, tid: str) -> dict[str, Any]:
    """The final standings equal a recomputation from each game's stored record."""
    page = tournament(server, tid)
    assert page["status"] == "finished"
    exported = httpx.get(f"{server.base}/api/tournaments/{tid}/export.json", timeout=30).json()
    spec = TournamentSpec.from_dict(page["spec"])
    results = []
    firsts: dict[str, int] = {}
    for game in exported["games"]:
        assert game["record_url"], game  # nobody forfeited: every game was played
        record = httpx.get(server.base + game["record_url"], timeout=30).json()
        summary = replay(record).summary()
        assert summary["complete"] is True
        assert [float(t) for t in summary["totals"]] == game["totals"]
        assert record["players"] == game["seats"]
        if spec.game == "candidate":
            # C2: the lot falls on seat 0, the seat the pairing gave the first deal.
            assert record["deals"][0]["dealer"] == 0, game
            first, second = game["seats"]
            firsts[first] = firsts.get(first, 0) + 1
            firsts[second] = firsts.get(second, 0) - 1
        results.append(
            GameResult(
                round=game["round"],
                table=game["table"],
                seats=tuple(game["seats"]),
                totals=tuple(float(t) for t in summary["totals"]),
                table_id=game["table_id"],
            )
        )
    plans = [
        RoundPlan(r["round"], tuple(tuple(t["seats"]) for t in r["tables"]), tuple(r["byes"]))
        for r in page["rounds"]
    ]
    entrants = [
        Player(p["name"], order=i, joined=p["joined"], bot=p["bot"])
        for i, p in enumerate(page["players"])
    ]
    again = [s.to_dict() for s in standings(spec, entrants, results, plans)]
    assert again == exported["standings"] == page["standings"]
    assert len(plans) == spec.rounds
    # Who dealt first, from the records: balanced within two over the rounds (the
    # pairing's colour rule, docs/tournaments.md).
    assert all(abs(balance) <= 2 for balance in firsts.values()), firsts
    return page


def play_tournament(
    server: ServerProcess,
    names: list[str],
    body: dict[str, Any],
    *,
    race: bool = False,
    during: Callable[[ServerProcess, str, list[Simulated]], ServerProcess] | None = None,
) -> tuple[ServerProcess, str, list[Simulated]]:
    """Create the tournament, let the simulated players play it to its end (``during``
    may replace the server meanwhile); the server, the id and the players."""
    tid, organiser = run_event(server, names, body)
    tokens = {name: sign_in(server, name) for name in names}
    with players(server, tid, tokens, race=race) as sims:
        start(server, tid, organiser)
        if during is not None:
            server = during(server, tid, sims)
        wait_until(lambda: all(s.done.is_set() for s in sims), "the end of the tournament")
        assert not [e for s in sims for e in s.errors]
    return server, tid, sims


def test_candidate_swiss_of_24_survives_a_sigkill(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 'swiss.db'}"
    server = ServerProcess(db, "real").start(WAIT)
    names = [f"swiss{i:02d}" for i in range(24)]
    try:
        server, tid, sims = play_tournament(
            server,
            names,
            {
                "name": "Swiss",
                "game": "candidate",
                "format": "swiss",
                "rounds": 4,
                "options": {"deals": 1},
            },
            during=kill_mid_round,
        )
        page = check_against_records(server, tid)
        # Every table of every round was announced to each of its players.
        for r in page["rounds"]:
            for table in r["tables"]:
                for name in table["seats"]:
                    sim = next(s for s in sims if s.name == name)
                    # Played through, or sent there before the SIGKILL and finished
                    # by a stand-in while the player was reconnecting (a busy machine).
                    assert table["table_id"] in sim.played | set(sim.seated)
    finally:
        if server.proc is not None:
            server.proc.kill()


def kill_mid_round(server: ServerProcess, tid: str, sims: list[Simulated]) -> ServerProcess:
    """SIGKILL the server once round 2 is under way with a game of it finished, and
    start it again on the same database and port."""
    wait_until(lambda: round_progress(server, tid, 2) >= 1, "a finished game in round 2")
    assert server.proc is not None
    server.proc.kill()
    server.proc.wait(timeout=30)
    server = ServerProcess(server.db_url, *server.args, port=server.port).start(WAIT)
    for sim in sims:
        sim.server = server
    return server


def round_progress(server: ServerProcess, tid: str, number: int) -> int:
    """How many games of round ``number`` have finished (-1 before it is paired)."""
    page = tournament(server, tid)
    rounds = [r for r in page["rounds"] if r["round"] == number]
    if not rounds:
        return -1
    return sum(t["status"] == "finished" for t in rounds[0]["tables"])


def test_spy_race_of_16(tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'race.db'}", "real").start(WAIT)
    names = [f"race{i:02d}" for i in range(16)]
    try:
        server, tid, _sims = play_tournament(
            server,
            names,
            {
                "name": "Race",
                "game": "spy",
                "format": "race",
                "rounds": 3,
                "table_size": 4,
                "options": {"rounds": 1},
            },
            race=True,
        )
        page = check_against_records(server, tid)
        for r in page["rounds"]:
            assert all(3 <= len(t["seats"]) <= 5 for t in r["tables"])
            assert sorted(p for t in r["tables"] for p in t["seats"]) == sorted(names)
    finally:
        if server.proc is not None:
            server.proc.kill()


def test_duplicate_round_deals_every_table_the_same(tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'dup.db'}", "real").start(WAIT)
    names = [f"dup{i}" for i in range(8)]
    try:
        server, tid, _sims = play_tournament(
            server,
            names,
            {
                "name": "Duplicate",
                "game": "candidate",
                "format": "swiss",
                "rounds": 2,
                "duplicate": True,
                "options": {"deals": 1},
            },
        )
        page = tournament(server, tid)
        assert page["status"] == "finished"
        deals_by_round: dict[int, list[Any]] = {}
        for r in page["rounds"]:
            for table in r["tables"]:
                record = httpx.get(
                    f"{server.base}/api/tables/{table['table_id']}/record", timeout=30
                ).json()
                dealt = [{k: v for k, v in d.items() if k != "moves"} for d in record["deals"]]
                deals_by_round.setdefault(r["round"], []).append(dealt)
        for dealt in deals_by_round.values():
            assert len(dealt) == 4
            assert all(d == dealt[0] for d in dealt)
        assert deals_by_round[1] != deals_by_round[2]
    finally:
        if server.proc is not None:
            server.proc.kill()


def test_duplicate_race_deals_every_racer_the_same_deck(tmp_path: Any) -> None:
    """A duplicate Spy race: every racer of a round, at every table, races the same
    deck order (the same_deal option, S2a), checked from the records."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'duprace.db'}", "real").start(WAIT)
    names = [f"dupr{i}" for i in range(8)]
    try:
        server, tid, _sims = play_tournament(
            server,
            names,
            {
                "name": "Duplicate race",
                "game": "spy",
                "format": "race",
                "rounds": 2,
                "table_size": 4,
                "duplicate": True,
                "options": {"rounds": 1},
            },
            race=True,
        )
        page = check_against_records(server, tid)
        decks: dict[int, list[Any]] = {}
        for r in page["rounds"]:
            for table in r["tables"]:
                record = httpx.get(
                    f"{server.base}/api/tables/{table['table_id']}/record", timeout=30
                ).json()
                assert record["options"]["same_deal"] is True
                for race in record["rounds"]:
                    decks.setdefault(r["round"], []).extend(race["cards"])
        for dealt in decks.values():
            assert len(dealt) == 8
            assert all(deck == dealt[0] for deck in dealt)
        assert decks[1][0] != decks[2][0]
    finally:
        if server.proc is not None:
            server.proc.kill()
