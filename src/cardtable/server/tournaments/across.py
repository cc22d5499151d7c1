"""Tournaments across several processes: what the director and the pages ask of a
table's owner, and how the processes tell each other that a tournament changed.

A tournament's director runs on the process holding the tournament's lease; its
round's tables are made there, but any process may own one later (a process died and
another took the table), and a player's page may be served by any process. So:

* a **seat claim** (:func:`claim`) is an errand run by the table's owner
  (:meth:`~cardtable.server.ownership.Ownership.ask`): the owner seats the player with
  the token the tournament keeps for them. It is idempotent: a seat already held by the
  same account is a success (another page of theirs claimed it first);
* a **forfeit** closes a table still waiting past the time-out on its owner too
  (:func:`discard`), so the director may run anywhere;
* a **change** (a command stored by any process, a step of the director) is told to
  the other processes as news (:data:`NEWS`): the director's process looks at once,
  the others' pages read the tournament again. The director still looks at storage
  every ``renew_seconds`` and the pages poll as often, so a lost message only delays.

On one process every function here acts on the local hub directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from cardtable.server.ownership import Unanswered
from cardtable.server.runtime import Hub, HubError
from cardtable.table import TableError

__all__ = ["CLAIM", "DISCARD", "NEWS", "Discarded", "claim", "discard", "install"]

log = logging.getLogger("cardtable.server.tournaments")

#: The errand that seats a player at their tournament table (run by its owner).
CLAIM = "tournament.claim"
#: The errand that closes a tournament table still waiting (run by its owner).
DISCARD = "tournament.discard"
#: News: the tournament named changed (look at it again).
NEWS = "tournament"

#: What :func:`discard` did: ``closed`` (with the seats as they were), ``absent`` (no
#: process has the table: lost with a crash before it started — the stored seats tell
#: who sat), ``playing`` (every seat was claimed meanwhile: it plays) or ``later`` (its
#: owner did not answer: look again).
Discarded = tuple[Literal["closed", "absent", "playing", "later"], list[dict[str, Any]] | None]


def install(hub: Hub, heard: Callable[[str], None]) -> None:
    """With several processes: run the tournaments' errands for the tables owned here,
    and pass the tournament news of other processes to ``heard``."""
    cluster = hub.cluster
    if cluster is None:
        return

    async def run_claim(args: dict[str, Any]) -> dict[str, Any]:
        seated = await claim_here(
            hub, args["table"], args["seat"], args["name"], args["account"], args["token"]
        )
        return {"moved": True} if seated is None else {"seated": seated}

    async def run_discard(args: dict[str, Any]) -> dict[str, Any]:
        kind, seats = await discard_here(hub, args["table"])
        return {"moved": True} if kind == "absent" else {"kind": kind, "seats": seats}

    cluster.serve(CLAIM, run_claim)
    cluster.serve(DISCARD, run_discard)
    cluster.listen(NEWS, heard)


def tell(hub: Hub, tournament_id: str) -> None:
    """Tell the other processes that the tournament changed (none: nothing to do)."""
    if hub.cluster is not None:
        hub.cluster.tell(NEWS, tournament_id)


# ----------------------------------------------------------------------- claims
async def claim(hub: Hub, table_id: str, seat: int, name: str, account: str, token: str) -> bool:
    """Seat ``name`` (account ``account``) at seat ``seat`` of their table with their
    token, on whichever process owns the table; True when the seat is theirs now
    (already, too), False when it is not to be had now (the table was closed by
    forfeit, or its owner cannot answer: the page asks again on its next look)."""
    if hub.cluster is None:
        return bool(await claim_here(hub, table_id, seat, name, account, token))
    args = {"seat": seat, "name": name, "account": account, "token": token}
    try:
        answer = await hub.cluster.ask(table_id, CLAIM, args)
    except Unanswered as exc:
        log.info("seat %d of table %s not claimed now: %s", seat, table_id, exc)
        return False
    return answer is not None and bool(answer.get("seated"))


async def claim_here(
    hub: Hub, table_id: str, seat: int, name: str, account: str, token: str
) -> bool | None:
    """:func:`claim` on the table's owner: ``None`` when the table is not here."""
    live = hub.tables.get(table_id)
    if live is None or live.gone:
        return None
    target = live.table.seats[seat]
    if target.filled:
        return target.account == account
    invite = target.invite
    if invite is None:
        return False
    try:
        await hub.join(table_id, invite, name, account, token=token)
    except HubError as exc:
        if exc.code in ("seat_taken", "already_seated"):  # by another of their pages
            return live.table.seats[seat].account == account
        if exc.code == "moved":  # handed over meanwhile: ask its new owner
            return None
        if exc.code == "no_table":  # closed by forfeit meanwhile
            return False
        raise
    except TableError:
        return False
    return True


# --------------------------------------------------------------------- forfeits
async def discard(hub: Hub, table_id: str) -> Discarded:
    """Close a table still waiting for its players, on whichever process owns it."""
    if hub.cluster is None:
        return await discard_here(hub, table_id)
    try:
        answer = await hub.cluster.ask(table_id, DISCARD, {})
    except Unanswered as exc:
        log.info("table %s not closed now: %s", table_id, exc)
        return "later", None
    if answer is None:
        return "absent", None
    kind = answer["kind"]
    if kind not in ("closed", "playing"):
        return "later", None
    return kind, answer["seats"]


async def discard_here(hub: Hub, table_id: str) -> Discarded:
    """:func:`discard` on this process's hub."""
    closed = await hub.discard_waiting(table_id)
    if closed is not None:
        return "closed", [seat.to_dict() for seat in closed.seats]
    live = hub.tables.get(table_id)
    if live is None or live.gone:
        return "absent", None
    return "playing", None
