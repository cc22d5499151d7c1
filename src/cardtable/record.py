"""Game records (``docs/records.md``): load, validate, write and replay.

A record is a JSON document: the rule options, the order of every card and every move.
It holds no derived state; replaying it derives everything. This module does the parts
every game shares — reading JSON, dispatching on ``"game"``, checking field shapes with
error messages that name the field — and each game package does the rest.

>>> record = new_record("candidate", seed=7)
>>> replay(record).summary()["next"]
{'player': 1, 'decision': 'deal'}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtable.cards import parse_card_kind
from cardtable.errors import BadRecord, CardParseError
from cardtable.games.base import Replay
from cardtable.games.registry import GAME_NAMES, find_game
from cardtable.messages import make_refusal

__all__ = [
    "RecordReader",
    "dump_record",
    "load_record",
    "new_record",
    "read_record_file",
    "replay",
]


def load_record(text: str) -> dict[str, Any]:
    """Parse a record's JSON text; bad JSON is a :class:`BadRecord` saying where, and
    an empty text (an empty file, nothing on standard input) says so."""
    if not text.strip():
        raise make_refusal("record.empty").bad_record("")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise make_refusal(
            "record.bad_json", detail=exc.msg, line=exc.lineno, column=exc.colno
        ).bad_record("") from None
    if not isinstance(data, dict):
        raise make_refusal("record.top_not_object", got_term=_json_term(data)).bad_record("")
    return data


def read_record_file(path: str | Path) -> dict[str, Any]:
    """Read and parse a record file (``-`` is not handled here; pass the text instead).

    A file that cannot be read raises :class:`~cardtable.errors.UnreadableFile` (it is
    missing, a folder, not allowed or not UTF-8); one that is read but is no record
    raises :class:`~cardtable.errors.BadRecord`.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise make_refusal("file.missing", path=str(path)).unreadable_file() from None
    except IsADirectoryError:
        raise make_refusal("file.is_folder", path=str(path)).unreadable_file() from None
    except OSError as exc:
        refusal = make_refusal("record.unreadable", path=str(path), detail=str(exc.strerror or exc))
        raise refusal.unreadable_file() from None
    except UnicodeDecodeError:
        raise make_refusal("record.not_utf8", path=str(path)).unreadable_file() from None
    return load_record(text)


def dump_record(record: Mapping[str, Any]) -> str:
    """A record as JSON text: two-space indents, lists of short strings on one line.

    The layout keeps a whole deal's moves readable and diffs small.
    """
    return _dump(record, 0) + "\n"


def _dump(value: Any, depth: int) -> str:
    pad = "  " * (depth + 1)
    end = "  " * depth
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dump(v, depth + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list | tuple):
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return json.dumps(list(value), ensure_ascii=False)
        items = [pad + _dump(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


def game_of(record: Mapping[str, Any]) -> str:
    """The record's ``game`` field, checked."""
    game = record.get("game")
    games = ", ".join(GAME_NAMES)
    if game is None:
        raise make_refusal("record.game_missing", games=games).bad_record("game")
    if game not in GAME_NAMES:
        raise make_refusal("record.game_unknown", got=repr(game), games=games).bad_record("game")
    return str(game)


def replay(record: Mapping[str, Any]) -> Replay:
    """Validate and replay a record of any game."""
    return find_game(game_of(record)).replay(record)


def new_record(
    game: str,
    *,
    seed: int,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A record of a fresh game of ``game`` dealt from ``seed``, with no moves.

    ``players`` defaults to two players named ``Player 1``, ``Player 2``.
    """
    names = list(players) if players is not None else ["Player 1", "Player 2"]
    return find_game(game).new_record(seed=seed, players=names, options=options or {})


def _json_term(value: object) -> str:
    """The message term naming the JSON type of ``value`` ("a string", …)."""
    if value is None:
        return "term.json_null"
    if isinstance(value, bool):
        return "term.json_boolean"
    if isinstance(value, int | float):
        return "term.json_number"
    if isinstance(value, str):
        return "term.json_string"
    if isinstance(value, list):
        return "term.json_list"
    return "term.json_object"


class RecordReader:
    """Field-checking helpers that name the field in every error.

    Paths are written as in ``docs/records.md`` (Errors): ``deals[0].piles.S``.
    """

    @staticmethod
    def as_object(value: Any, field: str) -> Mapping[str, Any]:
        """``value`` must be a JSON object."""
        if not isinstance(value, Mapping):
            raise make_refusal("value.not_object", got_term=_json_term(value)).bad_record(field)
        return value

    @staticmethod
    def check_fields(
        obj: Mapping[str, Any],
        field: str,
        *,
        required: Iterable[str] = (),
        optional: Iterable[str] = (),
    ) -> None:
        """``obj`` has every required key and no key outside required ∪ optional."""
        required = tuple(required)
        allowed = set(required) | set(optional)
        prefix = f"{field}." if field else ""
        for key in required:
            if key not in obj:
                raise make_refusal("record.field_missing").bad_record(prefix + key)
        for key in obj:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise make_refusal("record.field_unknown", known=known).bad_record(
                    prefix + str(key)
                )

    @staticmethod
    def as_list(value: Any, field: str) -> Sequence[Any]:
        """``value`` must be a JSON list."""
        if not isinstance(value, list):
            raise make_refusal("value.not_list", got_term=_json_term(value)).bad_record(field)
        return value

    @staticmethod
    def as_str(value: Any, field: str) -> str:
        """``value`` must be a JSON string."""
        if not isinstance(value, str):
            raise make_refusal("value.not_string", got_term=_json_term(value)).bad_record(field)
        return value

    @staticmethod
    def as_int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
        """``value`` must be an integer within [low, high] where given."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise make_refusal("value.not_integer", got_term=_json_term(value)).bad_record(field)
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                refusal = make_refusal("value.int_at_least", low=low or 0, value=value)
            elif low is None:
                refusal = make_refusal("value.int_at_most", high=high, value=value)
            else:
                refusal = make_refusal("value.int_range", low=low, high=high, value=value)
            raise refusal.bad_record(field)
        return value

    @staticmethod
    def as_bool(value: Any, field: str) -> bool:
        """``value`` must be true or false."""
        if not isinstance(value, bool):
            raise make_refusal("value.not_bool", got_term=_json_term(value)).bad_record(field)
        return value

    @classmethod
    def card_kinds(cls, value: Any, field: str) -> list[int]:
        """A list of card texts, as kinds (0..51); each bad card names its index."""
        kinds = []
        for i, item in enumerate(cls.as_list(value, field)):
            text = cls.as_str(item, f"{field}[{i}]")
            try:
                kinds.append(parse_card_kind(text))
            except CardParseError as exc:
                raise BadRecord(
                    f"{field}[{i}]", exc.reason, code=exc.code, params=exc.params
                ) from None
        return kinds

    @classmethod
    def player_names(
        cls, value: Any, field: str = "players", low: int = 2, high: int = 8
    ) -> list[str]:
        """The list of player names: ``low``..``high`` non-empty strings."""
        names = [cls.as_str(v, f"{field}[{i}]") for i, v in enumerate(cls.as_list(value, field))]
        if not low <= len(names) <= high:
            if low == high:
                refusal = make_refusal("record.players_exact", low=low, count=len(names))
            else:
                refusal = make_refusal("record.players_range", low=low, high=high, count=len(names))
            raise refusal.bad_record(field)
        for i, name in enumerate(names):
            if not name.strip():
                raise make_refusal("record.player_empty").bad_record(f"{field}[{i}]")
        return names
