"""``cardtable serve`` and the hook for a browser client's static files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
from server_fakegame import fake_bots, fake_games
from server_helpers import ServerThread, free_port, wait_healthy
from typer.testing import CliRunner

from cardtable.cli import app as cli_app
from cardtable.server.app import create_app


def test_serve_command_starts_a_server_that_answers_health(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "cardtable", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'cli.db'}", "--log-level", "warning"]
    proc = subprocess.Popen(command)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc=proc)
        health = httpx.get(f"http://127.0.0.1:{port}/api/health").json()
        assert health["games"] == ["candidate", "spy"]
        assert (tmp_path / "cli.db").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_help_lists_its_options() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db"):
        assert option in result.output


def test_static_client_is_served_at_the_root_when_present(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<h1>cardtable</h1>", encoding="utf-8")
    app = create_app(
        f"sqlite:///{tmp_path / 'static.db'}",
        games=fake_games(),
        bots=fake_bots,
        static_dir=static,
    )
    server = ServerThread(app).start()
    try:
        assert "cardtable" in httpx.get(server.base + "/").text
        assert httpx.get(server.base + "/api/health").json()["status"] == "ok"
    finally:
        server.stop()
    bare = create_app(
        f"sqlite:///{tmp_path / 'bare.db'}",
        games=fake_games(),
        bots=fake_bots,
        static_dir=tmp_path / "missing",
    )
    server = ServerThread(bare).start()
    try:
        assert httpx.get(server.base + "/").status_code == 404
    finally:
        server.stop()
