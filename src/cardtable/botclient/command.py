"""The ``cardtable connect`` command (its options and its run); the CLI registers it.

The heavy imports (httpx, the bots) happen when the command runs, so ``cardtable``'s
other commands do not pay for them. The options' help texts are catalogue messages
(``cli:help.connect.*``, :mod:`cardtable.cli_help`), shown in the reader's language.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer

from cardtable.cli_help import help_text as _h

__all__ = ["connect"]


def connect(
    server: Annotated[str, typer.Option(help=_h("connect.server"))],
    token: Annotated[
        str,
        typer.Option(
            envvar="CARDTABLE_TOKEN",
            help=_h("connect.token"),
        ),
    ],
    bot: Annotated[
        list[str],
        typer.Option(
            help=_h("connect.bot"),
        ),
    ],
    concurrency: Annotated[int, typer.Option(min=1, max=64, help=_h("connect.concurrency"))] = 1,
    rated: Annotated[bool, typer.Option(help=_h("connect.rated"))] = True,
    untimed: Annotated[bool, typer.Option(help=_h("connect.untimed"))] = True,
    min_seconds: Annotated[
        float | None, typer.Option(min=0, help=_h("connect.min_seconds"))
    ] = None,
    max_seconds: Annotated[
        float | None, typer.Option(min=0, help=_h("connect.max_seconds"))
    ] = None,
    log_dir: Annotated[Path | None, typer.Option(help=_h("connect.log_dir"))] = None,
    seed: Annotated[int | None, typer.Option(help=_h("connect.seed"))] = None,
    tournament: Annotated[
        list[str] | None,
        typer.Option(help=_h("connect.tournament")),
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
