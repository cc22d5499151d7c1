"""A table: the authority over one match, as a pure class without I/O.

Everything that decides what happens at a table lives here and nowhere else: who sits
where and with which secret token, when the match starts, which move is accepted, the
table's version, idempotent move ids, stale moves, and the clocks. Time comes in as an
argument (``now``, seconds), randomness (tokens, invites, seeds) comes in from the caller,
so the class is deterministic and tested without a network, a clock or a database.

Versions. The table's ``version`` goes up by one on every change anyone can see: a seat
filled, the start, every accepted move, a seat handed to a bot or taken back. Each seat
also has a *seat version*: the version at which its own position last changed. A move
carries the version it was made against; it is **stale** when that is older than its
seat's version. In a turn-based game every move changes every seat, so any move made
against an older version is stale; in a race (Spy) a player's position changes only by
their own moves and by the end of a round, so the others' moves never make it stale.

Clocks are data: the milliseconds left to each seat and the moment the running clocks
last started. In a turn-based game only the clock of the seat to move runs; in a race the
clocks of every seat that can move run together. A seat a bot plays (a bot seat, or an
absent person's) has no running clock. Each move adds the increment to its
mover's clock. When a clock runs out, a bot moves for that seat (the caller asks the bot;
:meth:`Table.expired` says whose) and the seat gets ``max(increment, 1 s)`` more.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from cardtable.errors import CardtableError, IllegalMove
from cardtable.server.games import ANYONE, GameKind, GameSession

#: After a flag falls, the bot's move for that seat buys it at least this much time.
MIN_TIMEOUT_GRACE_MS: Final = 1000
#: Refused move ids remembered per table (accepted ones are all remembered).
REFUSED_MEMORY: Final = 512


class Status(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"  # seats still open
    PLAYING = "playing"
    FINISHED = "finished"


class Source(StrEnum):
    """Who made an accepted move."""

    PLAYER = "player"  # the seat's own client
    BOT = "bot"  # a bot seat
    SUBSTITUTE = "substitute"  # a bot standing in for an absent player
    CLOCK = "clock"  # a bot moving because the seat's time ran out


class TableError(CardtableError):
    """A request the table refuses; ``code`` is machine-readable (see docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A clock per seat: ``initial_ms`` to start with, ``increment_ms`` added per move."""

    initial_ms: int
    increment_ms: int

    def to_dict(self) -> dict[str, float]:
        """As the API shows it, in seconds."""
        return {"initial": self.initial_ms / 1000, "increment": self.increment_ms / 1000}


def hash_token(token: str) -> str:
    """Seat tokens are stored and compared only as SHA-256 digests."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    """One seat: a bot (``bot_level``) or a person (open until someone joins)."""

    index: int
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    invite: str | None = None
    #: A bot is moving for this absent person until they come back.
    substituted: bool = False
    #: The person's client is connected (bots are always present).
    connected: bool = False

    @property
    def is_bot(self) -> bool:
        """A bot seat (not a person)."""
        return self.bot_level is not None

    @property
    def filled(self) -> bool:
        """Taken by a bot or a person."""
        return self.is_bot or self.token_hash is not None

    @property
    def bot_driven(self) -> bool:
        """Its moves are made by a bot now (a bot seat or a substituted person)."""
        return self.is_bot or self.substituted

    def public(self) -> dict[str, Any]:
        """What everyone may know about the seat."""
        return {
            "index": self.index,
            "kind": "bot" if self.is_bot else ("human" if self.filled else "open"),
            "name": self.name,
            "level": self.bot_level,
            "connected": self.is_bot or self.connected,
            "substituted": self.substituted,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, for storage (the token only as its digest)."""
        return {
            "index": self.index,
            "bot_level": self.bot_level,
            "name": self.name,
            "token_hash": self.token_hash,
            "invite": self.invite,
            "substituted": self.substituted,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        """Inverse of :meth:`to_dict` (a restored person counts as disconnected)."""
        return cls(
            index=int(data["index"]),
            bot_level=data.get("bot_level"),
            name=data.get("name"),
            token_hash=data.get("token_hash"),
            invite=data.get("invite"),
            substituted=bool(data.get("substituted", False)),
        )


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """An accepted move: the version it produced, who, what, the client's id, by whom."""

    version: int
    seat: int
    move: str
    move_id: str | None
    source: Source


@dataclass(frozen=True, slots=True)
class Answer:
    """The table's answer to a move; a repeated move id gets the same one back.

    ``kind`` is ``"accepted"``, ``"stale"`` (answered with a resync) or ``"refused"``
    (with ``code`` and ``message``; a refusal by the rules also with the engine's
    ``message_id`` and ``params``, which say ``message`` in the player's language).
    """

    kind: str
    move_id: str | None
    version: int
    code: str | None = None
    message: str | None = None
    entry: MoveEntry | None = None
    message_id: str | None = None
    params: Mapping[str, Any] | None = None


@dataclass
class Table:
    """The authority over one match (see the module docstring)."""

    id: str
    kind: GameKind
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    time_control: TimeControl | None = None
    rated: bool = True
    status: Status = Status.WAITING
    version: int = 0
    seat_versions: list[int] = field(default_factory=list)
    clocks_ms: list[int] | None = None
    #: When the running clocks last started (``None`` while none runs).
    clock_since: float | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    rematch_of: str | None = None
    rematch_id: str | None = None
    session: GameSession | None = None
    _accepted: dict[tuple[int, str], Answer] = field(default_factory=dict, repr=False)
    _refused: OrderedDict[tuple[int, str], Answer] = field(default_factory=OrderedDict, repr=False)
    _running: tuple[int, ...] = ()

    # ----------------------------------------------------------------- creation
    @classmethod
    def create(
        cls,
        *,
        table_id: str,
        kind: GameKind,
        options: Mapping[str, Any],
        seed: int,
        bot_levels: Sequence[str | None],
        invites: Sequence[str],
        time_control: TimeControl | None = None,
        rated: bool = True,
        bot_names: Sequence[str] | None = None,
        rematch_of: str | None = None,
    ) -> Table:
        """A new table; ``bot_levels[i]`` is a level for a bot seat, ``None`` for a person.

        ``invites`` gives one secret invite code per seat (used by person seats only).
        Raises :class:`TableError` for a bad seat count and ``BadOptions`` for bad options.
        """
        count = len(bot_levels)
        if not kind.min_seats <= count <= kind.max_seats:
            raise TableError(
                "bad_table",
                f"{kind.name} is played by {kind.min_seats} to {kind.max_seats} players, "
                f"not {count}",
            )
        checked = kind.check_options(options, count)
        seats = []
        for i, level in enumerate(bot_levels):
            name = None
            if level is not None:
                # One name per level: the leaderboard shows how people fare against each.
                name = bot_names[i] if bot_names else f"Bot ({level})"
            seats.append(
                Seat(index=i, bot_level=level, name=name, invite=None if level else invites[i])
            )
        return cls(
            id=table_id,
            kind=kind,
            options=checked,
            seed=seed,
            seats=seats,
            time_control=time_control,
            rated=rated,
            seat_versions=[0] * count,
            rematch_of=rematch_of,
        )

    # ------------------------------------------------------------------- seats
    def seat_of_token(self, token: str | None) -> int | None:
        """The seat this token acts for, or ``None`` (a spectator / a wrong token)."""
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash == digest:
                return seat.index
        return None

    def join(self, invite: str, name: str, token: str, now: float) -> int:
        """Seat ``name`` with the seat whose invite code is ``invite``; returns the seat.

        ``token`` becomes the seat's secret. The match starts as soon as every seat is
        filled. Raises :class:`TableError` for an unknown invite or a taken seat.
        """
        for seat in self.seats:
            if seat.invite is not None and seat.invite == invite:
                if seat.filled:
                    raise TableError("seat_taken", f"seat {seat.index + 1} is already taken")
                seat.name = name
                seat.token_hash = hash_token(token)
                self._bump(all_seats=False)
                if all(s.filled for s in self.seats):
                    self.start(now)
                return seat.index
        raise TableError("bad_invite", "this invite link does not belong to a seat here")

    def start(self, now: float) -> None:
        """Deal the match (the seats must be filled)."""
        if self.status is not Status.WAITING:
            raise TableError("not_waiting", "the match has already started")
        if not all(s.filled for s in self.seats):
            raise TableError("seats_open", "every seat must be filled first")
        names = [s.name or f"Player {s.index + 1}" for s in self.seats]
        self.session = self.kind.create(seed=self.seed, players=names, options=self.options)
        self.status = Status.PLAYING
        if self.time_control is not None:
            self.clocks_ms = [self.time_control.initial_ms] * len(self.seats)
        self._bump(all_seats=True)
        self._restart_clocks(now)

    def set_connected(self, seat: int, connected: bool) -> bool:
        """Record whether the person in ``seat`` has a live connection; True if changed."""
        target = self.seats[seat]
        if target.is_bot or target.connected == connected:
            return False
        target.connected = connected
        self._bump(all_seats=False)
        return True

    def set_substituted(self, seat: int, substituted: bool, now: float) -> bool:
        """Hand an absent person's seat to a bot, or give it back; True if changed.

        The seat's clock stops while a bot plays for it and runs again on return.
        """
        target = self.seats[seat]
        if target.is_bot or target.substituted == substituted:
            return False
        if substituted and self.status is not Status.PLAYING:
            return False
        self._settle(now)
        target.substituted = substituted
        self._bump(all_seats=False)
        self._restart_clocks(now)
        return True

    # ------------------------------------------------------------------- moves
    def submit(
        self,
        seat: int,
        move: str,
        *,
        version: int | None,
        move_id: str | None,
        now: float,
        source: Source = Source.PLAYER,
    ) -> Answer:
        """Judge ``seat``'s move, made against ``version``; apply it if it is good.

        ``version`` ``None`` means "against the current state" (bots and clocks, which
        move under the table's lock). A ``move_id`` seen before from the same seat gets
        the earlier answer and is never applied twice.
        """
        key = (seat, move_id) if move_id is not None else None
        if key is not None:
            earlier = self._accepted.get(key) or self._refused.get(key)
            if earlier is not None:
                return earlier
        answer = self._judge(seat, move, version=version, move_id=move_id, now=now, source=source)
        if key is not None:
            if answer.kind == "accepted":
                self._accepted[key] = answer
            else:
                self._refused[key] = answer
                while len(self._refused) > REFUSED_MEMORY:
                    self._refused.popitem(last=False)
        return answer

    def _judge(
        self,
        seat: int,
        move: str,
        *,
        version: int | None,
        move_id: str | None,
        now: float,
        source: Source,
    ) -> Answer:
        def refuse(code: str, message: str) -> Answer:
            return Answer("refused", move_id, self.version, code=code, message=message)

        if self.status is Status.WAITING:
            return refuse("not_started", "the match has not started: seats are still open")
        if self.status is Status.FINISHED or self.session is None:
            return refuse("finished", "the match is over")
        if version is not None and version < self.seat_versions[seat]:
            return Answer(
                "stale",
                move_id,
                self.version,
                code="stale",
                message=(
                    f"move made against version {version}, but your position changed at "
                    f"version {self.seat_versions[seat]}: here is the current state"
                ),
            )
        if version is not None and version > self.version:
            return refuse(
                "bad_version", f"version {version} is ahead of the table's {self.version}"
            )
        to_move = self.session.to_move()
        if to_move != ANYONE and to_move != seat:
            return refuse("not_your_turn", "it is not your turn")
        try:
            applied = self.session.apply(seat, move)
        except IllegalMove as exc:
            return Answer(
                "refused",
                move_id,
                self.version,
                code="illegal",
                message=str(exc),
                message_id=exc.code,
                params=dict(exc.params) if exc.code else None,
            )
        except CardtableError as exc:
            return refuse("illegal", str(exc))
        self._settle(now)
        entry = MoveEntry(self.version + 1, seat, move, move_id, source)
        self.moves.append(entry)
        self.version += 1
        for affected in applied.affected:
            self.seat_versions[affected] = self.version
        if self.clocks_ms is not None and self.time_control is not None:
            extra = self.time_control.increment_ms
            if source is Source.CLOCK:
                self.clocks_ms[seat] = max(extra, MIN_TIMEOUT_GRACE_MS)
            else:
                self.clocks_ms[seat] += extra
        if self.session.is_terminal():
            self.status = Status.FINISHED
            self.seat_versions = [self.version] * len(self.seats)
            self._running = ()
            self.clock_since = None
        else:
            self._restart_clocks(now)
        return Answer("accepted", move_id, self.version, entry=entry)

    def legal_moves(self, seat: int) -> list[str]:
        """What ``seat`` may play now (empty when it may not move)."""
        if self.status is not Status.PLAYING or self.session is None:
            return []
        to_move = self.session.to_move()
        if to_move != ANYONE and to_move != seat:
            return []
        return self.session.legal_moves(seat)

    def bot_seats_to_move(self) -> list[int]:
        """Bot-driven seats that may move now."""
        if self.status is not Status.PLAYING or self.session is None:
            return []
        to_move = self.session.to_move()
        candidates = (
            range(len(self.seats))
            if to_move == ANYONE
            else ([to_move] if to_move is not None else [])
        )
        return [s for s in candidates if self.seats[s].bot_driven and self.legal_moves(s)]

    # ------------------------------------------------------------------ clocks
    def _settle(self, now: float) -> None:
        """Charge the running clocks for the time since they started."""
        if self.clocks_ms is None or self.clock_since is None:
            return
        spent = max(0, round((now - self.clock_since) * 1000))
        for seat in self._running:
            self.clocks_ms[seat] = max(0, self.clocks_ms[seat] - spent)
        self.clock_since = now

    def _restart_clocks(self, now: float) -> None:
        if self.clocks_ms is None or self.session is None or self.status is not Status.PLAYING:
            self._running = ()
            self.clock_since = None
            return
        # Bots have budgets, not clocks: a bot-driven seat's clock stands still.
        to_move = self.session.to_move()
        if to_move == ANYONE:
            candidates: Sequence[int] = [
                s for s in range(len(self.seats)) if self.session.legal_moves(s)
            ]
        elif to_move is not None:
            candidates = (to_move,)
        else:
            candidates = ()
        self._running = tuple(s for s in candidates if not self.seats[s].bot_driven)
        self.clock_since = now

    def clocks(self, now: float) -> list[float] | None:
        """Seconds left on each clock at ``now`` (``None`` without a time control)."""
        if self.clocks_ms is None:
            return None
        spent = 0 if self.clock_since is None else max(0, round((now - self.clock_since) * 1000))
        return [
            max(0, ms - (spent if i in self._running else 0)) / 1000
            for i, ms in enumerate(self.clocks_ms)
        ]

    def next_deadline(self) -> float | None:
        """When the first running clock runs out (``None`` when none runs)."""
        if self.clocks_ms is None or self.clock_since is None or not self._running:
            return None
        return self.clock_since + min(self.clocks_ms[s] for s in self._running) / 1000

    def expired(self, now: float) -> list[int]:
        """Seats whose clock has run out at ``now``: a bot must move for each."""
        if self.status is not Status.PLAYING:
            return []
        self._settle(now)
        if self.clocks_ms is None:
            return []
        return [s for s in self._running if self.clocks_ms[s] <= 0 and self.legal_moves(s)]

    # ------------------------------------------------------------------- views
    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything one recipient may see: their own view only (see docs/protocol.md)."""
        session = self.session
        view = session.view(seat) if session is not None else None
        to_move = session.to_move() if session is not None else None
        return {
            "table": self.id,
            "game": self.kind.name,
            "status": self.status.value,
            "version": self.version,
            "seat": seat,
            "seats": [s.public() for s in self.seats],
            "to_move": None if to_move is None else ("anyone" if to_move == ANYONE else to_move),
            "view": view,
            "legal_moves": self.legal_moves(seat) if seat is not None else [],
            "clocks": self.clocks(now),
            "result": session.result()
            if session is not None and self.status is Status.FINISHED
            else None,
            "rematch": self.rematch_id,
        }

    def info(self) -> dict[str, Any]:
        """The public facts of the table, for listings."""
        return {
            "id": self.id,
            "game": self.kind.name,
            "options": self.options,
            "status": self.status.value,
            "version": self.version,
            "seats": [s.public() for s in self.seats],
            "time_control": self.time_control.to_dict() if self.time_control else None,
            "rated": self.rated,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch_id,
        }

    # ----------------------------------------------------------------- storage
    def meta(self) -> dict[str, Any]:
        """The table's mutable state apart from its moves, for storage."""
        return {
            "seats": [s.to_dict() for s in self.seats],
            "seat_versions": list(self.seat_versions),
            "clocks_ms": list(self.clocks_ms) if self.clocks_ms is not None else None,
            "rematch_id": self.rematch_id,
        }

    @classmethod
    def restore(
        cls,
        *,
        table_id: str,
        kind: GameKind,
        options: Mapping[str, Any],
        seed: int,
        time_control: TimeControl | None,
        rated: bool,
        status: Status,
        version: int,
        meta: Mapping[str, Any],
        moves: Sequence[MoveEntry],
        rematch_of: str | None,
        now: float,
    ) -> Table:
        """Rebuild a table from storage, replaying its moves through the engine."""
        seats = [Seat.from_dict(s) for s in meta["seats"]]
        table = cls(
            id=table_id,
            kind=kind,
            options=dict(options),
            seed=seed,
            seats=seats,
            time_control=time_control,
            rated=rated,
            status=status,
            version=version,
            seat_versions=[int(v) for v in meta["seat_versions"]],
            clocks_ms=list(meta["clocks_ms"]) if meta.get("clocks_ms") is not None else None,
            rematch_of=rematch_of,
            rematch_id=meta.get("rematch_id"),
        )
        if status is not Status.WAITING:
            names = [s.name or f"Player {s.index + 1}" for s in seats]
            session = kind.create(seed=seed, players=names, options=table.options)
            for entry in moves:
                session.apply(entry.seat, entry.move)
                table.moves.append(entry)
                if entry.move_id is not None:
                    table._accepted[(entry.seat, entry.move_id)] = Answer(
                        "accepted", entry.move_id, entry.version, entry=entry
                    )
            table.session = session
            table._restart_clocks(now)
        return table

    def _bump(self, *, all_seats: bool) -> None:
        self.version += 1
        if all_seats:
            self.seat_versions = [self.version] * len(self.seats)
