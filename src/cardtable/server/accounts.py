"""Accounts: user names, password hashes, session tokens and the limits on logging in.

Nothing here touches the database or HTTP; :mod:`.routes.accounts` wires it to both.

- **Names.** A user name is compared by its *key*: NFKC normalisation, then case
  folding (``"ANN"``, ``"ann"`` and ``"ａｎｎ"`` are one name). A name is refused when it
  mixes scripts (``"Вob"``: a Cyrillic В with Latin letters), holds an invisible or
  formatting character (zero-width space, joiners, bidi controls) or a combining mark,
  or starts with a bot's word (``Bot``/``Бот``: bots' names are reserved), or reads as
  a label the server gives people without a name (``spectator 1``, ``глядач``). Two names
  whose *skeletons* are equal are confusable; the skeleton maps the Cyrillic and Greek
  letters that look like Latin ones (and the digits ``0``/``1``) to one form, so
  ``"Ann"`` and the all-Cyrillic ``"Аnn"``-lookalike cannot both exist.
- **Guests' names** pass the same checks (a guest sits under a display name, without
  an account), and may not be an account's name or confusable with one
  (:func:`.account_store.name_owner`): nobody can pass for an account, a bot or a
  spectator's label.
- **Passwords** are hashed with argon2id (:mod:`argon2`, its recommended parameters).
  A login for a name that does not exist verifies the password against a dummy hash, so
  it costs the same time as a wrong password.
- **Sessions** are random tokens; the database keeps only their SHA-256 digest.
- **Limits**: failed logins are counted per (name key, client address) and per client
  address, with delays that grow past a few failures (:class:`LoginLimiter`); never per
  name alone, so nobody can lock another player out.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "GUEST_NAME_MAX",
    "NAME_MAX",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "LoginLimiter",
    "NameError_",
    "check_name",
    "hash_password",
    "is_label",
    "login_delay",
    "name_key",
    "new_session_token",
    "session_digest",
    "skeleton",
    "verify_password",
]

#: Longest user name, in characters (after normalisation).
NAME_MAX = 24
#: Longest guest's display name (the protocol's ``DisplayName``; at least 1 character).
GUEST_NAME_MAX = 32
#: Shortest and longest password, in characters.
PASSWORD_MIN = 8
PASSWORD_MAX = 256

_HASHER = PasswordHasher()  # argon2id with argon2-cffi's recommended (RFC 9106) parameters
#: Verified against when the name is unknown, so that answer takes as long as a wrong
#: password.
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))

#: Letters of other scripts that look like Latin letters (after case folding), and
#: digits that look like letters: the skeleton maps them all to the Latin letter.
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "ь": "b",
        "с": "c",
        "ԁ": "d",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "н": "h",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "п": "n",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "г": "r",
        "ѕ": "s",
        "т": "t",
        "и": "u",
        "ц": "u",
        "ѵ": "v",
        "ԝ": "w",
        "ш": "w",
        "х": "x",
        "у": "y",
        "ў": "y",
        "з": "3",
        # Greek
        "α": "a",
        "β": "b",
        "ϲ": "c",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        # Digits and marks that pass for letters
        "0": "o",
        "1": "l",
        "|": "l",
        "i": "l",
    }
)

#: Punctuation a name may hold besides letters, digits and single inner spaces.
_NAME_PUNCTUATION = frozenset("-_.'")

#: Reserved beginnings (compared on the skeleton): bots' names.
_RESERVED_PREFIXES = ("bot", "бот")

#: Labels the server gives people without a name (chat's "spectator 3", in the
#: client's languages): no name may be one, with or without a number.
_RESERVED_LABELS = ("spectator", "глядач")

#: What may follow a reserved label: spaces, digits and the name punctuation.
_LABEL_TAIL = re.compile(r"[\s\d\-_.']*$")


class NameError_(ValueError):  # noqa: N801 (NameError is a builtin)
    """A user name that cannot be registered: ``code`` says why (a message id's tail)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def name_key(name: str) -> str:
    """The form names are unique in: NFKC, then case folding, then NFKC again.

    >>> name_key("ＡＮＮ") == name_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """The form two names are confusable in: the key with look-alike letters merged.

    >>> skeleton("Ann") == skeleton("\\u0410nn")  # Cyrillic А
    True
    >>> skeleton("Bob") == skeleton("B0b")
    True
    """
    return name_key(name).translate(_LOOKALIKES)


def _script(char: str) -> str | None:
    """The script of a letter (the first word of its Unicode name), None for others."""
    if not unicodedata.category(char).startswith("L"):
        return None
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def check_name(raw: str, longest: int = NAME_MAX, shortest: int = 2) -> str:
    """The user name to store for ``raw`` (NFKC, outer spaces gone), or :class:`NameError_`.

    >>> check_name("  Olena ")
    'Olena'
    >>> check_name("Ann\\u200b")
    Traceback (most recent call last):
    ...
    cardtable.server.accounts.NameError_: a user name may not hold invisible characters
    """
    for char in raw:
        category = unicodedata.category(char)
        if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp") or category.startswith("M"):
            raise NameError_("name_invisible", "a user name may not hold invisible characters")
    name = unicodedata.normalize("NFKC", raw).strip()
    if not shortest <= len(name) <= longest:
        raise NameError_("name_length", f"a user name has {shortest} to {longest} characters")
    key = skeleton(name)
    if key.startswith(_RESERVED_PREFIXES) or name_key(name).startswith(_RESERVED_PREFIXES):
        raise NameError_("name_reserved", "names starting with Bot are kept for the bots")
    if is_label(name):
        raise NameError_(
            "name_label", "names such as 'spectator 1' are kept for the server's labels"
        )
    if "  " in name:
        raise NameError_("name_spaces", "a user name may not hold two spaces in a row")
    for char in name:
        if not (unicodedata.category(char)[0] in "LN" or char == " " or char in _NAME_PUNCTUATION):
            raise NameError_(
                "name_character", "a user name holds letters, digits, spaces and - _ . ' only"
            )
    scripts = {s for s in map(_script, name) if s is not None}
    if len(scripts) > 1:
        raise NameError_("name_scripts", "a user name may not mix alphabets")
    if not scripts:
        raise NameError_("name_letters", "a user name needs a letter")
    return name


def is_label(name: str) -> bool:
    """Whether ``name`` reads as a label the server gives (``spectator 1``, ``глядач``),
    look-alike letters and any number included.

    >>> [is_label(n) for n in ("spectator 1", "SPECTATOR", "Sресtator 12", "Spectra 1")]
    [True, True, True, False]
    """
    stem = _LABEL_TAIL.sub("", name_key(name))
    return skeleton(stem) in {skeleton(label) for label in _RESERVED_LABELS}


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (its own salt inside)."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash; ``None`` (no such account)
    verifies against a dummy hash and is always False, in about the same time."""
    try:
        return _HASHER.verify(stored if stored is not None else _DUMMY_HASH, password) and (
            stored is not None
        )
    except (VerificationError, InvalidHashError):
        return False


def new_session_token() -> str:
    """A new session token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def session_digest(token: str) -> str:
    """What the database keeps of a session token: its SHA-256, hex.

    A plain digest suffices: the token has 256 random bits, so it cannot be guessed from
    the digest, and a stolen table of digests opens no session.
    """
    return hashlib.sha256(token.encode()).hexdigest()


def login_delay(failures: int, free: int, step: float, cap: float) -> float:
    """Seconds a key must wait after its latest failed login: nothing for the first
    ``free - 1`` failures, then ``step`` doubling with each further failure, at most
    ``cap`` (:class:`LoginLimiter`; the Redis form in :mod:`.limits` says the same).

    >>> [login_delay(n, 5, 60.0, 900.0) for n in (4, 5, 6, 7, 8, 9, 10)]
    [0.0, 60.0, 120.0, 240.0, 480.0, 900.0, 900.0]
    """
    if failures < free:
        return 0.0
    return float(min(cap, step * 2 ** min(failures - free, 32)))


@dataclass
class LoginLimiter:
    """Failed logins per (name, address) and per address, with growing delays.

    Keys are ``"pair:<name key>@<address>"`` (whether or not such an account exists,
    so the answer does not tell) and ``"addr:<address>"``. Past a key's free failures
    each further failure makes the next try wait twice as long (:func:`login_delay`),
    counted from that failure; failures older than ``window`` are forgotten.

    No limit counts a name alone: a stranger guessing a player's password from another
    address slows only themselves, never the player.
    """

    per_pair: int = 5
    per_address: int = 20
    #: The first delay and the longest, per (name, address) and per address.
    step: float = 60.0
    pair_cap: float = 900.0
    address_cap: float = 3600.0
    window: float = 3600.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        if not times:
            del self._failures[key]
            return deque()
        return times

    def _keys(self, name: str, address: str) -> tuple[str, str]:
        return f"pair:{name_key(name)}@{address}", f"addr:{address}"

    def retry_after(self, name: str, address: str) -> float:
        """Seconds until a login for ``name`` from ``address`` may be tried (0: now)."""
        wait = 0.0
        pair, addr = self._keys(name, address)
        for key, free, cap in (
            (pair, self.per_pair, self.pair_cap),
            (addr, self.per_address, self.address_cap),
        ):
            times = self._recent(key)
            if times:
                delay = login_delay(len(times), free, self.step, cap)
                wait = max(wait, times[-1] + delay - self.clock())
        return wait

    def failed(self, name: str, address: str) -> None:
        """Count a failed login."""
        now = self.clock()
        for key in self._keys(name, address):
            self._failures.setdefault(key, deque()).append(now)

    def succeeded(self, name: str, address: str) -> None:
        """A correct password clears the failures of the name from that address (not
        the address's own)."""
        self._failures.pop(self._keys(name, address)[0], None)
