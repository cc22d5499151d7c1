"""Errands run by a table's owner, and news told to every process.

An *errand* is a named coroutine another part of the server registers
(:meth:`Errands.serve`; the tournaments' seat claim and forfeit,
:mod:`cardtable.server.tournaments.across`) and asks for by table:
:meth:`Errands.ask` finds the table's owner as a forwarded HTTP request does
(:meth:`~.node.Cluster.locate`, claiming a table nobody holds), runs the errand there —
in this process when it is the owner, else over Redis (``ask`` to the owner, ``told``
back) — and looks for the owner again when the answer says the table moved meanwhile.

*News* (:meth:`Errands.tell`) is one message to every other process, ``news <name>
<sender> <subject>``, heard by whoever :meth:`Errands.listen` s for it: a hint to look
at storage now (a tournament changed), never the only way anything is learnt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from cardtable.server.cluster.bus import Bus
from cardtable.server.ownership import Errand, Unanswered

__all__ = ["ERRAND_SECONDS", "ERRAND_TRIES", "MOVED", "Errands"]

log = logging.getLogger("cardtable.server.cluster")

#: Seconds an errand waits for the owner's answer.
ERRAND_SECONDS = 10.0

#: Times an errand is sent to the table's owner as it is found now, when the answer
#: says the table is not there (it moved meanwhile).
ERRAND_TRIES = 5

#: The answer of an errand run where its table is not (any more): look again.
MOVED: dict[str, Any] = {"moved": True}


class Errands(Bus):
    """Errands and news; the state is set by :class:`~.node.Cluster`."""

    _errands: dict[str, Errand]
    _hearers: dict[str, list[Callable[[str], None]]]
    _asked: dict[str, asyncio.Future[dict[str, Any]]]

    def serve(self, name: str, errand: Errand) -> None:
        """Run ``errand`` here when a process asks for ``name``."""
        self._errands[name] = errand

    def listen(self, name: str, hear: Callable[[str], None]) -> None:
        """Call ``hear`` with the subject of each ``name`` news from another process."""
        self._hearers.setdefault(name, []).append(hear)

    def tell(self, name: str, subject: str) -> None:
        """Tell every other process ``name`` news about ``subject``."""
        self._outbox.put_nowait((self.key("all"), f"news {name} {self.me} {subject}"))

    def _heard(self, name: str, payload: str) -> None:
        sender, _, subject = payload.partition(" ")
        if sender == self.me:
            return
        for hear in self._hearers.get(name, ()):
            try:
                hear(subject)
            except Exception:
                log.exception("news %s %s", name, subject)

    async def ask(self, table_id: str, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Run errand ``name`` on the owner of ``table_id``; its answer, or ``None`` when
        no process holds the table nor can load it (there is no such table). Raises
        :class:`~cardtable.server.ownership.Unanswered` when the owner does not answer
        within :data:`ERRAND_SECONDS`, or the table keeps moving, or this process is
        stopping."""
        body = {"name": name, "table": table_id, "args": args}
        for attempt in range(ERRAND_TRIES):
            owner = await self.locate(table_id)
            if owner is None:
                if self.draining:
                    raise Unanswered(f"stopping: cannot ask the owner of table {table_id}")
                return None
            if owner == self.me:
                answer = await self._run_errand(body)
            else:
                answer = await self._send_errand(owner, body)
            if answer.get("failed"):
                raise Unanswered(f"errand {name} failed at the owner of table {table_id}")
            if not answer.get("moved"):
                return answer
            await asyncio.sleep(0.02 * (attempt + 1))
        raise Unanswered(f"table {table_id} kept moving")

    async def _send_errand(self, owner: str, body: dict[str, Any]) -> dict[str, Any]:
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._asked[rid] = future
        self.send(owner, "ask", rid, json.dumps({**body, "edge": self.me}))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ERRAND_SECONDS
        try:
            while True:
                # Waited in slices: an owner that died meanwhile is given up at once.
                left = deadline - loop.time()
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(asyncio.shield(future), min(left, self.every))
                if left <= self.every or not await self._alive(owner):
                    raise Unanswered(f"{owner} did not answer errand {body['name']}")
        finally:
            future.cancel()
            self._asked.pop(rid, None)

    async def _alive(self, instance: str) -> bool:
        """Whether process ``instance`` keeps its ``alive`` key (it lives)."""
        if self.redis is None:
            return True
        try:
            return bool(await self.redis.exists(self.key("alive", instance)))
        except Exception:
            return True

    async def _run_errand(self, body: dict[str, Any]) -> dict[str, Any]:
        """Run an errand here: the table is not here (or nothing serves that errand
        yet, a process starting) -> :data:`MOVED`; an errand that fails -> ``failed``."""
        errand = self._errands.get(body["name"])
        live = self.hub.tables.get(body["table"])
        if errand is None or live is None or live.gone:
            return MOVED
        try:
            return await errand({"table": body["table"], **body["args"]})
        except Exception:
            log.exception("errand %s on table %s failed", body["name"], body["table"])
            return {"failed": True}

    async def _answer_errand(self, rid: str, text: str) -> None:
        """An errand asked by another process: run it, send the answer back."""
        body = json.loads(text)
        answer = await self._run_errand(body)
        self.send(body["edge"], "told", rid, json.dumps(answer))

    def _told(self, rid: str, text: str) -> None:
        future = self._asked.get(rid)
        if future is not None and not future.done():
            future.set_result(json.loads(text))
