"""The table protocol without I/O: a client's message in, typed messages out.

docs/protocol.md describes the conversation; this module is all of its logic, and
nothing here awaits, reads a clock or touches a socket or a database. A
:class:`TableCore` wraps one :class:`~cardtable.table.Table` (the authority over the
match) and the presence of its seats. Each call takes what happened — a client's
message (:meth:`TableCore.receive`), a bot's move (:meth:`TableCore.submit`), a
connection closing, a grace period or a pause running out — with ``now`` passed in, and
returns the :data:`Effect` list the runtime (:mod:`.runtime`) carries out in order:

* :class:`Store` — persist the table (and the accepted move) before anything after it;
* :class:`Broadcast` — an ``update`` to every greeted connection, each with its own
  :class:`~.protocol.State` (:meth:`TableCore.update` builds it);
* :class:`Send` — a message to the connection the call was about;
* :class:`Away` and :class:`Back` — a seat lost its last connection or has one again
  (the runtime starts or cancels its grace period).

Every message leaving the server is one of the pydantic models of :mod:`.protocol`.
Refusals carry the table's ``code``, the English ``message`` and its ``message_id`` and
``params``, so a client can say them in its player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from cardtable.games.base import MatchEvent
from cardtable.server.inputs import BadInput, check_json
from cardtable.server.protocol import (
    CLIENT_MESSAGE,
    MAX_MESSAGE_BYTES,
    Abort,
    Ack,
    Chat,
    ClientMessage,
    Error,
    Event,
    Hello,
    Move,
    PastMove,
    Ping,
    Pong,
    Ready,
    Resign,
    Resync,
    ServerMessage,
    State,
    Sync,
    Takeback,
    Update,
    Welcome,
)
from cardtable.table import Answer, MoveEntry, Source, Status, Table, TableError

__all__ = [
    "Away",
    "Back",
    "Broadcast",
    "Effect",
    "Peer",
    "Send",
    "Store",
    "TableCore",
    "read",
    "refusal",
]

#: Message ids of the protocol's own refusals are ``server.<code>``.
MESSAGE_ID_PREFIX: Final = "server."


@dataclass(eq=False, slots=True)
class Peer:
    """One connection as the protocol sees it: greeted yet, and as which seat."""

    seat: int | None = None
    greeted: bool = False


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to the connection the call was about."""

    message: ServerMessage


@dataclass(frozen=True, slots=True)
class Store:
    """Persist the table — with ``entry``, the move just accepted — before what follows.

    ``ended``: the match ended without a move (resigned or aborted), so its result and
    record are stored too; ``cut``: the moves from that version on were taken back.
    """

    entry: MoveEntry | None = None
    ended: bool = False
    cut: int | None = None


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Push an ``update`` with ``event`` to every greeted connection but ``skip``;
    ``shown`` are a move's engine events, each recipient getting what its seat may see."""

    event: Event
    skip: Peer | None = None
    shown: tuple[MatchEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class Away:
    """``seat`` has no connection left while the match is on: its grace period starts."""

    seat: int


@dataclass(frozen=True, slots=True)
class Back:
    """``seat`` has a connection again: its grace period (if any) ends."""

    seat: int


Effect = Send | Store | Broadcast | Away | Back


def refusal(
    code: str,
    message: str,
    *,
    version: int | None,
    move_id: str | None = None,
    message_id: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Error:
    """An ``error``; without a ``message_id`` the protocol's own, ``server.<code>``."""
    return Error(
        type="error",
        version=version,
        code=code,
        message=message,
        message_id=message_id or MESSAGE_ID_PREFIX + code,
        params=dict(params or {}),
        move_id=move_id,
    )


def read(raw: str | bytes | None, version: int | None) -> ClientMessage | Error:
    """A client's frame as a message of :mod:`.protocol`, or the ``error`` that refuses it."""
    if raw is None or isinstance(raw, bytes):
        return refusal("bad_message", "send JSON text messages", version=version)
    if len(raw.encode()) > MAX_MESSAGE_BYTES:
        return refusal(
            "too_large",
            f"a message may be at most {MAX_MESSAGE_BYTES} bytes",
            version=version,
            params={"limit": MAX_MESSAGE_BYTES},
        )
    try:
        check_json(raw)
    except BadInput as exc:
        return refusal(exc.code, exc.message, version=version, params=exc.params)
    try:
        return CLIENT_MESSAGE.validate_json(raw)
    except ValidationError as exc:
        problems = exc.errors()
        where = ".".join(str(p) for p in problems[0]["loc"] if p) if problems else ""
        detail = problems[0]["msg"] if problems else "invalid message"
        return refusal(
            "bad_message",
            f"{where}: {detail}" if where else detail,
            version=version,
            params={"field": where, "detail": detail},
        )


class TableCore:
    """The protocol of one table (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: Live connections per seat (a seat may have several, e.g. two browser tabs).
        self.present: dict[int, int] = {}

    # ---------------------------------------------------------------- messages out
    def state(self, seat: int | None, now: float) -> State:
        """Everything ``seat`` (``None``: a spectator) may see now."""
        return State.model_validate(self.table.snapshot(seat, now))

    def update(
        self, event: Event, seat: int | None, now: float, shown: tuple[MatchEvent, ...] = ()
    ) -> Update:
        """The ``update`` one recipient gets for ``event``, with the move's events
        ``shown`` as ``seat`` may see them (the engine's ``seen_by`` hides the rest)."""
        if shown:
            event = event.model_copy(update={"events": [dict(e.seen_by(seat)) for e in shown]})
        return Update(
            type="update", version=self.table.version, event=event, state=self.state(seat, now)
        )

    def history(self, seat: int | None) -> list[PastMove]:
        """The match's accepted moves so far, as ``seat`` saw them come: move texts are
        public in every game; each move's events pass the engine's ``seen_by`` (a card
        drawn shows only to its drawer), as in the updates."""
        return [
            PastMove(
                seat=e.seat,
                move=e.move,
                source=e.source.value,
                events=[dict(shown.seen_by(seat)) for shown in e.events],
                time=e.time,
            )
            for e in self.table.moves
        ]

    def resync(
        self,
        seat: int | None,
        now: float,
        *,
        move_id: str | None = None,
        answer: Answer | None = None,
    ) -> Resync:
        """The full state again: after a stale move (``answer``) or on request."""
        return Resync(
            type="resync",
            version=self.table.version,
            move_id=move_id,
            reason=(answer.message if answer else None) or "requested",
            message_id=(answer.message_id if answer else None) or "server.requested",
            params=dict(answer.params) if answer else {},
            state=self.state(seat, now),
        )

    def answer(self, answer: Answer, seat: int, now: float) -> Ack | Resync | Error:
        """What the mover hears about its move: ``ack``, ``resync`` (stale) or ``error``."""
        if answer.outcome == "accepted" and answer.move_id is not None:
            return Ack(
                type="ack",
                version=self.table.version,
                move_id=answer.move_id,
                move_version=answer.version,
            )
        if answer.outcome == "stale":
            return self.resync(seat, now, move_id=answer.move_id, answer=answer)
        return refusal(
            answer.code or "refused",
            answer.message or "refused",
            version=self.table.version,
            move_id=answer.move_id,
            message_id=answer.message_id,
            params=answer.params,
        )

    def storage_failed(self, move_id: str | None) -> Error:
        """The refusal of a change that could not be stored (the table was reloaded)."""
        return refusal(
            "storage",
            "the move could not be stored; please resync",
            version=self.table.version,
            move_id=move_id,
        )

    # ----------------------------------------------------------------- messages in
    def receive(self, peer: Peer, message: ClientMessage, now: float) -> list[Effect]:
        """One client message (already read by :func:`read`) from ``peer``."""
        table = self.table
        if isinstance(message, Ping):
            return [Send(Pong(type="pong", version=table.version))]
        if isinstance(message, Hello):
            return self._hello(peer, message.token, now)
        if not peer.greeted:
            return [Send(refusal("no_hello", "say hello first", version=table.version))]
        if isinstance(message, Sync):
            if message.token is not None and table.seat_of_token(message.token) != peer.seat:
                return [self._bad_token("this token does not belong to this connection's seat")]
            return [Send(self.resync(peer.seat, now))]
        if isinstance(message, Chat):  # the runtime's chat room (.chat) answers it
            return []
        seat = table.seat_of_token(message.token)
        if seat is None or seat != peer.seat:
            move_id = message.move_id if isinstance(message, Move) else None
            return [self._bad_token("this token does not act for this connection's seat", move_id)]
        if isinstance(message, Ready):
            return self._ready(seat, now)
        if isinstance(message, Resign | Abort | Takeback):
            return self._end_or_rewind(seat, message, now)
        answer, effects = self.submit(
            seat,
            message.move,
            version=message.version,
            move_id=message.move_id,
            source=Source.PLAYER,
            now=now,
        )
        return [*effects, Send(self.answer(answer, seat, now))]

    def _bad_token(self, message: str, move_id: str | None = None) -> Send:
        return Send(refusal("bad_token", message, version=self.table.version, move_id=move_id))

    def _hello(self, peer: Peer, token: str | None, now: float) -> list[Effect]:
        table = self.table
        seat = None
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                return [self._bad_token("this token does not belong to a seat at this table")]
        if peer.greeted and peer.seat != seat:
            return [
                Send(
                    refusal(
                        "already_greeted",
                        "this connection already said hello as another seat",
                        version=table.version,
                    )
                )
            ]
        effects: list[Effect] = []
        if not peer.greeted and seat is not None:
            # Marked present first, so the welcome already shows the seat connected.
            effects = self._arrive(seat, peer, now)
        peer.seat = seat
        peer.greeted = True
        welcome = Welcome(
            type="welcome",
            version=table.version,
            seat=seat,
            state=self.state(seat, now),
            history=self.history(seat),
        )
        return [*effects, Send(welcome)]

    def _ready(self, seat: int, now: float) -> list[Effect]:
        table = self.table
        if table.paused_until is None:
            return [Send(refusal("not_paused", "the table is not pausing", version=table.version))]
        if table.ready(seat, now):
            return [Store(), Broadcast(Event(type="resume"))]
        return [Broadcast(Event(type="ready", seat=seat))]

    def _end_or_rewind(
        self, seat: int, message: Resign | Abort | Takeback, now: float
    ) -> list[Effect]:
        """Resign, abort or take back for ``seat``: stored, then told to everyone; a
        refusal (``table.<code>``) says why to the asker alone."""
        table = self.table
        try:
            if isinstance(message, Takeback):
                store = Store(cut=table.take_back(seat, now))
            else:
                if isinstance(message, Resign):
                    table.resign(seat, now)
                else:
                    table.abort(seat, now)
                store = Store(ended=True)
        except TableError as exc:
            return [
                Send(
                    refusal(
                        exc.code,
                        exc.message,
                        version=table.version,
                        message_id=f"table.{exc.code}",
                        params=exc.params,
                    )
                )
            ]
        return [store, Broadcast(Event(type=message.type, seat=seat))]

    # ------------------------------------------------------------------ the table
    def submit(
        self,
        seat: int,
        move: str | int,
        *,
        version: int | None,
        move_id: str | None,
        source: Source,
        now: float,
    ) -> tuple[Answer, list[Effect]]:
        """Judge a move (a client's or a bot's); an accepted new move is stored, then
        broadcast. A repeated move id gets its first answer and no effect."""
        table = self.table
        before = table.version
        answer = table.submit(seat, move, version=version, move_id=move_id, now=now, source=source)
        entry = answer.entry
        if answer.outcome != "accepted" or entry is None or table.version == before:
            return answer, []
        event = Event(
            type="move", seat=seat, move=entry.move, source=entry.source.value, time=entry.time
        )
        shown = answer.applied.events if answer.applied is not None else ()
        return answer, [Store(entry), Broadcast(event, shown=shown)]

    def _arrive(self, seat: int, peer: Peer, now: float) -> list[Effect]:
        self.present[seat] = self.present.get(seat, 0) + 1
        changed = self.table.set_connected(seat, True)
        if self.table.set_substituted(seat, False, now):
            changed = True  # the person is back: the stand-in leaves
        effects: list[Effect] = [Back(seat)]
        if changed:
            effects += [Store(), Broadcast(Event(type="seat", seat=seat), skip=peer)]
        return effects

    def leave(self, peer: Peer) -> list[Effect]:
        """``peer``'s connection closed; a seat left without one will be handed to a bot."""
        seat = peer.seat
        if not peer.greeted or seat is None:
            return []
        count = max(0, self.present.get(seat, 0) - 1)
        self.present[seat] = count
        effects: list[Effect] = []
        if self.table.set_connected(seat, count > 0):
            effects += [Store(), Broadcast(Event(type="seat", seat=seat))]
        if count == 0 and self.table.status is Status.PLAYING:
            effects.append(Away(seat))
        return effects

    def substitute(self, seat: int, now: float) -> list[Effect]:
        """``seat``'s grace period ran out: a bot plays for it until its person is back."""
        if self.present.get(seat, 0) or not self.table.set_substituted(seat, True, now):
            return []
        return [Store(), Broadcast(Event(type="seat", seat=seat))]

    def tick(self, now: float) -> list[Effect]:
        """Let time pass: a pause whose time is up ends (``resume``: a race's start
        count begins), a start count whose time is up ends (``go``: the race is on)."""
        table = self.table
        before = table.version
        paused = table.paused_until is not None
        table.tick(now)
        if table.version == before:
            return []
        return [Store(), Broadcast(Event(type="resume" if paused else "go"))]
