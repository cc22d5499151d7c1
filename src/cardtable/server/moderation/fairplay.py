"""Fair-play signals on the moderators' page: a player's figures over their latest games.

A moderator opening a report asks for the reported player's signals in one game
(``GET /api/moderation/fairplay/{name}?game=spy``). :class:`FairPlay` reads the
player's latest :data:`GAMES` finished tables of that game where they sat — each with
its record and its stored moves (seat, text, source, race time) — works out each
game's signals (:func:`cardtable.fairplay.game_signals`: the agreement with the
reference bot from the seat's own information and, in Spy, each round's pace) and
pools them (:func:`cardtable.fairplay.player_signals`): the figures, their levels, and
which are past them (docs/fairplay.md says how the levels were calibrated).

Nothing here acts: no signal bans, mutes or flags anyone; a moderator reads the figures
beside the games. A game's signals cost up to a few seconds of the reference's search
(a 12-deal Candidate match), so they are worked out on the analysis executor (its
worker processes, at a lower CPU priority: never on the event loop, never on the bots'
executor) and kept per process (:attr:`FairPlay.cache`, by table and seat: a finished
game never changes). A game that cannot be judged (its stored moves are not its
record's, say) is counted in ``skipped``. Measured on the 2-core machine at a load
average near 6: a one-round Spy game of 30 moves takes about 1 s, a one-deal Candidate
game of 12 decisions 0.1 s (the compiled core's search), so a player's 30 games are a
few seconds to half a minute the first time and instant afterwards.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardtable.fairplay import GameSignals, StoredMove, game_signals, player_signals
from cardtable.server.accounts import name_key
from cardtable.server.models import AccountRow, MoveRow, TableRow
from cardtable.server.storage import Storage

__all__ = ["GAMES", "FairPlay", "PlayedGame", "played_games"]

log = logging.getLogger("cardtable.server")

#: The most of a player's latest finished games of one kind a moderator's figures
#: pool (the calibrated signals pool the last 20 deals or rounds against 20 earlier).
GAMES: Final = 30
#: Games' signals one process keeps (by table and seat).
CACHE_SIZE: Final = 5000


@dataclass(frozen=True)
class PlayedGame:
    """One finished game of the player: the table, their seat, record and moves."""

    table: str
    seat: int
    record: dict[str, Any]
    moves: tuple[StoredMove, ...]


def played_games(name: str, game: str, most: int = GAMES) -> Callable[[Session], Any]:
    """A read: the account named ``name`` (its id and name, or ``None``) and its latest
    ``most`` finished games of ``game``, oldest first, each with its stored moves."""

    def read(session: Session) -> tuple[tuple[str, str] | None, list[PlayedGame]]:
        account = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
        if account is None:
            return None, []
        found: list[PlayedGame] = []
        query = (
            select(TableRow)
            .where(TableRow.status == "finished", TableRow.game == game)
            .order_by(TableRow.finished_at.desc())
            .execution_options(yield_per=200)
        )
        for table in session.scalars(query):
            seats = table.meta.get("seats", [])
            mine = [s for s in seats if s.get("account") == account.id]
            if not mine or table.record is None:
                continue
            rows = session.scalars(
                select(MoveRow).where(MoveRow.table_id == table.id).order_by(MoveRow.version)
            )
            moves = tuple(StoredMove(r.seat, r.move, r.source, r.race_time) for r in rows)
            found.append(PlayedGame(table.id, int(mine[0]["index"]), table.record, moves))
            if len(found) >= most:
                break
        return (account.id, account.name), found[::-1]

    return read


def _signals(record: dict[str, Any], seat: int, moves: tuple[StoredMove, ...]) -> Any:
    """One game's signals as JSON, or ``None`` when it cannot be judged (run by a
    worker: module level, plain arguments). A stored game is the server's own, yet one
    that cannot be read for any reason is skipped: the page shows the others."""
    try:
        return game_signals(record, seat, list(moves)).to_dict()
    except Exception:
        return None


class FairPlay:
    """A player's fair-play figures for the moderators' page (module docstring)."""

    def __init__(self, storage: Storage, executor: Callable[[], Executor]) -> None:
        self.storage = storage
        self.executor = executor
        #: Each game's signals by (table, seat); ``None``: it cannot be judged.
        self.cache: OrderedDict[tuple[str, int], dict[str, Any] | None] = OrderedDict()

    async def game(self, played: PlayedGame) -> dict[str, Any] | None:
        """One game's signals (worked out once per process)."""
        key = (played.table, played.seat)
        if key not in self.cache:
            loop = asyncio.get_running_loop()
            self.cache[key] = await loop.run_in_executor(
                self.executor(), _signals, played.record, played.seat, played.moves
            )
            while len(self.cache) > CACHE_SIZE:
                self.cache.popitem(last=False)
        self.cache.move_to_end(key)
        return self.cache[key]

    async def player(self, name: str, game: str) -> dict[str, Any] | None:
        """The player's figures in ``game`` (``None``: no such player): the pooled
        signals (``null`` without a judged game), and each game's own figures."""
        account, played = await self.storage.aread(played_games(name, game))
        if account is None:
            return None
        judged: list[GameSignals] = []
        games: list[dict[str, Any]] = []
        for one in played:
            data = await self.game(one)
            if data is None:
                continue
            signals = GameSignals.from_dict(data)
            judged.append(signals)
            games.append(
                {
                    "table": one.table,
                    "seat": one.seat,
                    "decisions": signals.agreement.decisions,
                    "agreements": signals.agreement.agreements,
                    "flagged_rounds": sum(s.flagged for s in signals.speeds),
                    "peak": max(
                        (s.peak_rate for s in signals.speeds if s.peak_rate is not None),
                        default=None,
                    ),
                }
            )
        return {
            "name": account[1],
            "game": game,
            "signals": player_signals(judged).to_dict() if judged else None,
            "games": games[::-1],  # newest first, as the page lists them
            "skipped": len(played) - len(judged),
        }
