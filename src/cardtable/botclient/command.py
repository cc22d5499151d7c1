"""The ``cardtable connect`` command (its options and its run); the CLI registers it.

The heavy imports (httpx, the bots) happen when the command runs, so ``cardtable``'s
other commands do not pay for them.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["connect"]


def connect(
    server: Annotated[str, typer.Option(help="The server's address, e.g. http://127.0.0.1:8000.")],
    token: Annotated[
        str,
        typer.Option(
            envvar="CARDTABLE_TOKEN",
            help="A personal API token of a bot account (scope bot:play); or $CARDTABLE_TOKEN.",
        ),
    ],
    bot: Annotated[
        list[str],
        typer.Option(
            help="The bot: ismcts:300, model, learned:PATH, a level, or module:Class; "
            "GAME=SPEC for one game (repeatable).",
        ),
    ],
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="Games at once.")] = 1,
    rated: Annotated[bool, typer.Option(help="Accept rated challenges.")] = True,
    untimed: Annotated[bool, typer.Option(help="Accept games without a clock.")] = True,
    min_seconds: Annotated[
        float | None, typer.Option(min=0, help="Decline clocks starting under this.")
    ] = None,
    max_seconds: Annotated[
        float | None, typer.Option(min=0, help="Decline clocks starting over this.")
    ] = None,
    log_dir: Annotated[
        Path | None, typer.Option(help="Save each finished game's record here.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bots (default: random).")] = None,
    tournament: Annotated[
        list[str] | None,
        typer.Option(help="Join this tournament (it must allow bot accounts; repeatable)."),
    ] = None,
) -> None:
    """Play on a cardtable server as a bot account, with a bot of the project or your own
    (docs/bot-api.md): accept challenges within the limits, play every game, reconnect
    after a dropped connection or a restart, log each game."""
    from cardtable.botclient.client import BotClient, Limits, Revoked
    from cardtable.botclient.players import read_roster
    from cardtable.errors import BadOptions

    try:
        roster = read_roster(bot)
    except BadOptions as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    limits = Limits(concurrency, rated, untimed, min_seconds, max_seconds)
    client = BotClient(
        server,
        token,
        roster,
        limits,
        log_dir=log_dir,
        seed=seed,
        tournaments=tuple(tournament or ()),
    )
    try:
        asyncio.run(client.run())
    except Revoked as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        pass
