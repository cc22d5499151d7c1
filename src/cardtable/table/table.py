"""A table: the authority over one match, as a pure class without I/O.

Everything that decides what happens at a table lives in :class:`Table` (with the parts
it inherits) and nowhere else: who sits where and with which secret token, when the
match starts, which move is accepted, the table's version, idempotent move ids, stale
moves, the clocks, when each bot moves (the pacing of :mod:`.pacing`), the pause between
deals and rounds, and who acts for an absent or flagged seat. Time comes in as an
argument (``now``, seconds), randomness (tokens, invites, seeds) comes in from the
caller, so the class is deterministic and tested without a network, a clock or a
database. The server, the terminal app and the arena all drive this one class; they keep
only transport, storage and drawing.

Seats, moves, clocks and the bot schedule change together on every move, so one class
keeps each transition in one place; this module is about 780 lines, over the project's
600-line guide on purpose. Two parts that stand on their own are mixins the class
inherits, each in its own module: how a match ends early (resign, abort, takeback) in
:mod:`.endings`, and the pause between deals or rounds and a race's start count in
:mod:`.pauses`. Its value types live in :mod:`.parts`.

The game is reached only through :class:`~cardtable.games.base.Game` and
:class:`~cardtable.games.base.Match`, so the table knows no game's rules.

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

Bots. A bot-driven seat (a bot seat, an absent person's, or one its person handed to a
bot) moves when the table says: :meth:`Table.due_bots` lists the seats whose bot's move
is due at ``now`` (a move time after it could move, drawn by :class:`~.pacing.Pacing`),
and :meth:`Table.bot_level` names the bot. The caller asks that bot for the seat's move
from ``match.bot_info(seat)`` and submits it like any move.

:meth:`Table.next_wakeup` tells the caller when to look again.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cardtable.errors import CardtableError
from cardtable.games.base import ANYONE, Game, Match
from cardtable.table.endings import Endings
from cardtable.table.pacing import Pacing
from cardtable.table.parts import (
    Answer,
    MoveEntry,
    Seat,
    Source,
    Status,
    TableError,
    TimeControl,
    hash_token,
)
from cardtable.table.pauses import Pauses

#: After a flag falls, the bot's move for that seat buys it at least this much time.
MIN_TIMEOUT_GRACE_MS: Final = 1000
#: Refused move ids remembered per table (accepted ones are all remembered).
REFUSED_MEMORY: Final = 512


@dataclass
class Table(Endings, Pauses):
    """The authority over one match (see the module docstring)."""

    id: str
    game: Game
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    time_control: TimeControl | None = None
    rated: bool = True
    #: Whether a seat may ask for help (a hint) while the game runs: chosen by the
    #: creator, never at a rated table; a person who takes a seat agrees to it.
    hints: bool = False
    status: Status = Status.WAITING
    version: int = 0
    seat_versions: list[int] = field(default_factory=list)
    clocks_ms: list[int] | None = None
    #: When the running clocks last started (``None`` while none runs).
    clock_since: float | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    rematch_of: str | None = None
    rematch_id: str | None = None
    #: Digest of the creator's host token: it alone may see the open seats' invites.
    host_hash: str | None = None
    match: Match | None = None
    pacing: Pacing = field(default_factory=Pacing)
    #: The bot that stands in for an absent person or plays a flagged clock's move.
    stand_in_level: str = "medium"
    #: While the table pauses between deals or rounds: when the pause ends.
    paused_until: float | None = None
    #: People who said they are ready during the pause.
    ready_seats: set[int] = field(default_factory=set)
    #: While a race's start count runs: when the race starts.
    counting_until: float | None = None
    #: When the race of the round in play started (``None`` while none runs).
    race_since: float | None = None
    #: Seconds each finished round's race lasted (real-time games).
    race_times: list[float] = field(default_factory=list)
    #: A game of a tournament: it may be resigned, never aborted or taken back.
    tournament: bool = False
    #: Whether a bot stands in for a person who is away (a correspondence game, whose
    #: players come back days later, has none: its clock decides instead).
    stand_ins: bool = True
    #: How a match ended before its cards ran out: ``"resigned"`` or ``"aborted"``
    #: (``None``: it is running, or it was played to the end).
    ending: str | None = None
    #: The seat that resigned or aborted it.
    ended_by: int | None = None
    _accepted: dict[tuple[int, str], Answer] = field(default_factory=dict, repr=False)
    _refused: OrderedDict[tuple[int, str], Answer] = field(default_factory=OrderedDict, repr=False)
    _running: tuple[int, ...] = ()
    #: When each bot-driven seat's next move is due.
    _bot_due: dict[int, float] = field(default_factory=dict, repr=False)
    _pace_rng: random.Random = field(default_factory=random.Random, repr=False)

    # ----------------------------------------------------------------- creation
    @classmethod
    def create(
        cls,
        *,
        table_id: str,
        game: Game,
        options: Mapping[str, Any],
        seed: int,
        bot_levels: Sequence[str | None],
        invites: Sequence[str],
        time_control: TimeControl | None = None,
        rated: bool = True,
        hints: bool = False,
        bot_names: Sequence[str] | None = None,
        bot_speeds: Sequence[float | None] | None = None,
        rematch_of: str | None = None,
        pacing: Pacing | None = None,
        stand_in_level: str = "medium",
        tournament: bool = False,
        stand_ins: bool = True,
    ) -> Table:
        """A new table; ``bot_levels[i]`` is a level for a bot seat, ``None`` for a person.

        ``invites`` gives one secret invite code per seat (used by person seats only);
        ``tournament`` marks a tournament's game (no abort, no takeback); ``stand_ins``
        off: no bot ever plays for an absent person (a correspondence game).
        Raises :class:`TableError` for a bad seat count and ``BadOptions`` for bad options.
        """
        count = len(bot_levels)
        info = game.info
        if not info.min_players <= count <= info.max_players:
            raise TableError(
                "bad_table",
                f"{info.name} is played by {info.min_players} to {info.max_players} players, "
                f"not {count}",
                {
                    "game": info.name,
                    "low": info.min_players,
                    "high": info.max_players,
                    "count": count,
                },
            )
        checked = game.check_options(options, count)
        seats = []
        for i, level in enumerate(bot_levels):
            name = None
            if level is not None:
                # One name per level: the leaderboard shows how people fare against each.
                name = bot_names[i] if bot_names else f"Bot ({level})"
            seats.append(
                Seat(
                    index=i,
                    bot_level=level,
                    bot_speed=bot_speeds[i] if bot_speeds else None,
                    name=name,
                    invite=None if level else invites[i],
                )
            )
        return cls(
            id=table_id,
            game=game,
            options=checked,
            seed=seed,
            seats=seats,
            time_control=time_control,
            rated=rated,
            hints=hints and not rated,
            seat_versions=[0] * count,
            rematch_of=rematch_of,
            pacing=pacing or Pacing(),
            stand_in_level=stand_in_level,
            tournament=tournament,
            stand_ins=stand_ins,
            _pace_rng=random.Random(f"pace/{table_id}/{seed}"),
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

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the host token of the table's creator."""
        if not token or self.host_hash is None:
            return False
        return hash_token(token) == self.host_hash

    def open_invites(self) -> list[tuple[int, str]]:
        """``(seat, invite code)`` of every person's seat nobody has taken yet."""
        return [(s.index, s.invite) for s in self.seats if s.invite is not None and not s.filled]

    def join(
        self, invite: str, name: str, token: str, now: float, account: str | None = None
    ) -> int:
        """Seat ``name`` with the seat whose invite code is ``invite``; returns the seat.

        ``token`` becomes the seat's secret; ``account`` is the account the person is
        signed in as (the face proved it), ``None`` for a guest. The match starts as soon
        as every seat is filled. Raises :class:`TableError` for an unknown invite or a taken seat.
        """
        for seat in self.seats:
            if seat.invite is not None and seat.invite == invite:
                if seat.filled:
                    raise TableError(
                        "seat_taken",
                        f"seat {seat.index + 1} is already taken",
                        {"seat": seat.index + 1},
                    )
                seat.name = name
                seat.account = account
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
        self.match = self.game.new_match(seed=self.seed, players=names, options=self.options)
        self.status = Status.PLAYING
        if self.time_control is not None:
            self.clocks_ms = [self.time_control.initial_ms] * len(self.seats)
        self._begin_race(now)
        self._bump(all_seats=True)
        self._after_change(now)

    def set_connected(self, seat: int, connected: bool) -> bool:
        """Record whether the person in ``seat`` has a live connection; True if changed."""
        target = self.seats[seat]
        if target.is_bot or target.connected == connected:
            return False
        target.connected = connected
        self._bump(all_seats=False)
        return True

    def set_substituted(self, seat: int, substituted: bool, now: float) -> bool:
        """Hand a person's seat to a bot (they are away, or asked for it), or give it
        back; True if changed.

        The seat's clock stops while a bot plays for it and runs again on return. The
        bot decides from ``match.bot_info(seat)``: what the seat may know, whoever
        played it until now.
        """
        target = self.seats[seat]
        if target.is_bot or target.substituted == substituted:
            return False
        if substituted and self.status is not Status.PLAYING:
            return False
        self._settle(now)
        target.substituted = substituted
        self._bump(all_seats=False)
        self._after_change(now)
        return True

    # ------------------------------------------------------------------- moves
    def submit(
        self,
        seat: int,
        move: str | int,
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
        self.tick(now)
        key = (seat, move_id) if move_id is not None else None
        if key is not None:
            earlier = self._accepted.get(key) or self._refused.get(key)
            if earlier is not None:
                return earlier
        answer = self._judge(seat, move, version=version, move_id=move_id, now=now, source=source)
        if key is not None:
            if answer.outcome == "accepted":
                self._accepted[key] = answer
            else:
                self._refused[key] = answer
                while len(self._refused) > REFUSED_MEMORY:
                    self._refused.popitem(last=False)
        return answer

    def _refuse(
        self,
        move_id: str | None,
        code: str,
        message: str,
        params: Mapping[str, Any] | None = None,
        *,
        message_id: str | None = None,
    ) -> Answer:
        """A refusal; its message id is ``table.<code>`` unless given."""
        return Answer(
            "refused",
            move_id,
            self.version,
            code=code,
            message=message,
            message_id=message_id or f"table.{code}",
            params=dict(params or {}),
        )

    def _judge(
        self,
        seat: int,
        move: str | int,
        *,
        version: int | None,
        move_id: str | None,
        now: float,
        source: Source,
    ) -> Answer:
        if self.status is Status.WAITING:
            return self._refuse(
                move_id, "not_started", "the match has not started: seats are still open"
            )
        match = self.match
        if self.status is Status.FINISHED or match is None:
            return self._refuse(move_id, "finished", "the match is over")
        if not 0 <= seat < len(self.seats):
            return self._refuse(move_id, "no_seat", f"there is no seat {seat}", {"seat": seat})
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
                message_id="table.stale",
                params={"version": version, "changed": self.seat_versions[seat]},
            )
        if version is not None and version > self.version:
            return self._refuse(
                move_id,
                "bad_version",
                f"version {version} is ahead of the table's {self.version}",
                {"version": version, "table": self.version},
            )
        if self.paused_until is not None:
            seconds = max(0, round(self.paused_until - now))
            segment = match.info.segment
            return self._refuse(
                move_id,
                "paused",
                f"the {segment} is over: the next one starts in {seconds} s",
                {"seconds": seconds},
                message_id=f"table.paused_{segment}",
            )
        if self.counting_until is not None:
            seconds = max(1, math.ceil(self.counting_until - now))
            return self._refuse(
                move_id,
                "counting",
                f"the race starts in {seconds} s: everyone starts together",
                {"seconds": seconds},
            )
        to_move = match.to_move()
        if to_move != ANYONE and to_move != seat:
            return self._refuse(move_id, "not_your_turn", "it is not your turn")
        try:
            applied = match.apply(seat, move)
        except CardtableError as exc:
            # IllegalMove, or a card text that does not parse: the engine's own message
            # id, so a face says the reason in the player's language.
            return Answer(
                "refused",
                move_id,
                self.version,
                code="illegal",
                message=str(exc),
                message_id=getattr(exc, "code", None),
                params=dict(getattr(exc, "params", None) or {}),
            )
        self._settle(now)
        # In a race: how long the round's race had run (the move list shows it).
        race = round(max(0.0, now - self.race_since), 1) if self.race_since is not None else None
        entry = MoveEntry(
            self.version + 1, seat, applied.text, move_id, source, race, applied.events
        )
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
        self._bot_due.pop(seat, None)
        if applied.segment_ended:
            self._end_race(now)
        if match.is_terminal():  # S16, C17: the last round or deal ends the match
            self.status = Status.FINISHED
            self.seat_versions = [self.version] * len(self.seats)
        elif applied.segment_ended and self.pacing.segment_pause > 0:
            # A round (S14) or deal (C13) ended with more to come: pause so people read it.
            self.paused_until = now + self.pacing.segment_pause
            self.ready_seats = set()
            self._bot_due.clear()
        elif applied.segment_ended:
            self._begin_race(now)  # no pause: the next round's count starts at once
        self._after_change(now)
        return Answer("accepted", move_id, self.version, entry=entry, applied=applied)

    def legal_moves(self, seat: int) -> list[str]:
        """What ``seat`` may play now (empty when it may not move, during a pause or a
        start count)."""
        if self.status is not Status.PLAYING or self.match is None or self._holding:
            return []
        to_move = self.match.to_move()
        if to_move != ANYONE and to_move != seat:
            return []
        return self.match.legal_moves(seat)

    def _may_move(self) -> Sequence[int]:
        """Seats that could move now if the table let them (pauses aside)."""
        match = self.match
        if self.status is not Status.PLAYING or match is None:
            return ()
        to_move = match.to_move()
        if to_move == ANYONE:
            return [s for s in range(len(self.seats)) if match.legal_actions(s)]
        return (to_move,) if to_move is not None else ()

    # ------------------------------------------------------------------ result
    def result(self) -> dict[str, Any] | None:
        """The match's result once it is over (``None`` before): the engine's totals,
        winners and ranks, and how it ended — ``ending`` ``"played"`` (to the end),
        ``"resigned"``, ``"timeout"`` (a correspondence clock ran out) or ``"aborted"``,
        with ``ended_by`` the seat that did it.

        A resigned match is lost by the resigner whatever the totals: the others win
        (rank 1), the resigner ranks last; ratings and tournaments read these ranks.
        An aborted match has no winner and no ranks worth counting: nothing is rated.
        """
        match = self.match
        if match is None or self.status is not Status.FINISHED:
            return None
        result = match.result().to_dict()
        seats = range(len(self.seats))
        if self.ending in ("resigned", "timeout"):
            result["winners"] = [s for s in seats if s != self.ended_by]
            result["ranks"] = [2 if s == self.ended_by else 1 for s in seats]
        elif self.ending == "aborted":
            result["winners"] = []
            result["ranks"] = [1 for _ in seats]
        result["ending"] = self.ending or "played"
        result["ended_by"] = self.ended_by
        return result

    def record(self) -> dict[str, Any] | None:
        """The match's record (docs/records.md), with ``ended`` when it was resigned,
        lost on time (written ``resigned``) or aborted; ``None`` before the match starts."""
        if self.match is None:
            return None
        record = self.match.record()
        if self.ending is not None:
            # A clock run out is a resignation by the clock in the record's terms.
            how = "resigned" if self.ending == "timeout" else self.ending
            record["ended"] = {"how": how, "seat": self.ended_by}
        return record

    # ------------------------------------------------------------------- bots
    def bot_level(self, seat: int) -> str:
        """The bot that moves for ``seat``: its own level, or the stand-in's."""
        return self.seats[seat].bot_level or self.stand_in_level

    def bot_speed(self, seat: int) -> float:
        """Moves per second of the bot playing ``seat`` in a race."""
        target = self.seats[seat]
        if target.bot_speed is not None:
            return target.bot_speed
        return self.pacing.speed_of(self.bot_level(seat))

    def bot_seats_to_move(self) -> list[int]:
        """Bot-driven seats that may move now (whether or not their move is due yet)."""
        if self._holding:
            return []
        return [s for s in self._may_move() if self.seats[s].bot_driven]

    def due_bots(self, now: float) -> list[int]:
        """Bot-driven seats whose move is due at ``now``: ask each one's bot and submit."""
        self.tick(now)
        return sorted(s for s, due in self._bot_due.items() if due <= now)

    def bot_delayed(self, seat: int, now: float) -> None:
        """The bot of ``seat`` could not move (it must think again): due again at once
        unless the seat may no longer move."""
        if seat in self.bot_seats_to_move():
            self._bot_due[seat] = now

    def _schedule_bots(self, now: float, may_move: Sequence[int]) -> None:
        """Give every bot-driven seat that may move a due time, and drop the others."""
        movable = {s for s in may_move if self.seats[s].bot_driven}
        for seat in list(self._bot_due):
            if seat not in movable:
                del self._bot_due[seat]
        pacing = self.pacing
        realtime = self.game.info.realtime
        for seat in sorted(movable - self._bot_due.keys()):
            # A race move takes a drawn move time; a turn-based bot waits a fixed moment.
            delay = (
                pacing.move_time(self.bot_speed(seat), self._pace_rng)
                if realtime
                else pacing.turn_delay
            )
            self._bot_due[seat] = now + delay

    # ----------------------------------------------------------------- wake-up
    def next_wakeup(self, busy: Collection[int] = ()) -> float | None:
        """When something next happens by itself: a pause ends, a bot's move is due or
        a clock runs out (``None``: nothing until someone moves).

        ``busy`` are seats the caller is already acting for (their bot is thinking):
        their due moves and run-out clocks are left out, so a caller that sleeps until
        the next wake-up does not wake again and again for a move already on its way.
        """
        pause_ends = None if self.pause_holds else self.paused_until
        times = [t for t in (pause_ends, self.counting_until) if t is not None]
        if self.clocks_ms is not None and self.clock_since is not None:
            running = [self.clocks_ms[s] for s in self._running if s not in busy]
            if running:
                times.append(self.clock_since + min(running) / 1000)
        times.extend(due for seat, due in self._bot_due.items() if seat not in busy)
        return min(times) if times else None

    # ------------------------------------------------------------------ clocks
    def _after_change(self, now: float) -> None:
        """After any change: who may move now (nobody during a pause) decides whose
        clocks run and which bots are due."""
        may_move = () if self._holding else self._may_move()
        self._restart_clocks(now, may_move)
        self._schedule_bots(now, may_move)

    def _settle(self, now: float) -> None:
        """Charge the running clocks for the time since they started."""
        if self.clocks_ms is None or self.clock_since is None:
            return
        spent = max(0, round((now - self.clock_since) * 1000))
        for seat in self._running:
            self.clocks_ms[seat] = max(0, self.clocks_ms[seat] - spent)
        self.clock_since = now

    def _restart_clocks(self, now: float, may_move: Sequence[int]) -> None:
        if self.clocks_ms is None or self._holding:
            self._running = ()
            self.clock_since = None
            return
        # Bots have budgets, not clocks: a bot-driven seat's clock stands still.
        self._running = tuple(s for s in may_move if not self.seats[s].bot_driven)
        self.clock_since = now if self._running else None

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
        self.tick(now)
        if self.status is not Status.PLAYING or self._holding:
            return []
        self._settle(now)
        if self.clocks_ms is None:
            return []
        return [s for s in self._running if self.clocks_ms[s] <= 0 and self.legal_moves(s)]

    # ------------------------------------------------------------------- views
    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything one recipient may see: their own view only (see docs/protocol.md)."""
        match = self.match
        view = match.view(seat) if match is not None else None
        # A match resigned or aborted has nobody to move, whatever its cards say.
        to_move = match.to_move() if match is not None and self.ending is None else None
        return {
            "table": self.id,
            "game": self.game.info.name,
            "status": self.status.value,
            "version": self.version,
            "seat": seat,
            "seats": [s.public() for s in self.seats],
            "to_move": None if to_move is None else ("anyone" if to_move == ANYONE else to_move),
            "view": view,
            "legal_moves": self.legal_moves(seat) if seat is not None else [],
            "clocks": self.clocks(now),
            "pause": None if self.paused_until is None else self._pause(now),
            "count": None
            if self.counting_until is None
            else {"seconds": max(0.0, round(self.counting_until - now, 1))},
            "race": self.race(now),
            "segments": [s.to_dict() for s in match.segment_results()] if match else [],
            "result": self.result(),
            "rematch": self.rematch_id,
            "rated": self.rated,
            "hints": self.hints,
            "tournament": self.tournament,
            "may": self.may(seat),
        }

    def _pause(self, now: float) -> dict[str, Any]:
        """The pause as everyone sees it: time left, who is ready, and the deal or round
        just over (the engine's account: scores, totals, who ended it and how)."""
        assert self.paused_until is not None
        assert self.match is not None
        done = self.match.segment_results()
        return {
            "seconds": max(0.0, round(self.paused_until - now, 1)),
            "ready": sorted(self.ready_seats),
            "holds": self.pause_holds,
            "segment": done[-1].to_dict() if done else None,
        }

    def info(self) -> dict[str, Any]:
        """The public facts of the table, for listings."""
        return {
            "id": self.id,
            "game": self.game.info.name,
            "options": self.options,
            "status": self.status.value,
            "version": self.version,
            "seats": [s.public() for s in self.seats],
            "time_control": self.time_control.to_dict() if self.time_control else None,
            "rated": self.rated,
            "hints": self.hints,
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
            "race_times": list(self.race_times),
            "host_hash": self.host_hash,
            "hints": self.hints,
            "tournament": self.tournament,
            "ending": self.ending,
            "ended_by": self.ended_by,
            "stand_ins": self.stand_ins,
        }

    @classmethod
    def restore(
        cls,
        *,
        table_id: str,
        game: Game,
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
        pacing: Pacing | None = None,
        stand_in_level: str = "medium",
    ) -> Table:
        """Rebuild a table from storage, replaying its moves through the engine.

        A pause or a start count is not restored: a restarted table goes on at once,
        and the race time of the round in play counts from the restart.
        """
        seats = [Seat.from_dict(s) for s in meta["seats"]]
        table = cls(
            id=table_id,
            game=game,
            options=dict(options),
            seed=seed,
            seats=seats,
            time_control=time_control,
            rated=rated,
            hints=bool(meta.get("hints")) and not rated,
            status=status,
            version=version,
            seat_versions=[int(v) for v in meta["seat_versions"]],
            clocks_ms=list(meta["clocks_ms"]) if meta.get("clocks_ms") is not None else None,
            rematch_of=rematch_of,
            rematch_id=meta.get("rematch_id"),
            race_times=[float(t) for t in meta.get("race_times") or []],
            host_hash=meta.get("host_hash"),
            pacing=pacing or Pacing(),
            stand_in_level=stand_in_level,
            # Tables stored before these keys existed have none: a table played out.
            tournament=bool(meta.get("tournament")),
            ending=meta.get("ending"),
            ended_by=meta.get("ended_by"),
            stand_ins=bool(meta.get("stand_ins", True)),
            _pace_rng=random.Random(f"pace/{table_id}/{seed}/{version}"),
        )
        if status is not Status.WAITING:
            names = [s.name or f"Player {s.index + 1}" for s in seats]
            match = game.new_match(seed=seed, players=names, options=table.options)
            for stored in moves:
                applied = match.apply(stored.seat, stored.move)
                entry = dataclasses.replace(stored, events=applied.events)
                table.moves.append(entry)
                if entry.move_id is not None:
                    table._accepted[(entry.seat, entry.move_id)] = Answer(
                        "accepted", entry.move_id, entry.version, entry=entry
                    )
            table.match = match
            if status is Status.PLAYING and game.info.realtime:
                table.race_since = now
            table._after_change(now)
        return table

    def _bump(self, *, all_seats: bool) -> None:
        self.version += 1
        if all_seats:
            self.seat_versions = [self.version] * len(self.seats)
