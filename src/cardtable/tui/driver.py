"""The terminal app's driver of the shared table: one person (or two) and bots.

The terminal keeps no table of its own. A :class:`TableDriver` holds one
:class:`cardtable.table.Table` — the same authority the server drives — and does only
what a face does around it: it seats the people (joined with a secret token and marked
connected) and the bots (a level or a registry spec, and in a race a speed), asks a
bot for its move when the table says it is due (:meth:`Table.due_bots`), submits every
move to the table, and keeps the log of what the moves showed. Time is passed in
(seconds), so tests drive the clock; the app sleeps until :meth:`next_wakeup`.

Bots decide from ``match.bot_info(seat)`` through :class:`~cardtable.bots.seat.SeatBot`.
With an executor a bot thinks in another thread as soon as it may move, and its move
is submitted when the table says it is due (or when the thought ends, if later); the
thought carries the seat's version, so one made before a round ended is stale and
thought again. Without an executor a bot thinks on the spot, when its move is due.

The pause between rounds or deals is the table's (:attr:`Table.paused_until`): it ends
when its time is up or when the people say they are ready (:meth:`ready`).

>>> driver = TableDriver("spy", seed=4, names=["Ann", "Bot"], bots=[None, "greedy"],
...                      speeds=[None, 2.0], options={"rounds": 1})
>>> driver.people, driver.table.status.value
((0,), 'playing')
>>> go = driver.next_wakeup()  # the end of the start count (S17): everyone starts
>>> driver.step(go), driver.view(0)["seats"][1]["moves"]
(True, 0)
>>> wake = driver.next_wakeup()
>>> driver.step(wake), driver.view(0)["seats"][1]["moves"]
(True, 1)
>>> driver.play(0, "call", wake).text
'the points pile still holds 5 cards: call only when it is empty'
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.seat import SeatBot
from cardtable.games.base import ANYONE, Match, MatchEvent
from cardtable.games.registry import find_game
from cardtable.table import Answer, Pacing, Source, Status, Table, TableError

__all__ = ["Refusal", "TableDriver"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A move the table refused: the message id and parameters of its reason (from
    which a face may word it in the player's language) and the English text."""

    message_id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    @classmethod
    def of(cls, answer: Answer) -> Refusal:
        """The refusal of a table's answer; the text without the move repeated in front
        (``illegal move '0 call': …``): the person has just pressed that key."""
        message = answer.message or ""
        if message.startswith("illegal move ") and "': " in message:
            message = message.partition("': ")[2]
        return cls(answer.message_id or answer.code or "refused", dict(answer.params), message)


class TableDriver:
    """A :class:`~cardtable.table.Table` with the terminal's people and bots at it.

    ``bots[i]`` names the bot of seat ``i`` (a level or a spec), ``None`` for a person;
    ``speeds[i]`` is a bot's race speed in moves a second (``None``: its level's).
    ``hint`` names the bot that answers a person's request for a hint.
    """

    def __init__(
        self,
        game: str,
        *,
        seed: int,
        names: Sequence[str],
        bots: Sequence[str | None],
        speeds: Sequence[float | None] | None = None,
        options: Mapping[str, Any] | None = None,
        pacing: Pacing | None = None,
        executor: Executor | None = None,
        hint: str | None = None,
        now: float = 0.0,
    ) -> None:
        if len(names) != len(bots):
            raise ValueError("give one name and one bot (or None for a person) per seat")
        invites = [secrets.token_urlsafe(8) for _ in bots]
        self.table = Table.create(
            table_id=f"terminal-{seed}",
            game=find_game(game),
            options=dict(options or {}),
            seed=seed,
            bot_levels=list(bots),
            invites=invites,
            bot_names=list(names),
            bot_speeds=list(speeds) if speeds is not None else None,
            pacing=pacing,
            # A game at one keyboard rates nobody: a casual table (takebacks allowed).
            rated=False,
        )
        self.people = tuple(seat for seat, bot in enumerate(bots) if bot is None)
        self._bots = {
            seat: SeatBot.make(game, bot, seed=seed + seat, seat=seat)
            for seat, bot in enumerate(bots)
            if bot
        }
        #: The bot that answers each person's request for a hint.
        self.hint_bots = {
            seat: SeatBot.make(game, hint, seed=seed + len(bots), seat=seat)
            for seat in self.people
            if hint
        }
        self._tokens: dict[int, str] = {}
        for seat in self.people:
            token = secrets.token_urlsafe(16)
            self.table.join(invites[seat], names[seat], token, now)
            self.table.set_connected(seat, True)
            self._tokens[seat] = token
        if self.table.status is Status.WAITING:  # bots only: nobody joins to start it
            self.table.start(now)
        self._executor = executor
        #: Each thinking bot's thought: the seat version it was made at, and its future.
        self._thoughts: dict[int, tuple[int, Future[int]]] = {}
        #: What every accepted move showed, in order (see :meth:`log`).
        self.events: list[MatchEvent] = []
        self._think_ahead()

    # -- what the screens may see --------------------------------------------------------

    @property
    def match(self) -> Match:
        """The match in play."""
        match = self.table.match
        assert match is not None, "the driver starts the match"
        return match

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self.match.players

    def is_bot(self, seat: int) -> bool:
        """Is ``seat`` played by a bot?"""
        return seat in self._bots

    @property
    def is_over(self) -> bool:
        """Has the match ended?"""
        return self.table.status is Status.FINISHED

    @property
    def paused(self) -> bool:
        """Is the table pausing between two rounds or deals?"""
        return self.table.paused_until is not None

    def pause_left(self, now: float) -> float:
        """Seconds left of the pause (0 when there is none)."""
        return _left(self.table.paused_until, now)

    @property
    def counting(self) -> bool:
        """Is the table counting down to a race's start (S17: everyone starts together)?"""
        return self.table.counting_until is not None

    def count_left(self, now: float) -> float:
        """Seconds left of the start count (0 when there is none)."""
        return _left(self.table.counting_until, now)

    def hold_left(self, now: float) -> float:
        """Seconds until moves are accepted again: the pause's or the count's (0: now)."""
        return self.pause_left(now) or self.count_left(now)

    def race_time(self, now: float) -> float:
        """Seconds the round in play has raced (the last round's between rounds)."""
        race = self.table.race(now)
        return 0.0 if race is None else float(race["elapsed"])

    def to_move(self) -> int | None:
        """The seat whose decision it is (``ANYONE`` in a race, ``None`` once over)."""
        return None if self.is_over else self.match.to_move()

    @property
    def bot_to_move(self) -> bool:
        """Is it a bot's decision in a turn-based game?"""
        seat = self.to_move()
        return seat is not None and seat != ANYONE and self.is_bot(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: a spectator)."""
        return self.match.view(seat)

    def legal_moves(self, seat: int) -> list[str]:
        """What ``seat`` may play now (nothing during a pause)."""
        return self.table.legal_moves(seat)

    def log(self, seat: int | None) -> list[Mapping[str, Any]]:
        """Every event so far as ``seat`` may see it (others' secret cards left out)."""
        return [event.seen_by(seat) for event in self.events]

    def record(self) -> dict[str, Any]:
        """The match so far as a game record (``docs/records.md``), with ``ended`` when
        it was resigned or aborted."""
        record = self.table.record()
        assert record is not None, "the driver starts the match"
        return record

    def next_wakeup(self) -> float | None:
        """When the table next needs looking at by itself (a bot due, a pause over)."""
        return self.table.next_wakeup()

    @property
    def thinking(self) -> bool:
        """Is a bot's thought still running in another thread?"""
        return any(not future.done() for _, future in self._thoughts.values())

    # -- moves ---------------------------------------------------------------------------

    def play(self, seat: int, move: str, now: float) -> Refusal | None:
        """A person's move (record text, ``docs/records.md``), judged by the table;
        ``None`` when it was accepted."""
        if seat not in self._tokens:
            raise ValueError(f"seat {seat} is not a person's")
        answer = self.table.submit(seat, move, version=None, move_id=None, now=now)
        if answer.outcome != "accepted":
            return Refusal.of(answer)
        self._took(answer)
        return None

    def end_or_rewind(self, kind: str, seat: int, now: float) -> Refusal | None:
        """A person resigns (``"resign"``), aborts (``"abort"``) or takes their last
        move back (``"takeback"``), as the table allows; ``None`` when it did it."""
        table = self.table
        try:
            if kind == "resign":
                table.resign(seat, now)
            elif kind == "abort":
                table.abort(seat, now)
            else:
                table.take_back(seat, now)
        except TableError as exc:
            return Refusal(f"table.{exc.code}", dict(exc.params), exc.message)
        # The moves taken back are gone from what the screens show too.
        self.events = [event for entry in table.moves for event in entry.events]
        self._think_ahead()
        return None

    def ready(self, now: float) -> bool:
        """The people at the keyboard are ready for the next round or deal: the table's
        pause ends. (At one keyboard every person is there.) True if it ended."""
        ended = False
        for seat in self.people:
            ended = self.table.ready(seat, now) or ended
        self._think_ahead()
        return ended

    def step(self, now: float) -> bool:
        """Let time pass to ``now``: the pause ends when it is up, and every bot whose
        move is due makes it. True when anything changed."""
        version = self.table.version
        for seat in self.table.due_bots(now):
            decided = self._decision(seat)
            if decided is None:
                continue  # still thinking: the others go on
            made_at, action = decided
            answer = self.table.submit(
                seat, action, version=made_at, move_id=None, now=now, source=Source.BOT
            )
            if answer.outcome == "accepted":
                self._took(answer)
            else:  # a thought from before the round ended: think again
                self.table.bot_delayed(seat, now)
        self._think_ahead()
        return self.table.version != version

    def _took(self, answer: Answer) -> None:
        applied = answer.applied
        if applied is not None:
            self.events.extend(applied.events)
        self._think_ahead()

    # -- bots' thoughts --------------------------------------------------------------------

    def _decision(self, seat: int) -> tuple[int | None, int] | None:
        """The due bot's move with the version it was made at (``None``: made now), or
        ``None`` while it is still thinking in another thread."""
        if self._executor is None:
            return None, self._bots[seat].think(self.match.bot_info(seat))
        thought = self._thoughts.get(seat)
        if thought is None or not thought[1].done():
            return None
        del self._thoughts[seat]
        made_at, future = thought
        return made_at, future.result()  # a bot's error is raised here, never hidden

    def _think_ahead(self) -> None:
        """With an executor, start the next decision of every bot that may move now.
        Its position changes only by its own moves (or a round's end, which makes the
        thought stale), so the decision stays good until its move is due."""
        executor = self._executor
        if executor is None:
            return
        versions = self.table.seat_versions
        for seat, (made_at, future) in list(self._thoughts.items()):
            if made_at < versions[seat]:
                future.cancel()
                del self._thoughts[seat]
        for seat in self.table.bot_seats_to_move():
            if seat not in self._thoughts:
                info = self.match.bot_info(seat)
                self._thoughts[seat] = (
                    versions[seat],
                    executor.submit(self._bots[seat].think, info),
                )

    def hint_task(self, seat: int) -> Callable[[], str] | None:
        """What the hint bot would play in ``seat``'s place, as a task giving the move's
        text (its information taken now, so the task may run in another thread);
        ``None`` when ``seat`` has no decision now or there is no hint bot."""
        bot = self.hint_bots.get(seat)
        actions = self.match.legal_actions(seat)
        if bot is None or not self.table.legal_moves(seat) or not actions:
            return None
        texts = dict(zip(actions, self.match.legal_moves(seat), strict=True))
        info = self.match.bot_info(seat)
        return lambda: texts[bot.think(info)]

    def close(self) -> None:
        """Stop the bots' threads."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _left(until: float | None, now: float) -> float:
    """Seconds from ``now`` to ``until`` (0 when it is past or there is none)."""
    return 0.0 if until is None else max(0.0, until - now)
