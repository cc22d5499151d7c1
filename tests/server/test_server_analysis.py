"""The analysis board's routes over real HTTP: start, progress, stored result, limits,
refusals (docs/analysis.md). A small analysis budget keeps the CPU low."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from server_helpers import GUARD, Api, ServerThread, fast_settings

from cardtable.bots.review import ReviewBudget, analyse_record
from cardtable.server import analysis as analysis_module
from cardtable.server.analysis import NICENESS, AnalysisRunner
from cardtable.server.app import create_app
from cardtable.server.limits import Buckets
from cardtable.server.storage import Storage

#: A budget small enough for tests: a few samples, a short search.
SMALL = ReviewBudget(samples=2, iterations=8, worlds=2, oracle_nodes=2000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The real games with bots only at the tables, and a small analysis budget."""
    db = tmp_path_factory.mktemp("db") / "analysis.db"
    settings = fast_settings()
    settings.analysis_budget = SMALL
    settings.analysis_waiting = 2
    settings.analysis_guest_burst = 3
    app = create_app(f"sqlite:///{db}", settings=settings, static_dir=None)
    running = ServerThread(app).start()
    yield running
    running.stop()


def register(base: str, name: str) -> str:
    """A new account's bearer token."""
    answer = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": "a long enough password", "bearer": True},
        headers={"X-Cardtable-Client": "test"},
    )
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def finished_game(api: Api, game: str, options: dict[str, Any], seed: int) -> str:
    """A table of two easy bots, played to its end; its id."""
    bots = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}]
    table_id: str = api.create(game, bots, options=options, seed=seed)["table"]["id"]
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while api.table(table_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return table_id


def wait_done(http: httpx.Client, table_id: str) -> list[dict[str, Any]]:
    """Poll the analysis until it is done; every answer seen."""
    seen = []
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while True:
        answer = http.get(f"/api/games/{table_id}/analysis").json()
        seen.append(answer)
        if answer["status"] != "running":
            return seen
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)


def test_spy_analysis_runs_reports_progress_and_is_stored(server: ServerThread) -> None:
    api = Api(server.base)
    table_id = finished_game(api, "spy", {"rounds": 1}, seed=11)
    url = f"/api/games/{table_id}/analysis"
    assert api.http.get(url).json()["status"] == "none"
    started = api.http.post(url)
    assert started.status_code == 202, started.text
    first = started.json()
    assert first["status"] == "running"
    assert first["total"] > 0
    seen = wait_done(api.http, table_id)
    done = seen[-1]
    assert done["status"] == "done", done
    assert done["percent"] == 100
    assert done["done"] == done["total"] == first["total"]
    result = done["result"]
    assert result["game"] == "spy"
    assert result["settings"]["worlds"] == SMALL.worlds
    # Every judged move names its replay step, and that step is the same move.
    steps = api.http.get(f"/api/tables/{table_id}/replay").json()["steps"]
    for race in result["races"]:
        for move in race["moves"]:
            step = steps[move["step"]]
            assert step["seat"] == race["player"]
            assert step["move"].split(" ", 1)[1] == move["move"]
    # A second request is served from storage, at once.
    again = api.http.post(url)
    assert again.status_code == 200
    assert again.json()["result"] == result


def test_candidate_analysis_and_the_limits(server: ServerThread) -> None:
    api = Api(server.base)
    table_id = finished_game(api, "candidate", {"deals": 1}, seed=5)
    other = finished_game(api, "candidate", {"deals": 1}, seed=6)
    url = f"/api/games/{table_id}/analysis"
    assert api.http.post(url).status_code == 202
    # The same game again while it runs: 409; another game by the same guest: 409.
    running = api.http.post(url)
    assert running.status_code == 409
    assert running.json()["detail"]["code"] == "analysis_running"
    second = api.http.post(f"/api/games/{other}/analysis")
    assert second.status_code == 409
    assert second.json()["detail"]["code"] == "analysis_one_at_a_time"
    done = wait_done(api.http, table_id)[-1]
    assert done["status"] == "done", done
    decisions = done["result"]["decisions"]
    steps = api.http.get(f"/api/tables/{table_id}/replay").json()["steps"]
    assert len(decisions) == len(steps) - 1
    assert all(steps[d["step"]]["move"] == d["move"] for d in decisions)
    # The guest's bucket holds 3 in a row (the module's other tests, on this server or
    # not, in any order, may have taken some): within 3 more analyses it is empty.
    limited = None
    games = [other] + [finished_game(api, "spy", {"rounds": 1}, seed=s) for s in (12, 13)]
    for game in games:
        answer = api.http.post(f"/api/games/{game}/analysis")
        if answer.status_code == 429:
            limited = answer
            break
        assert answer.status_code == 202, answer.text
        wait_done(api.http, game)
    assert limited is not None, "a guest's fourth analysis in a row was not limited"
    detail = limited.json()["detail"]
    assert detail["code"] == "analysis_rate_limited"
    assert "min" in detail["message"]
    assert int(limited.headers["Retry-After"]) > 0


def test_analysis_refusals_are_clear_and_never_500(server: ServerThread) -> None:
    api = Api(server.base)
    for bad in ("nope", "x" * 300, "%00", "..%2F..", "é"):
        for method in ("GET", "POST"):
            answer = api.http.request(method, f"/api/games/{bad}/analysis")
            assert answer.status_code == 404, (bad, method, answer.text)
            detail = answer.json()["detail"]  # a path that routes nowhere: plain Not Found
            assert detail == "Not Found" or detail["code"] == "no_table"
    # A game still being played: 409, not finished.
    seats = [{"type": "open"}, {"type": "bot", "level": "easy"}]
    waiting = api.create("candidate", seats, options={"deals": 1})["table"]["id"]
    for method in ("GET", "POST"):
        answer = api.http.request(method, f"/api/games/{waiting}/analysis")
        assert answer.status_code == 409, answer.text
        assert answer.json()["detail"]["message_id"] == "server.analysis_not_finished"


def test_analyses_never_hold_up_live_tables_and_are_bounded(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held analyses (one by a guest, one by an account) fill the server's bound: a third
    is refused with 503, and meanwhile a table of bots plays to its end."""
    api = Api(server.base)
    runner = server.app.state.analysis
    assert runner.executor is not server.app.state.hub.bots.executor
    release = threading.Event()

    def held(
        game: str, record: Any, budget: ReviewBudget, progress: Callable[[int, int], None]
    ) -> dict[str, Any]:
        progress(1, 2)
        release.wait(20)
        return analyse_record(game, record, budget, progress)

    monkeypatch.setattr(analysis_module, "analyse_record", held)
    monkeypatch.setattr(runner, "per_guest", Buckets(burst=5, seconds=60))  # a fresh guest
    games = [finished_game(api, "spy", {"rounds": 1}, seed=s) for s in (21, 22, 23)]
    account = {"Authorization": f"Bearer {register(server.base, 'Reviewer')}"}
    try:
        assert api.http.post(f"/api/games/{games[0]}/analysis").status_code == 202
        answer = api.http.post(f"/api/games/{games[1]}/analysis", headers=account)
        assert answer.status_code == 202, answer.text  # an account has its own limits
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        while api.http.get(f"/api/games/{games[0]}/analysis").json()["percent"] != 50:
            assert time.monotonic() < deadline, "no progress came back from the worker"
            time.sleep(0.02)
        busy = httpx.post(f"{server.base}/api/games/{games[2]}/analysis", headers=account)
        assert busy.status_code == 409  # the account's own analysis runs
        other = {"Authorization": f"Bearer {register(server.base, 'Second')}"}
        busy = httpx.post(f"{server.base}/api/games/{games[2]}/analysis", headers=other)
        assert busy.status_code == 503, busy.text
        assert busy.json()["detail"]["message_id"] == "server.analysis_busy"
        assert busy.headers["Retry-After"] == "60"
        # While both analyses are held, the bots of a live table play on.
        finished_game(api, "candidate", {"deals": 1}, seed=24)
    finally:
        release.set()
    for table_id in games[:2]:
        assert wait_done(api.http, table_id)[-1]["status"] == "done"


def test_an_analysis_that_ends_while_its_status_is_read_is_never_none(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The job is dropped only after its result is stored: a status read that misses the
    stored result because the job ended meanwhile still finds the job (seen as "none" on
    a busy machine when storage was read first)."""
    api = Api(server.base)
    runner = server.app.state.analysis
    storage = server.app.state.hub.storage
    release = threading.Event()

    def held(
        game: str, record: Any, budget: ReviewBudget, progress: Callable[[int, int], None]
    ) -> dict[str, Any]:
        release.wait(GUARD)
        return {"game": game, "decisions": []}  # what is stored does not matter here

    table_id = finished_game(api, "candidate", {"deals": 1}, seed=31)
    read = storage.aread

    async def ending_meanwhile(fn: Callable[..., Any]) -> Any:
        result = await read(fn)
        if fn.__qualname__.startswith("load_analysis") and table_id in runner.jobs:
            release.set()  # the job ends, stores its result and leaves, after this read
            deadline = time.monotonic() + GUARD  # a guard against a hang
            while table_id in runner.jobs:
                assert time.monotonic() < deadline, "the held analysis did not end"
                await asyncio.sleep(0.01)
        return result

    monkeypatch.setattr(analysis_module, "analyse_record", held)
    monkeypatch.setattr(runner, "per_guest", Buckets(burst=5, seconds=60))  # a fresh guest
    monkeypatch.setattr(storage, "aread", ending_meanwhile)
    url = f"/api/games/{table_id}/analysis"
    assert api.http.post(url).status_code == 202
    assert api.http.get(url).json()["status"] == "running"  # the job, not "none"
    assert release.is_set()
    assert api.http.get(url).json()["status"] == "done"


def test_analysis_workers_run_at_a_lower_priority() -> None:
    """A worker process of the analyses is ``nice``r than the server by NICENESS."""
    settings = fast_settings()
    settings.bot_processes = 1
    storage = Storage("sqlite://")
    runner = AnalysisRunner(settings, storage)
    try:
        niceness = runner.executor.submit(os.nice, 0).result(timeout=60)
        assert niceness >= min(19, os.nice(0) + NICENESS)
    finally:
        asyncio.run(runner.shutdown())
        storage.close()
