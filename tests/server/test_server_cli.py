"""``cardtable serve`` and the hook for a browser client's static files."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from server_fakegame import fake_bots, fake_games
from server_helpers import GUARD, ServerThread, free_port, wait_healthy
from typer.testing import CliRunner

from cardtable.cli import app as cli_app
from cardtable.server.accounts import LoginLimiter
from cardtable.server.app import create_app
from cardtable.server.limits import LocalLoginLimits
from cardtable.server.routes.accounts import CSRF_HEADER


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
        proc.wait(timeout=GUARD)


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


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    """``cardtable serve`` in a child process; it must end on its own (it cannot start)."""
    command = [sys.executable, "-m", "cardtable", "serve", "--log-level", "warning", *args]
    # A guard, not a speed goal: a busy machine may take a minute to import the server.
    return subprocess.run(command, capture_output=True, text=True, timeout=GUARD, check=False)


def _assert_one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "open http" not in result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]


def test_serve_refuses_a_database_url_it_cannot_use() -> None:
    result = _serve("--port", str(free_port()), "--db", "nosuchdb://x/y")
    _assert_one_line_refusal(result, "error: cannot open the database", "nosuchdb://x/y")


def test_serve_refuses_a_database_file_it_cannot_write(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "cardtable.db"
    result = _serve("--port", str(free_port()), "--db", f"sqlite:///{missing}")
    _assert_one_line_refusal(result, "cannot open the database", "unable to open")
    assert not missing.parent.exists()


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = _serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    _assert_one_line_refusal(result, f"port {port}", "in use")


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_serve_refuses_a_port_out_of_range(port: str) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--port", port])
    assert result.exit_code == 2
    assert "--port" in result.output
    assert "open http" not in result.output


@pytest.mark.parametrize("command", [[], ["serve"], ["deal"], ["replay"], ["arena"]])
def test_help_shows_no_value_type_beside_a_flag(command: list[str]) -> None:
    result = CliRunner().invoke(cli_app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output
    assert "--help" in result.output


def test_replay_says_a_missing_file_is_missing(tmp_path: Path) -> None:
    missing = tmp_path / "gone.json"
    result = CliRunner().invoke(cli_app, ["replay", str(missing)])
    assert result.exit_code == 1
    assert "there is no file" in result.output
    assert "malformed" not in result.output
    folder = CliRunner().invoke(cli_app, ["replay", str(tmp_path)])
    assert "is a folder, not a file" in folder.output


def test_deal_and_play_refuse_a_file_in_a_missing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "x.json"
    dealt = CliRunner().invoke(cli_app, ["deal", "candidate", "--seed", "1", "--out", str(missing)])
    assert dealt.exit_code == 1
    assert "the folder" in dealt.output
    assert "does not exist" in dealt.output
    assert "Traceback" not in dealt.output
    played = CliRunner().invoke(cli_app, ["play", "candidate", "--save", str(missing)])
    assert played.exit_code == 1
    assert "--save" in played.output
    folder = CliRunner().invoke(cli_app, ["deal", "spy", "--seed", "1", "--out", str(tmp_path)])
    assert "is a folder, not a file" in folder.output


@pytest.mark.parametrize("trusted", [(), ("127.0.0.1",)])
def test_x_forwarded_for_counts_only_from_a_proxy_named_on_the_command_line(
    tmp_path: Path, trusted: tuple[str, ...]
) -> None:
    """The login limit per address (2 failures here) counts the connection's address
    unless it is a ``--trusted-proxy``: a local client sending X-Forwarded-For itself
    cannot choose a new "address" for each try (uvicorn's default trusted 127.0.0.1)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'proxy.db'}", games=fake_games(), bots=fake_bots, static_dir=None
    )
    server = ServerThread(app, trusted_proxies=trusted).start()
    try:
        app.state.login_limits = LocalLoginLimits(LoginLimiter(per_pair=50, per_address=2))
        answers = [
            httpx.post(
                f"{server.base}/api/account/login",
                json={"name": f"Nobody {n}", "password": "not the password"},
                headers={CSRF_HEADER: "web", "X-Forwarded-For": f"203.0.113.{n}"},
            ).status_code
            for n in range(4)
        ]
    finally:
        server.stop()
    assert answers == ([401] * 4 if trusted else [401, 401, 429, 429])


def test_serve_refuses_a_trusted_proxy_that_is_not_an_address() -> None:
    result = _serve("--port", str(free_port()), "--trusted-proxy", "localhost")
    _assert_one_line_refusal(result, "error: --trusted-proxy 'localhost'", "not an IP address")
    assert "--trusted-proxy" in CliRunner().invoke(cli_app, ["serve", "--help"]).output


@pytest.mark.parametrize("route", ["", "s 1", "x" * 65, "a?b", "ö"])
def test_serve_refuses_a_route_name_a_proxy_could_not_match(route: str) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--route", route])
    assert result.exit_code == 1
    assert f"--route {route!r}" in result.output
    assert "open http" not in result.output
