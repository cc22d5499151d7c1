"""The exceptions every part of cardtable raises.

All of them are :class:`ValueError` subclasses, so a caller that only wants to know
"was this input acceptable?" can catch ``ValueError``; callers that need to tell the
cases apart catch the specific class. Messages are written for people: they name the
offending text and say what was expected, never a traceback's worth of internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class CardtableError(ValueError):
    """Base class of every error cardtable raises on bad input."""


class ReasonedError(CardtableError):
    """An error whose English ``reason`` (also its message) has a stable message id
    ``code`` in :mod:`cardtable.messages` and ``params``, from which a face says it in
    the player's language (``None``: no id)."""

    def __init__(
        self,
        reason: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ):
        self.reason = reason
        self.code = code
        self.params: Mapping[str, Any] = params or {}
        super().__init__(reason)


class CardParseError(ReasonedError):
    """A card (or list of cards) could not be read from text.

    ``reason`` is the English text (also the error's message); ``code`` is its stable
    message id in :mod:`cardtable.messages` and ``params`` its parameters, from which a
    face says it in the player's language (``None``: no id).

    >>> from cardtable.cards import Card
    >>> try:
    ...     Card.parse("1X")
    ... except CardParseError as exc:
    ...     print(exc)
    '1X' is not a card: expected a rank (2-10, J, Q, K, A) and a suit (S, H, D, C), e.g. QS or 10H
    """


class UnreadableFile(ReasonedError):
    """A file that cannot be read: it does not exist, may not be read, or is not text.

    Said as what it is, not as a malformed record: nothing in it was read.
    """


class BadOptions(CardtableError):
    """Rule options that are unknown, of the wrong type or out of range.

    ``code`` and ``params``, when given, are the reason's message id and parameters
    (``option`` names the option's path), so a server can answer in the player's
    language.
    """

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ):
        self.code = code
        self.params: Mapping[str, Any] = params or {}
        super().__init__(message)


class IllegalMove(CardtableError):
    """A move that the rules do not allow in the current position.

    ``reason`` says why in a player's words (English); ``move`` is the move's text (or
    ``None`` when only an int was given); ``position`` is filled in by record replay
    ("deal 1, move 17") so the message points at the record entry. ``code`` is the
    reason's stable message id and ``params`` its parameters, from which a face shows
    the reason in the player's language (``None``: no id yet).
    """

    def __init__(
        self,
        reason: str,
        move: str | None = None,
        position: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ):
        self.reason = reason
        self.move = move
        self.position = position
        self.code = code
        self.params: Mapping[str, Any] = params or {}
        super().__init__(self._message())

    def _message(self) -> str:
        head = ""
        if self.position:
            head = f"{self.position}: "
        if self.move is not None:
            head += f"illegal move {self.move!r}: "
        return head + self.reason

    def at(self, position: str, move: str | None = None) -> IllegalMove:
        """The same error, located at a record position (and move text, if known)."""
        return IllegalMove(
            self.reason,
            move if move is not None else self.move,
            position,
            code=self.code,
            params=self.params,
        )


class BadRecord(CardtableError):
    """A game record that is not well formed (``docs/records.md``): bad JSON, an unknown or
    missing field, a wrong type, or pile contents that do not add up.

    ``field`` is the path of the offending field, e.g. ``deals[0].piles.S``; ``code``
    and ``params`` are the reason's message id and parameters (see :class:`IllegalMove`).
    """

    def __init__(
        self,
        field: str,
        reason: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ):
        self.field = field
        self.reason = reason
        self.code = code
        self.params: Mapping[str, Any] = params or {}
        super().__init__(
            f"malformed record: {field}: {reason}" if field else f"malformed record: {reason}"
        )
