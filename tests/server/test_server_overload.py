"""A busy process stays steady: admission control (server/admission.py), bots that
degrade instead of stalling a table (server/thinking.py) and ``/metrics``
(server/metrics.py), on a real server on a loopback port."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Api, ServerThread, clients, fake_server_thread, fast_settings

from cardtable.server.admission import Admission, kind_of
from cardtable.server.metrics import Metrics
from cardtable.server.settings import Settings
from cardtable.server.thinking import BotRunner, degraded


@pytest.fixture
def busy_server(tmp_path: Path) -> Iterator[ServerThread]:
    server = fake_server_thread(tmp_path / "busy.db", fast_settings())
    yield server
    server.stop()


def metric(text: str, name: str) -> float:
    """The value of one sample line ``name value`` of a Prometheus text page."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"no sample {name!r} in /metrics")


def test_a_busy_process_turns_new_work_away_with_503_and_still_serves_moves(
    busy_server: ServerThread,
) -> None:
    api = Api(busy_server.base)
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 4})
    spare = api.create("fake", [{"type": "open"}, {"type": "open"}], options={"hand": 2})
    # The door closes: no work at all may start now (the limit driven to zero).
    admission: Admission = busy_server.app.state.admission
    admission.settings.admission_in_flight = 0
    try:
        refused = [
            api.http.post("/api/tables", json={"game": "fake", "seats": [{"type": "open"}] * 2}),
            api.http.post(
                f"/api/tables/{spare['table']['id']}/join",
                json={"invite": spare["invites"][0]["code"], "name": "Cy"},
            ),
            api.http.post("/api/seeks", json={"game": "fake", "name": "Di"}),
        ]
        for response in refused:
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"] == str(
                admission.settings.admission_retry_seconds
            )
            detail = response.json()["detail"]
            assert (detail["code"], detail["message_id"]) == ("busy", "server.busy")
            assert "busy" in detail["message"]
        # The people already playing are served: a move is acknowledged, reads answer.
        with clients(busy_server.base, table_id, tokens) as (ann, bob):
            ann.hello()
            bob.hello()
            for player in (ann, bob):
                player.drain()
            mover = ann if ann.state and ann.state["legal_moves"] else bob
            assert mover.state is not None
            assert mover.move(mover.state["legal_moves"][0])["type"] == "ack"
        assert api.http.get(f"/api/tables/{table_id}").status_code == 200
        page = api.http.get("/metrics")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/plain")
        text = page.text
        for kind in ("table", "join", "seek"):
            assert metric(text, f'cardtable_admission_rejections_total{{kind="{kind}"}}') == 1
        assert metric(text, 'cardtable_refusals_total{code="busy"}') == 3
        assert metric(text, "cardtable_move_seconds_count") >= 1
    finally:
        admission.settings.admission_in_flight = Settings().admission_in_flight
    # The door opens again as soon as the work is back under the limit.
    assert (
        api.http.post(
            "/api/tables", json={"game": "fake", "seats": [{"type": "open"}] * 2}
        ).status_code
        == 201
    )


def test_metrics_show_tables_sockets_and_every_lease_reason(busy_server: ServerThread) -> None:
    api = Api(busy_server.base)
    table_id, tokens = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 4})
    with clients(busy_server.base, table_id, tokens[:1]) as (ann,):
        ann.hello()
        text = httpx.get(busy_server.base + "/metrics").text
        assert metric(text, "cardtable_live_tables") >= 1
        assert metric(text, "cardtable_sockets") >= 1
    for reason in ("created", "claimed", "released", "lost", "dropped"):
        assert metric(text, f'cardtable_lease_changes_total{{reason="{reason}"}}') == 0
    for name in ("cardtable_bot_overruns_total", "cardtable_event_loop_lag_seconds"):
        assert metric(text, name) >= 0
    assert "# TYPE cardtable_move_seconds histogram" in text


def test_the_loop_lag_closes_the_door_and_opens_it_gradually() -> None:
    settings = Settings(admission_lag_seconds=0.5)
    admission = Admission(settings, Metrics())
    admission.note_lag(0.9)
    assert admission.refusal("table") is not None
    admission.note_lag(0.0)  # one quick wake-up: still behind
    assert admission.lag == pytest.approx(0.6)
    assert admission.refusal("join") is not None
    for _ in range(5):
        admission.note_lag(0.0)
    assert admission.busy() is None
    assert kind_of("POST", "/api/tables/abc/rematch") == "rematch"
    assert kind_of("POST", "/api/tables/abc/hint") is None


class SlowThenQuick:
    """A bot maker whose ``hard`` bot never answers until released, while its easy
    level answers at once: an overloaded machine in miniature."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.made: list[str] = []

    def __call__(self, game: str, bot: str, seed: int, seat: int) -> Any:
        self.made.append(bot)
        return _Thinker(bot, self.release)


class _Thinker:
    def __init__(self, bot: str, release: threading.Event) -> None:
        self.bot = bot
        self.release = release

    def think(self, info: Any) -> int:
        if self.bot == "hard":
            self.release.wait(30)
            return 1
        return 2


def test_a_bot_over_its_budget_is_answered_for_by_the_easiest_level_and_degrades() -> None:
    """The table waits one budget at most: the slow bot's move is replaced by the
    game's easiest level's, the overrun is counted, and the next bots think lower."""
    maker = SlowThenQuick()
    settings = Settings(bot_budget=0.05, bot_processes=0, bot_threads=2)
    metrics = Metrics()
    runner = BotRunner(settings, maker, metrics=metrics)

    async def run() -> tuple[int | None, str]:
        action = await runner.think(
            game="candidate", bot="hard", seed=1, seat=0, info=None, where="test"
        )
        return action, runner.level("hard")

    try:
        action, next_level = asyncio.run(run())
    finally:
        maker.release.set()
        runner.shutdown()
    assert action == 2  # the easy level's move
    assert maker.made == ["hard", "easy"]
    assert next_level == "medium"  # within the relief time, every bot one step lower
    assert metrics.bot_overruns._value.get() == 1
    assert metrics.bot_degraded._value.get() == 1
    assert runner.errors == []
    assert degraded("ismcts-deal:1000") == "ismcts-deal:250"
