"""Where the Ray backend runs: a cluster that is already running, or one started for
the arena on this machine, listening on loopback and on ports the user may pin.

``ray.init()`` alone starts a local cluster whose processes listen on every interface
(its node address is the host's, not loopback) on random ports, and offers no way to
choose either. So a local cluster is started the way Ray documents for pinned ports,
``ray start --head --block`` with each port given, as a child process of the arena;
the arena connects to it and stops it (its whole process group) when done.

- ``address`` (``--ray-address``): join a running cluster; nothing is started.
- ``host`` (``--ray-host``, default ``127.0.0.1``): the address the local cluster
  listens on. Loopback keeps it off the network; another address lets other machines
  join it (``ray start --address HOST:PORT``).
- ``port`` (``--ray-port``): the first of the local cluster's ports. It uses
  :data:`NAMED_PORTS` from there on (the cluster's own port, ``port``, first), then
  :data:`WORKER_PORTS` for its workers: a firewall needs one range opened. Without
  it the cluster's port is a free one and the rest are Ray's choice.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cardtable.errors import BadOptions

__all__ = [
    "NAMED_PORTS",
    "WORKER_PORTS",
    "RayPlace",
    "local_cluster",
    "loopback_driver",
    "port_span",
]

#: The local cluster's ports besides the workers', in order from ``--ray-port``.
NAMED_PORTS = (
    "port",
    "node-manager-port",
    "object-manager-port",
    "dashboard-agent-listen-port",
    "dashboard-agent-grpc-port",
    "runtime-env-agent-port",
    "metrics-export-port",
)

#: Ports kept for worker processes after the named ones (Ray needs one per worker).
WORKER_PORTS = 64

#: The authentication token of the local clusters this process starts.
_TOKEN = secrets.token_hex(32)

#: Seconds the local cluster may take to start listening.
START_TIMEOUT = 120.0


def port_span(workers: int) -> int:
    """How many ports from ``--ray-port`` on a local cluster of ``workers`` uses.

    >>> port_span(2)
    71
    """
    return len(NAMED_PORTS) + max(WORKER_PORTS, 2 * workers)


@dataclass(frozen=True)
class RayPlace:
    """Where the ray backend runs: a running cluster (``address``) or a local one."""

    address: str | None = None
    host: str = "127.0.0.1"
    port: int | None = None

    def check(self, workers: int) -> None:
        """Raise :class:`BadOptions` for options that cannot work together or at all."""
        if self.address is not None and (self.port is not None or self.host != "127.0.0.1"):
            raise BadOptions(
                "--ray-port and --ray-host start a local cluster; --ray-address joins a "
                "running one: give one or the other"
            )
        try:
            ipaddress.ip_address(self.host)
        except ValueError:
            raise BadOptions(f"--ray-host {self.host!r} is not an IP address") from None
        if self.port is not None and not 1024 <= self.port <= 65535 - port_span(workers):
            raise BadOptions(
                f"--ray-port {self.port}: the local cluster uses {port_span(workers)} ports "
                f"from it, which must lie in 1024-65535"
            )

    def start_command(self, workers: int, port: int) -> list[str]:
        """The ``ray start`` command of a local cluster of ``workers`` CPUs listening
        on ``host`` with its own port ``port`` (and, with :attr:`port`, every other
        port pinned after it)."""
        ray = Path(sys.executable).with_name("ray")
        command = [str(ray), "start", "--head", "--block", "--node-ip-address", self.host]
        command += ["--port", str(port), "--num-cpus", str(workers)]
        command += ["--include-dashboard", "false", "--disable-usage-stats"]
        if self.port is not None:
            for offset, name in enumerate(NAMED_PORTS[1:], start=1):
                command += [f"--{name}", str(self.port + offset)]
            first = self.port + len(NAMED_PORTS)
            last = self.port + port_span(workers) - 1
            command += ["--min-worker-port", str(first), "--max-worker-port", str(last)]
        return command

    def environment(self) -> dict[str, str]:
        """The local cluster's environment: on loopback, Ray's single-machine mode
        (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``), without which Ray replaces a
        loopback node address by the host's and listens on every interface."""
        env = dict(os.environ)
        if ipaddress.ip_address(self.host).is_loopback:
            env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
        return env


def loopback_driver(address: str) -> None:
    """Let this process (the driver) reach a cluster at a loopback ``address``.

    Ray replaces a loopback address by the host's own before connecting unless its
    single-machine mode is on, which it reads from the environment when it is first
    imported; so the mode is set in the environment, and in Ray's constant too when
    Ray was imported already (Ray offers no other way).
    """
    host = address.rsplit(":", 1)[0].strip("[]")
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        return
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None and getattr(constants, "ENABLE_RAY_CLUSTER", False):
        setattr(constants, "ENABLE_RAY_CLUSTER", False)  # noqa: B010 - a module of Ray


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _listening(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


@contextlib.contextmanager
def local_cluster(place: RayPlace, workers: int) -> Iterator[str]:
    """Start a local cluster as :meth:`RayPlace.start_command` says; yield its address
    (``host:port``) once it listens; stop its whole process group on the way out."""
    port = place.port if place.port is not None else _free_port(place.host)
    if _listening(place.host, port):
        raise BadOptions(f"port {port} on {place.host} is in use: pick another --ray-port")
    # A token of this process: only it (the driver) may use the cluster. One per
    # process, as Ray reads the token once; a token already set is kept.
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": os.environ.get("RAY_AUTH_TOKEN", _TOKEN)}
    output = tempfile.TemporaryFile("w+")  # noqa: SIM115 - closed below
    head = subprocess.Popen(
        place.start_command(workers, port),
        env={**place.environment(), **auth},
        stdout=output,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: stopped as one
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _listening(place.host, port):
            if head.poll() is not None or time.monotonic() > deadline:
                output.seek(0)
                lines = [line for line in output.read().splitlines() if line.strip()]
                reason = lines[-1] if lines else "it did not start listening"
                raise BadOptions(f"the local Ray cluster did not start: {reason}")
            time.sleep(0.2)
        host = f"[{place.host}]" if ":" in place.host else place.host
        with _environment(auth):
            yield f"{host}:{port}"
    finally:
        _stop(head)
        output.close()


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """This process's environment with ``values`` set, as it was afterwards."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _stop(process: subprocess.Popen[str]) -> None:
    """Stop ``ray start`` and everything it started: SIGTERM to the group, SIGKILL
    to what is left after a few seconds (a drained head may hang on exit)."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 10.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(wait)
            if sig == signal.SIGTERM:
                # The head is gone; its children may still be exiting.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
            return
