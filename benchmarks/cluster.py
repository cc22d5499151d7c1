"""Several ``cardtable serve`` processes behind Debian's HAProxy, on loopback: the
harness of the proxy tests (tests/server/test_server_proxy.py) and of the load benchmark
across processes (``python -m benchmarks server --processes N``).

:class:`Cluster` starts, in order: a fresh PostgreSQL database (dropped at the end), a
Redis key prefix of its own (its keys deleted at the end) — on the Redis it is given, or
on a private ``redis-server`` it starts on a free port (so its CPU time is the run's
alone) —, N server processes on free ports (all at once, once the schema is made), and
``haproxy`` with ``deploy/haproxy.cfg`` rendered for those ports: only the listening
port, the ``server`` and ``use-server`` lines and the stats socket's path change (each
process's route name, ``--route``, is its port, as in deploy/cardtable@.service). It
waits until every process answers ``/api/health`` and HAProxy counts every one up.
:meth:`Cluster.stop` stops all it started, by PID, and nothing else.

>>> print(render_haproxy("bind 127.0.0.1:8000\\n"
...     "    use-server s1 if { urlp(route) -m str 8001 }\\n"
...     "    server s1 127.0.0.1:8001 check\\n"
...     "    server s2 127.0.0.1:8002 check\\n", 9000, [9101, 9102, 9103], "/tmp/x.sock"))
bind 127.0.0.1:9000
    use-server s1 if { urlp(route) -m str 9101 }
    use-server s2 if { urlp(route) -m str 9102 }
    use-server s3 if { urlp(route) -m str 9103 }
    server s1 127.0.0.1:9101 check
    server s2 127.0.0.1:9102 check
    server s3 127.0.0.1:9103 check
<BLANKLINE>
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

__all__ = ["HAPROXY", "REPO", "Cluster", "ServerProc", "free_port", "render_haproxy"]

REPO = Path(__file__).resolve().parent.parent
#: The proxy configuration of the deployment guide, as it is in the repository.
HAPROXY_CONFIG = REPO / "deploy" / "haproxy.cfg"
#: Debian's haproxy.
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
#: Where the server's PostgreSQL is asked to make the run's database.
PG_ADMIN_URL = os.environ.get("CARDTABLE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render_haproxy(template: str, port: int, servers: list[int], stats_socket: str) -> str:
    """``template`` (deploy/haproxy.cfg) listening on ``port``, its stats socket at
    ``stats_socket``, and in every backend one ``server`` line per port of ``servers``
    (each with the options of that backend's first server line) and, where the backend
    routes sockets by ``?route=``, one ``use-server`` line per port."""
    text = re.sub(r"bind 127\.0\.0\.1:\d+", f"bind 127.0.0.1:{port}", template, count=1)
    text = re.sub(r"stats socket \S+", f"stats socket {stats_socket}", text, count=1)
    out: list[str] = []
    block: str | None = None  # the kind of line ("server", "use-server") being replaced
    for line in text.splitlines(keepends=True):
        kind = line.split(maxsplit=1)[0] if line.strip() else ""
        if kind not in ("server", "use-server"):
            block = None
            out.append(line)
            continue
        if kind == block:
            continue  # the rest of the block: replaced with its first line
        block = kind
        indent = line[: len(line) - len(line.lstrip())]
        if kind == "server":
            options = " ".join(line.split()[3:])
            out += [
                f"{indent}server s{n} 127.0.0.1:{p} {options}\n" for n, p in enumerate(servers, 1)
            ]
        else:
            out += [
                f"{indent}use-server s{n} if {{ urlp(route) -m str {p} }}\n"
                for n, p in enumerate(servers, 1)
            ]
    return "".join(out)


def descendants(pid: int) -> list[tuple[int, float]]:
    """The processes below ``pid`` now, each with its start time (``/proc``), so a PID
    reused later by another process is never mistaken for one of them."""
    found: list[tuple[int, float]] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found.append((int(child), _started(int(child))))
                    found += descendants(int(child))
    return found


def _started(pid: int) -> float:
    with contextlib.suppress(OSError, IndexError, ValueError):
        return float(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    return -1.0


def kill_left(processes: list[tuple[int, float]]) -> None:
    """SIGKILL those of ``processes`` still running (the same process: same start)."""
    for pid, started in processes:
        if _started(pid) == started:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


#: Clusters started and not stopped yet: stopped at exit, whatever the way out.
_RUNNING: list[Cluster] = []


@atexit.register
def _stop_running() -> None:
    for cluster in list(_RUNNING):
        with contextlib.suppress(Exception):
            cluster.stop()


def _pg_admin() -> Any:
    import psycopg

    return psycopg.connect(PG_ADMIN_URL.replace("+psycopg", ""), autocommit=True, connect_timeout=3)


def postgres_available() -> bool:
    """Whether the PostgreSQL of the tests answers."""
    try:
        with _pg_admin():
            return True
    except Exception:
        return False


def redis_answers(url: str) -> bool:
    """Whether a Redis answers at ``url``."""
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (``/proc/<pid>/stat``; 0 once gone)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


@dataclass
class ServerProc:
    """One ``cardtable serve`` process of the cluster."""

    name: str
    port: int
    command: list[str]
    log: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    #: How many times it was started.
    starts: int = 1

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> None:
        with self.log.open("ab") as sink:
            self.proc = subprocess.Popen(
                self.command, stdout=sink, stderr=subprocess.STDOUT, env=self.env
            )

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def health(self) -> dict[str, Any] | None:
        """The process's own ``/api/health`` (None: it does not answer 200)."""
        with contextlib.suppress(httpx.HTTPError, ValueError):
            answer = httpx.get(f"{self.base}/api/health", timeout=2)
            if answer.status_code == 200:
                return answer.json()  # type: ignore[no-any-return]
        return None

    def wait_healthy(self, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"server {self.name} exited: {self.tail()}")
            if self.health() is not None:
                return
            time.sleep(0.05)
        raise TimeoutError(f"server {self.name} did not answer /api/health: {self.tail()}")

    def signal(self, signum: int) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signum)

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout`` seconds; waits for the exit. Its
        descendants (bot and hint worker processes) still running afterwards — a
        server killed before it could stop them — are killed too, by PID."""
        if self.proc is None:
            return
        children = descendants(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        kill_left(children)

    def tail(self, chars: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-chars:]
        return ""


@dataclass
class Cluster:
    """N server processes on PostgreSQL and Redis behind HAProxy (see the module).

    ``redis_url`` None starts a private ``redis-server``; ``serve_args`` are added to
    every ``cardtable serve`` (say ``--lease-seconds``); ``env`` to their environment.
    ``launch`` (db, port, redis, prefix, instance) → command replaces ``cardtable serve``
    (tests run a launcher with fast bots and no pauses).
    """

    processes: int = 3
    redis_url: str | None = "redis://127.0.0.1:6379/0"
    serve_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    log_level: str = "warning"
    launch: Callable[[str, int, str, str, str], list[str]] | None = None
    servers: list[ServerProc] = field(default_factory=list)
    port: int = 0
    db_url: str = ""
    prefix: str = ""
    redis_pid: int | None = None
    _tmp: tempfile.TemporaryDirectory[str] | None = None
    _database: str | None = None
    _redis: subprocess.Popen[bytes] | None = None
    _haproxy: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """The proxy's address: where clients go."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def tmp(self) -> Path:
        assert self._tmp is not None
        return Path(self._tmp.name)

    # ------------------------------------------------------------------ start
    def start(self) -> Cluster:
        """Start everything and wait until the proxy counts every process up (once:
        a cluster started already is refused, never started twice over)."""
        if self._tmp is not None:
            raise RuntimeError("this cluster is started already")
        self._tmp = tempfile.TemporaryDirectory(prefix="cardtable-cluster-")
        _RUNNING.append(self)
        try:
            self._start_database()
            self._start_redis()
            self._start_servers()
            self._start_haproxy()
        except BaseException:
            self.stop()
            raise
        return self

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def close(self) -> None:
        """:meth:`stop` (for :func:`contextlib.closing`)."""
        self.stop()

    def _start_database(self) -> None:
        from sqlalchemy.engine import make_url

        self._database = f"cardtable_run_{uuid.uuid4().hex[:12]}"
        with _pg_admin() as admin:
            admin.execute(f'CREATE DATABASE "{self._database}"')
        self.db_url = (
            make_url(PG_ADMIN_URL)
            .set(database=self._database)
            .render_as_string(hide_password=False)
        )

    def _start_redis(self) -> None:
        self.prefix = f"cardtable-run-{uuid.uuid4().hex[:12]}:"
        if self.redis_url is not None:
            if not redis_answers(self.redis_url):
                raise RuntimeError(f"no Redis answers at {self.redis_url}")
            return
        port = free_port()
        command = [shutil.which("redis-server") or "/usr/bin/redis-server"]
        command += ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
        command += ["no", "--dir", str(self.tmp)]
        with (self.tmp / "redis.log").open("ab") as sink:
            self._redis = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
        self.redis_pid = self._redis.pid
        self.redis_url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + 10
        while not redis_answers(self.redis_url):
            if time.monotonic() > deadline or self._redis.poll() is not None:
                raise RuntimeError("the private redis-server did not start")
            time.sleep(0.05)

    def _command(self, port: int, instance: str) -> list[str]:
        assert self.redis_url is not None
        if self.launch is not None:
            return self.launch(self.db_url, port, self.redis_url, self.prefix, instance)
        command = [sys.executable, "-m", "cardtable", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--db", self.db_url, "--log-level", self.log_level]
        command += ["--redis", self.redis_url, "--redis-prefix", self.prefix]
        command += ["--trusted-proxy", "127.0.0.1"]  # behind HAProxy (docs/deploy.md)
        command += ["--route", str(port)]  # HAProxy's use-server lines name the ports
        return [*command, "--instance", instance, *self.serve_args]

    def _server(self, index: int) -> ServerProc:
        name = f"s{index + 1}"  # its name in HAProxy; the instance id changes per start
        port = free_port()
        command = self._command(port, f"{name}-1")
        env = {**os.environ, **self.env}
        return ServerProc(name, port, command, self.tmp / f"{name}.log", env)

    def _start_servers(self) -> None:
        # The schema first (processes starting at once on an empty database would race
        # to create it), then every process at once.
        from cardtable.server.storage import Storage

        Storage(self.db_url).close()
        self.servers = [self._server(i) for i in range(self.processes)]
        for server in self.servers:
            server.start()
        for server in self.servers:
            server.wait_healthy()

    def _start_haproxy(self) -> None:
        self.port = free_port()
        config = self.tmp / "haproxy.cfg"
        config.write_text(
            render_haproxy(
                HAPROXY_CONFIG.read_text(),
                self.port,
                [s.port for s in self.servers],
                str(self.tmp / "haproxy.sock"),
            )
        )
        with (self.tmp / "haproxy.log").open("ab") as sink:
            self._haproxy = subprocess.Popen(
                [HAPROXY, "-db", "-f", str(config)], stdout=sink, stderr=subprocess.STDOUT
            )
        self.wait_up([s.name for s in self.servers])

    # ------------------------------------------------------------------ look
    def haproxy_command(self, command: str) -> str:
        """Send a command to HAProxy's stats socket; its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.tmp / "haproxy.sock"))
            sock.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def up(self) -> set[str]:
        """The servers HAProxy counts up now."""
        with contextlib.suppress(OSError):
            lines = self.haproxy_command("show servers state cardtable").splitlines()
            rows = [line.split() for line in lines[2:] if line.strip()]
            # columns: be_id be_name srv_id srv_name srv_addr srv_op_state … (2 = running)
            return {row[3] for row in rows if len(row) > 5 and row[5] == "2"}
        return set()

    def wait_up(self, names: list[str], timeout: float = 30.0) -> None:
        """Wait until HAProxy counts each of ``names`` up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._haproxy is not None and self._haproxy.poll() is not None:
                raise RuntimeError("haproxy exited: " + self.log("haproxy"))
            if set(names) <= self.up():
                return
            time.sleep(0.05)
        raise TimeoutError(f"haproxy did not count {names} up (up: {sorted(self.up())})")

    def log(self, name: str) -> str:
        with contextlib.suppress(OSError):
            return (self.tmp / f"{name}.log").read_text(errors="replace")[-3000:]
        return ""

    @property
    def proxy_pid(self) -> int | None:
        """HAProxy's PID (None before it started)."""
        return self._haproxy.pid if self._haproxy is not None else None

    def logs(self) -> str:
        """The end of every log of the run (the servers', HAProxy's), to show on a failure."""
        parts = [f"--- {s.name} ---\n{s.tail()}" for s in self.servers]
        return "\n".join([*parts, f"--- haproxy ---\n{self.log('haproxy')}"])

    def server_pids(self) -> list[int]:
        """The PIDs of the server processes alive now."""
        return [s.pid for s in self.servers if s.alive()]

    # ------------------------------------------------------------------ act
    def kill(self, index: int, signum: int = signal.SIGKILL, wait: float = 30.0) -> None:
        """Send ``signum`` to server ``index`` and wait until it has exited."""
        server = self.servers[index]
        server.signal(signum)
        assert server.proc is not None
        server.proc.wait(timeout=wait)

    def restart(self, index: int) -> None:
        """Start server ``index`` again on its port; returns once HAProxy counts it up."""
        server = self.servers[index]
        # A new instance id: an id is never reused while an earlier process of that id
        # might still hold leases.
        server.starts += 1
        server.command = self._command(server.port, f"{server.name}-{server.starts}")
        server.start()
        server.wait_healthy()
        self.wait_up([server.name])

    # ------------------------------------------------------------------ stop
    def stop(self) -> None:
        """Stop everything started, by PID: the proxy, the servers (and their worker
        processes), the private Redis; drop the run's database and delete its Redis
        keys."""
        if self in _RUNNING:
            _RUNNING.remove(self)
        if self._haproxy is not None and self._haproxy.poll() is None:
            self._haproxy.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._haproxy.wait(timeout=10)
            if self._haproxy.poll() is None:
                self._haproxy.kill()
        for server in self.servers:
            server.stop()
        if self._redis is not None:
            self._redis.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._redis.wait(timeout=10)
            if self._redis.poll() is None:
                self._redis.kill()
        elif self.redis_url is not None and self.prefix:
            with contextlib.suppress(Exception):
                import redis

                client = redis.Redis.from_url(self.redis_url)
                keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
                if keys:
                    client.delete(*keys)
                client.close()
        if self._database is not None:
            with contextlib.suppress(Exception), _pg_admin() as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self._database}" WITH (FORCE)')
            self._database = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
