"""The online play server: ``cardtable serve`` (needs the ``server`` extra).

Layers, each in its own module:

- :mod:`cardtable.table` (below the server) — the authority over one match, a pure class
  without I/O; games come from :mod:`cardtable.games.registry`, bots from
  :mod:`cardtable.bots.seat`.
- :mod:`.protocol` — the pydantic models of every message.
- :mod:`.core` — the table protocol without I/O: a message in, typed messages out.
- :mod:`.runtime` — live tables, locks, storage and timers around the core (the I/O
  side); :mod:`.connection` — one WebSocket's send queue and rate limit;
  :mod:`.thinking` — bots (and hints, apart) thinking on an executor;
  :mod:`.limits` — token buckets of the hint route and the login limits;
  :mod:`.seeks` — the play-now queues; :mod:`.shared` — the Redis that several
  processes share these through (``--redis``); :mod:`.settings`.
- :mod:`.storage`, :mod:`.models`, ``migrations/`` — SQLAlchemy 2 + Alembic.
- :mod:`.ratings` — openskill ratings.
- :mod:`.app` and :mod:`.routes` — the FastAPI application and its routers.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Sequence
from typing import Any

from cardtable.errors import CardtableError

__all__ = [
    "ServerStartError",
    "address",
    "check_database",
    "check_mail",
    "check_proxies",
    "listen",
    "serve",
    "server_config",
]


class ServerStartError(CardtableError):
    """The server cannot start: its database cannot be opened or its port is taken.

    The command line prints the message as one line and exits non-zero, before it says
    where to point a browser.
    """


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///cardtable.db",
    *,
    log_level: str = "info",
    trusted_proxies: Sequence[str] = (),
    **settings: Any,
) -> None:
    """Run the server until interrupted (blocks). ``settings`` tune :class:`.settings.Settings`.

    ``trusted_proxies`` are the addresses (or networks) of the reverse proxies whose
    ``X-Forwarded-For`` names the client (:func:`server_config`); none by default.
    The database is opened (and migrated) and the port bound before the address is
    printed: a server that cannot start raises :class:`ServerStartError` and prints no
    "open …" line.
    """
    import gc

    # Thousands of live connections and game states make the full (generation 2)
    # collections of the default settings pause the process for a few hundred
    # milliseconds several times a minute; larger thresholds make them rare, and the
    # young collections stay short (measured with benchmarks/bench_server.py).
    gc.set_threshold(50_000, 50, 100)

    from cardtable.server.app import create_app
    from cardtable.server.settings import Settings

    check_proxies(trusted_proxies)
    check_mail(settings)
    settings.setdefault("public_url", None)
    if settings["public_url"] is None:
        settings["public_url"] = address(host, port)
    check_database(db)
    sock = listen(host, port)
    app = create_app(db, settings=Settings(**settings))
    config = server_config(
        app,
        host,
        port,
        log_level=log_level,
        trusted_proxies=trusted_proxies,
        # One of several processes has handed its tables over before uvicorn stops:
        # what is left (idle sockets, a last request) need not hold the exit up; nor do
        # the Bot API's open streams, which never end by themselves (bots reconnect).
        timeout_graceful_shutdown=5,
    )
    # The one line people need: where to point the browser (the client is served at /).
    print(f"cardtable server: open {address(host, port)} in a browser", flush=True)
    try:
        _Server(config, app).run(sockets=[sock])
    finally:
        sock.close()


def server_config(
    app: Any,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    trusted_proxies: Sequence[str] = (),
    timeout_graceful_shutdown: int | None = None,
) -> Any:
    """uvicorn's configuration of the server (a ``uvicorn.Config``).

    The client's address (which the login, hint and analysis limits count) is the
    connection's, unless the connection comes from one of ``trusted_proxies``: then it
    is the last address of ``X-Forwarded-For`` that is not a trusted proxy's (an
    address that is not an IP address or network raises :class:`ServerStartError`). With no
    trusted proxy the header is ignored altogether: uvicorn's own default trusts
    127.0.0.1, so any local client could choose its "address" for the limits.
    """
    import uvicorn

    from cardtable.server.protocol import MAX_MESSAGE_BYTES

    check_proxies(trusted_proxies)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=MAX_MESSAGE_BYTES * 4,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) if trusted_proxies else [],
        timeout_graceful_shutdown=timeout_graceful_shutdown,
    )


def check_proxies(trusted_proxies: Sequence[str]) -> None:
    """Raise :class:`ServerStartError` for a trusted proxy that is not an IP address
    or network (uvicorn would take it for a socket path and silently trust nothing).

    >>> check_proxies(["127.0.0.1", "10.0.0.0/8", "::1"])
    >>> check_proxies(["localhost"])
    Traceback (most recent call last):
    ...
    cardtable.server.ServerStartError: --trusted-proxy 'localhost' is not an IP address or network
    """
    import ipaddress

    for proxy in trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ServerStartError(
                f"--trusted-proxy {proxy!r} is not an IP address or network"
            ) from None


def check_mail(settings: dict[str, Any]) -> None:
    """Check the ``--smtp`` URL (:class:`ServerStartError` when it cannot be read) and
    give the links in mails the server's own address when no ``--public-url`` is set,
    never the ``Host`` a request claims (a forged one would send the links elsewhere).

    >>> chosen = {"smtp_url": "smtp://127.0.0.1:2525"}
    >>> check_mail(chosen)
    >>> check_mail({"smtp_url": "smtp://"})
    Traceback (most recent call last):
    ...
    cardtable.server.ServerStartError: --smtp: an --smtp URL names a host: smtp://HOST[:PORT]
    """
    from cardtable.server.mail import parse_smtp_url

    url = settings.get("smtp_url")
    if url is not None:
        try:
            parse_smtp_url(url)
        except ValueError as exc:
            raise ServerStartError(f"--smtp: {exc}") from None
    public = settings.get("public_url")
    if public is not None and not public.startswith(("http://", "https://")):
        raise ServerStartError(f"--public-url {public!r} starts with http:// or https://")


def _server_class() -> type[Any]:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server; on SIGTERM, with several processes, the tables are handed
        over (:meth:`.cluster.Cluster.drain`) before uvicorn stops."""

        def __init__(self, config: Any, app: Any) -> None:
            super().__init__(config)
            self.app = app
            self.draining = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            import asyncio
            import signal

            hub = getattr(self.app.state, "hub", None)
            cluster = hub.cluster if hub is not None else None
            if sig != signal.SIGTERM or cluster is None or self.draining:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            loop = asyncio.get_running_loop()

            async def drain() -> None:
                try:
                    await asyncio.wait_for(cluster.drain(), 20)
                except Exception:
                    import logging

                    logging.getLogger("cardtable.server").exception("handing over failed")
                finally:
                    uvicorn.Server.handle_exit(self, sig, frame)

            task = loop.create_task(drain())
            self._drain_task = task  # kept until done

    return Server


def _Server(config: Any, app: Any) -> Any:  # noqa: N802 - reads as the class it makes
    return _server_class()(config, app)


def check_database(db: str) -> None:
    """Open (and migrate) the database at URL ``db`` once, or raise :class:`ServerStartError`
    saying in one line why it cannot be opened (a bad URL, a missing driver, a folder
    that does not exist or cannot be written, a database server that refuses)."""
    import sqlalchemy.exc

    from cardtable.server.storage import Storage

    try:
        Storage(db).close()
    except (sqlalchemy.exc.SQLAlchemyError, OSError, ValueError) as exc:
        reason = getattr(exc, "orig", None) or exc
        detail = str(reason).strip().splitlines()[0] if str(reason).strip() else type(exc).__name__
        raise ServerStartError(f"cannot open the database {_shown_url(db)!r}: {detail}") from None


def _shown_url(db: str) -> str:
    """``db`` as it may be printed: any password masked."""
    import sqlalchemy.engine
    import sqlalchemy.exc

    try:
        return sqlalchemy.engine.make_url(db).render_as_string(hide_password=True)
    except sqlalchemy.exc.ArgumentError:
        return db


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, for the server to serve on;
    :class:`ServerStartError` when the port is in use or the address is not this
    machine's."""
    if not 1 <= port <= 65535:
        raise ServerStartError(f"port {port} is not a port: expected 1-65535")
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServerStartError(f"cannot listen on {host!r}: {exc.strerror}") from None
    family, kind, proto, _name, sockaddr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(sockaddr)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServerStartError(
                f"port {port} on {host} is in use: stop what listens there or pick another --port"
            ) from None
        raise ServerStartError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> address("0.0.0.0", 8000)
    'http://127.0.0.1:8000/'
    >>> address("::1", 8080)
    'http://[::1]:8080/'
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"
