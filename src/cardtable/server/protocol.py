"""The messages of the WebSocket protocol and the HTTP API, as pydantic models.

docs/protocol.md describes the protocol with a worked example of every message. In short:
one WebSocket per client at ``/ws/tables/{id}``; every message is a JSON object with a
``type``. The client says ``hello`` (with its seat token, or none to watch), then sends
``move``s; every move carries the seat token, the table version it was made against and a
move id the client chose. Between two deals or rounds the table pauses; a seated client
may say ``ready`` to end the pause sooner. The server answers ``welcome``, ``ack``,
``resync``, ``error`` and ``pong`` and pushes an ``update`` to every connection after
every change, each with the recipient's own view only. Every server message carries the
table's ``version``.

The server builds every message it sends from these models (:mod:`.core`), and the
tests validate every message they receive against them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
)

#: Longest WebSocket message the server reads, in bytes (longer ones are refused).
MAX_MESSAGE_BYTES = 4096

Token = Annotated[str, StringConstraints(min_length=8, max_length=128)]
MoveId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MoveText = Annotated[str, StringConstraints(min_length=1, max_length=64)]
DisplayName = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=32, pattern=r"^[^\x00-\x1f\x7f]+$"
    ),
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ------------------------------------------------------------ client → server
class Hello(_Message):
    """Open the conversation: as a seat (with its token) or as a spectator (no token)."""

    type: Literal["hello"]
    token: Token | None = Field(default=None, description="The seat's secret token; omit to watch.")


class Move(_Message):
    """A move by the connection's seat."""

    type: Literal["move"]
    token: Token = Field(description="The seat's secret token, checked on every move.")
    # Strict: JSON ``true`` is not version 1.
    version: StrictInt = Field(ge=0, description="The table version the move was made against.")
    move_id: MoveId = Field(description="Chosen by the client; a repeat gets the same answer.")
    move: MoveText = Field(description="The move in record notation, e.g. 'play 10H JH'.")


class Sync(_Message):
    """Ask for the full current state again (answered with ``resync``)."""

    type: Literal["sync"]
    token: Token | None = None


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


class Ready(_Message):
    """During the pause between two deals or rounds: the seat's person is ready to go on.

    The pause ends once every person present is ready (or its time is up).
    """

    type: Literal["ready"]
    token: Token = Field(description="The seat's secret token.")


class Resign(_Message):
    """The seat's person resigns the match (a turn-based game): it ends at once and
    the others win. Allowed at any moment while the match runs, at every table."""

    type: Literal["resign"]
    token: Token = Field(description="The seat's secret token.")


class Abort(_Message):
    """The seat's person calls the match off before any person has moved: the table
    ends with no result and nothing is rated. Refused at a tournament's table."""

    type: Literal["abort"]
    token: Token = Field(description="The seat's secret token.")


class Takeback(_Message):
    """Take back the seat's last move and the bots' replies after it: only at a casual
    (unrated) table of one person against bots, outside tournaments."""

    type: Literal["takeback"]
    token: Token = Field(description="The seat's secret token.")


class Chat(_Message):
    """A line of table chat from this connection: the players' chat from a seat, the
    spectators' chat from a spectator (who said it is the server's to stamp)."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(max_length=2000)] = Field(
        description="The line (at most 300 characters once control characters are "
        "taken out; longer lines are refused with chat_too_long)."
    )
    token: Token | None = Field(
        default=None, description="The seat's token, if given checked like a move's."
    )


ClientMessage = Annotated[
    Hello | Move | Sync | Ping | Ready | Resign | Abort | Takeback | Chat,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[
    Hello | Move | Sync | Ping | Ready | Resign | Abort | Takeback | Chat
] = TypeAdapter(ClientMessage)


# ------------------------------------------------------------ server → client
class SeatInfo(BaseModel):
    """What everyone may know about a seat."""

    index: int
    role: Literal["open", "human", "bot"] = Field(
        description="Who sits there: nobody yet (open), a person or a bot."
    )
    name: str | None
    level: str | None = Field(description="A bot seat's level: easy, medium or hard.")
    connected: bool
    substituted: bool = Field(description="A bot is moving for this absent player.")
    signed_in: bool = Field(
        default=False,
        description="A signed-in account holds the seat: the name is the account's.",
    )
    guest: bool = Field(
        default=False,
        description="A guest holds the seat: a display name of no account (never an "
        "account's, a bot's or a spectator label); clients mark it as a guest's.",
    )


class Segment(BaseModel):
    """How a deal or round ended (the engine's account of it)."""

    number: int = Field(description="The deal or round, from 1.")
    scores: list[int] = Field(description="Each seat's score in it.")
    totals: list[int] = Field(description="Each seat's total after it.")
    ending: str = Field(
        description="How it ended: Spy 'called', 'blocked' or 'resigned'; Candidate 'played'."
    )
    ended_by: int | None = Field(description="The seat that ended it (Spy: the first caller).")


class Pause(BaseModel):
    """The table pauses between two deals or rounds (no moves, no clocks, no bots)."""

    seconds: float = Field(description="Seconds left when the state was sent.")
    ready: list[int] = Field(description="Seats whose person said they are ready.")
    holds: bool = Field(
        default=False,
        description="A turn-based game waits for every person present to say ready, "
        "however long: 'seconds' then applies only once none is left waiting.",
    )
    segment: Segment | None = Field(default=None, description="The deal or round just over.")


class Count(BaseModel):
    """The 3-2-1 count before a race round: nobody moves until it ends."""

    seconds: float = Field(description="Seconds until the race starts, when the state was sent.")


class Race(BaseModel):
    """A race's times, kept by the server (so a reload shows the same time)."""

    elapsed: float = Field(
        description="Seconds the round in play has run (0 during its count; between rounds "
        "and at the end, the last round's time)."
    )
    times: list[float] = Field(description="Seconds each finished round ran.")


class May(BaseModel):
    """What the recipient's seat may ask for now besides a move (a client shows only
    these buttons; every other request is refused with its reason)."""

    resign: bool = Field(default=False, description="Resign the match.")
    abort: bool = Field(default=False, description="Abort it: no person has moved yet.")
    takeback: bool = Field(
        default=False, description="Take back its last move (casual, against bots)."
    )


class State(BaseModel):
    """Everything one recipient may see of a table: its own view only."""

    table: str
    game: str
    status: Literal["waiting", "playing", "finished"]
    version: int
    seat: int | None = Field(description="The recipient's seat; null for a spectator.")
    seats: list[SeatInfo]
    to_move: int | Literal["anyone"] | None = Field(
        description="The seat whose decision it is, 'anyone' in a race, null when none."
    )
    view: dict[str, Any] | None = Field(description="The engine's view for this recipient.")
    legal_moves: list[str] = Field(description="The recipient's legal moves now.")
    clocks: list[float] | None = Field(description="Seconds left per seat, or null.")
    pause: Pause | None = Field(
        default=None, description="While the table pauses between deals or rounds."
    )
    count: Count | None = Field(default=None, description="While a race's start count runs.")
    race: Race | None = Field(default=None, description="A race's times (null: turn-based).")
    segments: list[Segment] = Field(
        default_factory=list, description="How each finished deal or round ended."
    )
    result: dict[str, Any] | None = Field(
        description="Once finished: totals, winners, ranks, and how it ended — 'ending' "
        "'played' (to the end), 'resigned' (the others win) or 'aborted' (no result) — "
        "with 'ended_by', the seat that resigned or aborted."
    )
    rematch: str | None = Field(description="The rematch table's id, once there is one.")
    rated: bool = Field(default=False, description="A rated table (no help of any kind).")
    hints: bool = Field(default=False, description="Its seats may ask for hints.")
    tournament: bool = Field(default=False, description="A tournament's game.")
    may: May = Field(default_factory=May, description="What the recipient may ask for now.")


class Event(BaseModel):
    """What changed, in an ``update`` (nested under ``event``, so its ``type`` is apart
    from the message's own)."""

    type: Literal[
        "join",
        "start",
        "move",
        "seat",
        "rematch",
        "ready",
        "resume",
        "go",
        "resign",
        "abort",
        "takeback",
        "timeout",
    ]
    #: The seat that joined, moved or changed; for ``rematch`` the one who asked for it;
    #: for ``resign``, ``abort`` and ``takeback`` the one who did it.
    seat: int | None = None
    move: str | None = None
    source: Literal["player", "bot", "substitute", "clock"] | None = None
    events: list[dict[str, Any]] = Field(
        default_factory=list,
        description="A move's engine events as this recipient may see them (a card drawn "
        "shows only to its drawer): captures, a lobby discarded, the end of a deal or round.",
    )
    time: float | None = Field(
        default=None,
        description="A race's move: the seconds its round's race had run when it came.",
    )


class PastMove(BaseModel):
    """An accepted move of the match so far, for a client's move list."""

    seat: int
    move: str = Field(description="The move in record notation (public in every game).")
    source: Literal["player", "bot", "substitute", "clock"]
    events: list[dict[str, Any]] = Field(
        default_factory=list,
        description="The move's engine events as the recipient may see them (as in an update).",
    )
    time: float | None = Field(
        default=None,
        description="A race's move: the seconds its round's race had run when it came "
        "(none for a move made before the server last restarted).",
    )


class ChatLine(BaseModel):
    """A line of table chat, stamped by the server with who said it."""

    number: int = Field(description="The line's number at this table, from 1.")
    channel: Literal["players", "spectators"] = Field(
        description="The players' chat (everyone reads it) or the spectators' chat "
        "(only spectators read it)."
    )
    seat: int | None = Field(description="The seat that said it; null for a spectator.")
    name: str = Field(
        description="The seat's name, a signed-in spectator's account name, or "
        "'spectator n' for an anonymous one."
    )
    signed_in: bool = Field(description="The name is a signed-in account's.")
    spectator: int | None = Field(
        default=None, description="An anonymous spectator's number (the n of its name)."
    )
    text: str = Field(description="The text, to be shown as text (never as HTML).")
    at: datetime = Field(description="When the server took it (UTC).")


class Welcome(_Message):
    """The answer to ``hello``: who you are and the full state."""

    type: Literal["welcome"]
    version: int
    seat: int | None
    state: State
    history: list[PastMove] = Field(
        default_factory=list, description="Every accepted move so far, oldest first."
    )
    chat: list[ChatLine] = Field(
        default_factory=list,
        description="The newest lines (up to 100 per channel) of the chats this "
        "connection reads, oldest first.",
    )


class Update(_Message):
    """Pushed to every connection after every change, each with its own view."""

    type: Literal["update"]
    version: int
    event: Event
    state: State


class Ack(_Message):
    """A move was accepted (and stored); ``move_version`` is the version it produced."""

    type: Literal["ack"]
    version: int
    move_id: str
    move_version: int


class Resync(_Message):
    """The full current state, after a stale move or a ``sync``; ``reason`` in English,
    ``message_id`` and ``params`` to say it in another language."""

    type: Literal["resync"]
    version: int
    move_id: str | None
    reason: str
    message_id: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    state: State


class Error(_Message):
    """A refused message: a machine-readable ``code``, a sentence for people in English
    (``message``), and its message id with parameters (``message_id``, ``params``) from
    which a client shows it in its player's language: a move the rules refuse carries
    the engine's (their templates come from ``GET /api/messages``), the table's own
    refusals ``table.<code>``, the protocol's ``server.<code>``."""

    type: Literal["error"]
    version: int | None
    code: str
    message: str
    message_id: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    move_id: str | None = None


class ChatMessage(_Message):
    """A new line of table chat, to every connection that reads its channel."""

    type: Literal["chat"]
    version: int
    line: ChatLine


class Pong(_Message):
    """The answer to ``ping``."""

    type: Literal["pong"]
    version: int


ServerMessage = Annotated[
    Welcome | Update | Ack | Resync | Error | Pong | ChatMessage, Field(discriminator="type")
]
SERVER_MESSAGE: TypeAdapter[Welcome | Update | Ack | Resync | Error | Pong | ChatMessage] = (
    TypeAdapter(ServerMessage)
)


# ------------------------------------------------------------------ HTTP API
class SeatSpec(BaseModel):
    """A seat of a new table: open for a person, or a bot of some level."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["open", "bot"] = "open"
    level: Literal["easy", "medium", "hard"] = Field(
        default="medium", description="The bot's level (bot seats only)."
    )


class TimeControlSpec(BaseModel):
    """A clock per seat, in seconds: ``initial`` to start with, ``increment`` per move."""

    model_config = ConfigDict(extra="forbid")

    initial: float = Field(gt=0, le=24 * 3600)
    increment: float = Field(default=0, ge=0, le=3600)


#: The largest number a rule option may be given (each game has tighter bounds).
MAX_OPTION_NUMBER = 10**6

#: A rule option's value: true/false, a number within ±:data:`MAX_OPTION_NUMBER`, or
#: a short text. The game checks the option itself (docs/rules); this only keeps huge
#: numbers and nested data out of the request.
OptionValue = (
    StrictBool
    | Annotated[int, Field(ge=-MAX_OPTION_NUMBER, le=MAX_OPTION_NUMBER)]
    | Annotated[float, Field(ge=-MAX_OPTION_NUMBER, le=MAX_OPTION_NUMBER, allow_inf_nan=False)]
    | Annotated[str, Field(max_length=64)]
)
#: Rule options by name (docs/rules): at most 16.
RuleOptions = Annotated[
    dict[Annotated[str, Field(max_length=32)], OptionValue], Field(max_length=16)
]


class CreateTable(BaseModel):
    """A request for a new table."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="'candidate' or 'spy'.", max_length=32)
    options: RuleOptions = Field(
        default_factory=dict, description="Rule options (docs/rules), e.g. {'decks': 2}."
    )
    seats: list[SeatSpec] = Field(
        min_length=1, max_length=8, description="One entry per seat, in seat order."
    )
    time_control: TimeControlSpec | None = Field(default=None, description="Omit for no clocks.")
    rated: bool = Field(
        default=False,
        description="Update the ratings when it finishes (signed-in players only).",
    )
    hints: bool | None = Field(
        default=None,
        description="Let the seats ask for hints while the game runs. Omit: allowed at "
        "a casual table, never at a rated one (true with rated is refused, 422). Taking "
        "a seat means agreeing to it.",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**62,
        description="For tests only: refused (403) unless the server runs with "
        "--allow-client-seeds, and then only for an unrated table. The server deals "
        "from its own secret seed otherwise.",
    )
    sit: DisplayName | None = Field(
        default=None,
        description="The creator's display name: when the table has exactly one open "
        "seat (playing alone against bots), the server seats the creator there at once, "
        "as a join with that seat's invite would (a signed-in creator sits as the "
        "account), and the answer's 'seated' holds the seat's token. With several open "
        "seats it is ignored: the invites go out as usual.",
    )


class TableInfo(BaseModel):
    """The public facts of a table."""

    id: str
    game: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "finished"]
    version: int
    seats: list[SeatInfo]
    time_control: dict[str, float] | None
    rated: bool
    hints: bool = Field(default=False, description="Seats may ask for hints while it runs.")
    rematch_of: str | None
    rematch: str | None


class Invite(BaseModel):
    """The invite of an open seat: share the link with the person who should sit there."""

    seat: int
    code: str
    link: str


class Seated(BaseModel):
    """A seat taken: keep ``token`` secret, it alone can act for the seat."""

    table: TableInfo
    seat: int
    token: str


class Created(BaseModel):
    """A new table, the invites of its open seats and the creator's host token; the
    creator's own seat when the request's ``sit`` seated them (one open seat)."""

    table: TableInfo
    invites: list[Invite]
    host_token: str = Field(
        description="Keep it secret: with it alone the open seats' invites can be asked "
        "for again (POST /api/tables/{id}/invites) until each seat is taken."
    )
    seated: Seated | None = Field(
        default=None,
        description="The creator's seat and its secret token, when 'sit' seated them "
        "(the table's one open seat); null otherwise.",
    )


class InvitesRequest(BaseModel):
    """Ask for the open seats' invites again, as the table's creator."""

    model_config = ConfigDict(extra="forbid")

    token: Token = Field(description="The host token the creation answered with.")


class Invites(BaseModel):
    """The invites of the seats still open (a taken seat's invite is gone)."""

    table: str
    invites: list[Invite]


class CodeTarget(BaseModel):
    """What a code pasted in the lobby stands for: a table (to watch or come back to) or
    an open seat's invite (to take)."""

    target: Literal["table", "invite"]
    table: TableInfo
    seat: int | None = Field(description="The seat an invite is for; null for a table id.")


class JoinRequest(BaseModel):
    """Take an open seat with its invite code, under a display name."""

    model_config = ConfigDict(extra="forbid")

    invite: str = Field(max_length=64)
    name: DisplayName


class RematchRequest(BaseModel):
    """Ask for (or join) the next game of a finished table, as one of its seats.

    Without ``game`` and ``options`` it is a rematch: the same game and options. With
    them it is a new game with the same seats (the game must seat as many players).
    The first request creates the next table; later ones join it, whatever they name.
    """

    model_config = ConfigDict(extra="forbid")

    token: Token
    game: str | None = Field(default=None, max_length=32, description="Omit: the same game.")
    options: RuleOptions | None = Field(
        default=None, description="Omit: the same options (a new game: the game's defaults)."
    )


# ------------------------------------------------------ the "play now" queue
class SeekRequest(BaseModel):
    """Wait for a game: the queue is the game, rated or not, and the clock."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="'candidate' or 'spy'.", max_length=32)
    rated: bool = Field(default=False, description="Rated (signed-in players only).")
    time_control: TimeControlSpec | None = Field(default=None, description="Omit for no clocks.")
    days: Literal[1, 2, 3, 7] | None = Field(
        default=None,
        description="Days per move: a correspondence game (signed-in players, "
        "turn-based games, no time_control).",
    )
    name: DisplayName | None = Field(
        default=None, description="A guest's display name (a signed-in player's is the account's)."
    )


class SeekInfo(BaseModel):
    """A waiting seek as the lobby shows it (no secret, no token)."""

    id: str
    game: str
    rated: bool
    time_control: TimeControlSpec | None
    days: int | None = Field(default=None, description="Days per move (correspondence).")
    name: str
    signed_in: bool
    guest: bool = Field(default=False, description="A guest waits: the name is no account's.")
    waited: float = Field(description="Seconds it has waited.")


class SeekSecret(BaseModel):
    """The owner's proof of a seek (its heartbeat, cancel and bots)."""

    model_config = ConfigDict(extra="forbid")

    secret: Token


class SeekBots(SeekSecret):
    """Fill the empty seats with bots now (after the queue's time-out)."""

    seats: int | None = Field(
        default=None, ge=2, le=8, description="The table's size; omit: the game's fewest."
    )
    level: Literal["easy", "medium", "hard"] = "medium"


class SeekStatus(BaseModel):
    """A seek as its owner sees it: waiting (with the queue's timing) or seated."""

    seek: SeekInfo
    status: Literal["waiting", "seated"]
    in_queue: int = Field(description="People waiting in the queue, this one included.")
    starts_in: float | None = Field(
        description="Seconds until the gathering window closes; null: not enough players."
    )
    bots_in: float = Field(description="Seconds until bots may fill the table (0: now).")
    seated: Seated | None = Field(description="The table, seat and this player's own token.")


class SeekCreated(SeekStatus):
    """A new seek with its secret: keep it, it alone polls, cancels or calls bots."""

    secret: str


class Health(BaseModel):
    """The server is up and ready (``draining``: stopping, answered with 503)."""

    status: Literal["ok", "draining"]
    games: list[str]
    tables: int
    #: With several processes: this process's id, else ``None``.
    instance: str | None = None
    #: Tables this process owns (with several processes; else every live table).
    owned: int = 0
    #: Moves this process judged and stored since it started.
    moves: int = 0
    #: Tables this process took over from another owner.
    taken_over: int = 0
    draining: bool = False


class RatingEntry(BaseModel):
    """An account's rating in one game (its profile is ``/api/players/{name}``)."""

    name: str
    mu: float
    sigma: float
    ordinal: float = Field(description="openskill's conservative mu - 3·sigma.")
    rating: int = Field(description="The shown rating: 1500 + 30·(mu - 25), rounded.")
    provisional: bool = Field(description="Fewer rated games than make it settled.")
    label: str = Field(description="The rating as printed, '1641?' while provisional.")
    games: int
    wins: int = 0
    losses: int = 0
    account: bool = Field(default=True, description="An account (bots are not rated).")


class Leaderboard(BaseModel):
    """The best-rated players of a game: settled ratings first, then provisional ones,
    each best first."""

    game: str
    entries: list[RatingEntry]
    provisional_games: int = Field(
        description="Rated games after which a rating is no longer provisional."
    )


class OfferedGame(BaseModel):
    """A game the server offers."""

    name: str
    title: str
    titles: dict[str, str] = Field(
        default_factory=dict,
        description="The title in every shipped language, by language code.",
    )
    realtime: bool
    min_seats: int
    max_seats: int
