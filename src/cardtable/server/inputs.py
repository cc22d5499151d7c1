"""What a client sends, checked before any model reads it: JSON depth, numbers and text.

Every HTTP body and every WebSocket message passes :func:`check_json` first, so that
nothing past it meets JSON that Python or the models handle badly:

- **Depth** is scanned on the text itself, before any parser runs (a parser recurses
  once per level: JSON nested a few hundred deep raised ``RecursionError`` in the
  error answer, and at 800 levels dropped the connection). No request of the protocol
  nests deeper than a handful of levels; :data:`MAX_DEPTH` leaves ample room.
- **Numbers** with more than :data:`MAX_NUMBER_CHARS` characters are refused (Python
  refuses to convert integers of over 4,300 digits with a ``ValueError``; no field of
  the API takes a number anywhere near that long).
- **Text**: object keys and strings must be Unicode that UTF-8 can carry; a lone
  surrogate (``"\\ud800"``, valid JSON escape syntax) is refused, since nothing could
  store, show or echo it.

Bodies that are not JSON at all are left to the routes (which answer 415 or 422): only
JSON that parses is checked for numbers and text.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_NUMBER_CHARS", "BadInput", "check_json", "json_depth", "json_safe"]

#: Deepest nesting of arrays and objects a client may send.
MAX_DEPTH = 64

#: Longest number literal (in characters) a client may send.
MAX_NUMBER_CHARS = 64

#: A JSON string literal (escapes included), skipped when counting brackets.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


class BadInput(ValueError):
    """JSON a client may not send: ``code`` names why (``server.<code>`` in messages.py)."""

    def __init__(self, code: str, message: str, params: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params)

    def detail(self) -> dict[str, Any]:
        """The ``detail`` of the HTTP error answer (the shape every refusal has)."""
        return {
            "code": self.code,
            "message": self.message,
            "message_id": f"server.{self.code}",
            "params": self.params,
        }


def json_depth(raw: bytes | str, limit: int = MAX_DEPTH) -> int:
    """How deep arrays and objects nest in ``raw`` (brackets inside strings do not
    count), reading no further once past ``limit``; text that is not JSON gets a
    number all the same, as its brackets say.

    >>> json_depth(b'{"a": [[1], {"b": "]]]"}]}')
    3
    >>> json_depth(b"[" * 1000, limit=64)
    65
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING.sub(b"", data)):
        depth += 1 if match.group() in (b"[", b"{") else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def _number(text: str) -> str:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadInput(
            "number_too_long",
            f"a number may have at most {MAX_NUMBER_CHARS} characters",
            {"limit": MAX_NUMBER_CHARS},
        )
    return text


def _check_text(value: Any) -> None:
    """Refuse a key or string holding a lone surrogate (depth is bounded already)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput(
                "bad_text",
                "text must be valid Unicode: a lone surrogate (such as \\ud800) is not",
                {},
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)


def check_json(raw: bytes | str) -> None:
    """Raise :class:`BadInput` when ``raw`` nests deeper than :data:`MAX_DEPTH`, or
    parses as JSON holding a number over :data:`MAX_NUMBER_CHARS` characters or text
    with a lone surrogate. JSON that does not parse passes (its reader refuses it).

    >>> try:
    ...     check_json(b'{"token": {"\\\\ud800": 1}}')
    ... except BadInput as exc:
    ...     print(exc.code)
    bad_text
    """
    if json_depth(raw) > MAX_DEPTH:
        raise BadInput(
            "too_deep",
            f"JSON may nest at most {MAX_DEPTH} arrays and objects deep",
            {"limit": MAX_DEPTH},
        )
    try:
        value = json.loads(raw, parse_int=lambda t: int(_number(t)), parse_float=_float)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, BadInput):
            raise
        return  # not JSON (or not UTF-8): the reader says so
    _check_text(value)


def _float(text: str) -> float:
    return float(_number(text))


def json_safe(value: Any) -> Any:
    """``value`` with what JSON cannot carry shown as text: bytes (decoded with
    replacement characters), lone surrogates in strings and object keys (which UTF-8
    cannot encode) and infinite or NaN floats. Used on what a refusal echoes.

    >>> json_safe({"input": [b"\\xffa", float("inf"), 2, "a\\ud800"], "\\udc00": 1})
    {'input': ['\\ufffda', 'inf', 2, 'a?'], '?': 1}
    """
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, Mapping):
        return {json_safe(str(key)): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return value
