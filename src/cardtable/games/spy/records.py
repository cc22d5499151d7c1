"""Spy vs Spy records (``docs/records.md``, Spy vs Spy): validate, replay, summarise, narrate.

>>> from cardtable.games.spy.state import SpyState
>>> from cardtable.games.spy.options import SpyOptions
>>> state = SpyState.deal(["Ann", "Bob"], seed=3, options=SpyOptions(rounds=1))
>>> for move in ("0 turn", "1 turn", "0 resign", "1 resign"):
...     _ = state.apply(move)
>>> result = replay_record(state.to_record())
>>> result.summary()["rounds"][0]["finisher"], result.summary()["complete"]
(None, True)
>>> replay_record({**state.to_record(), "players": ["Ann"]})
Traceback (most recent call last):
...
cardtable.errors.BadRecord: malformed record: players: expected 2 to 8 player names, got 1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import Card
from cardtable.catalogue import languages, words
from cardtable.errors import BadOptions, BadRecord, IllegalMove
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    MAX_PILES,
    OPEN_POINTS,
    PLACE_POINTS,
    text_to_action,
)
from cardtable.games.spy.deal import check_cards
from cardtable.games.spy.events import Event
from cardtable.games.spy.options import MAX_PLAYERS, MIN_PLAYERS, SpyOptions
from cardtable.games.spy.state import MATCH_OVER, PLAYING, SpyState
from cardtable.messages import make_refusal
from cardtable.record import RecordReader

__all__ = ["MoveLog", "SpyRecord", "SpyReplay", "new_record", "read_record", "replay_record"]


@dataclass(frozen=True, slots=True)
class SpyRecord:
    """A record whose every field has been checked: cards as kinds, moves as text."""

    options: SpyOptions
    players: tuple[str, ...]
    rounds: tuple[tuple[tuple[tuple[int, ...], ...], tuple[str, ...]], ...]


def read_record(record: Mapping[str, Any]) -> SpyRecord:
    """Check every field of a record (as parsed JSON); raise :class:`BadRecord` naming
    the first bad field. Moves are checked later, by replaying them."""
    reader = RecordReader
    top = reader.as_object(record, "")
    reader.check_fields(top, "", required=("game", "players", "rounds"), optional=("options",))
    if top["game"] != "spy":
        raise make_refusal("spy.record_game", got=repr(top["game"])).bad_record("game")
    options = SpyOptions.from_dict(reader.as_object(top.get("options", {}), "options"))
    players = tuple(reader.player_names(top["players"], "players", MIN_PLAYERS, MAX_PLAYERS))
    raw_rounds = reader.as_list(top["rounds"], "rounds")
    if len(raw_rounds) > options.rounds:
        raise make_refusal(  # S16
            "spy.record_rounds", count=len(raw_rounds), rounds=options.rounds
        ).bad_record("rounds")
    rounds = []
    for i, raw in enumerate(raw_rounds):
        field = f"rounds[{i}]"
        entry = reader.as_object(raw, field)
        reader.check_fields(entry, field, required=("cards", "moves"))
        hands = reader.as_list(entry["cards"], f"{field}.cards")
        if len(hands) != len(players):
            raise make_refusal(
                "spy.cards_of_players", players=len(players), count=len(hands)
            ).bad_record(f"{field}.cards")
        cards = tuple(
            tuple(reader.card_kinds(hand, f"{field}.cards[{p}]")) for p, hand in enumerate(hands)
        )
        check_cards(
            cards, len(players), options.full_decks, f"{field}.cards", same_deal=options.same_deal
        )
        moves = tuple(
            reader.as_str(m, f"{field}.moves[{j}]")
            for j, m in enumerate(reader.as_list(entry["moves"], f"{field}.moves"))
        )
        rounds.append((cards, moves))
    return SpyRecord(options, players, tuple(rounds))


@dataclass(frozen=True, slots=True)
class MoveLog:
    """One replayed move, for transcripts: its events and, for a placement, the top
    of the pile it covered."""

    round: int
    number: int
    player: int
    text: str
    events: tuple[Event, ...]
    covered: int | None


class SpyReplay:
    """A replayed record: the final :attr:`state`, the :meth:`summary` of
    ``docs/records.md`` and a readable :meth:`transcript`."""

    def __init__(self, record: SpyRecord, state: SpyState, log: Sequence[MoveLog]) -> None:
        self.record = record
        self.state = state
        self.log = tuple(log)

    def summary(self) -> dict[str, Any]:
        """The replay summary of ``docs/records.md`` ("Replay summary"), JSON-ready."""
        state = self.state
        rounds: list[dict[str, Any]] = [
            {
                "finisher": r.finisher,
                "blocked": list(r.blocked),
                "points_left": list(r.points_left),
                "scores": list(r.scores),
            }
            for r in state.results
        ]
        if state.phase == PLAYING:
            rounds.append(
                {
                    "finisher": None,
                    "blocked": [seat.blocked for seat in state.seats],  # S12 now
                    "points_left": [len(seat.points) for seat in state.seats],
                    "scores": [0] * state.num_players,
                }
            )
        complete = state.phase == MATCH_OVER
        return {
            "game": "spy",
            "complete": complete,
            "rounds": rounds,
            "totals": list(state.totals),
            "winners": state.winners(),
            "next": None if complete else {"player": None, "decision": "move"},
        }

    def transcript(self, lang: str = "en") -> str:
        """The match as text: players, options, each round's deal, every move numbered
        with its player, calls, blocks, resignations, scores and totals.

        ``lang="uk"`` writes Ukrainian words and rank letters (В Д К Т).
        """
        return _Transcript(self, lang).render()


def replay_record(record: Mapping[str, Any]) -> SpyReplay:
    """Validate and replay a record, complete or stopped anywhere.

    Raises :class:`BadRecord` naming the field, or :class:`IllegalMove` located as
    ``round 2, move 3`` with the move's text and the reason.
    """
    checked = read_record(record)
    state = SpyState(checked.players, options=checked.options)
    log: list[MoveLog] = []
    for i, (cards, moves) in enumerate(checked.rounds):
        if state.phase == PLAYING:
            raise make_refusal("spy.round_unfinished", round=i).bad_record(f"rounds[{i}]")
        state.start_round(cards)
        number = i + 1
        for j, text in enumerate(moves):
            where = f"round {number}, move {j + 1}"
            if state.round_number != number or state.phase != PLAYING:
                raise make_refusal("spy.move_after_round", round=number).illegal(text).at(where)
            try:
                action = text_to_action(text)
                player, local = divmod(action, ACTIONS_PER_PLAYER)
                covered = _covered_top(state, player, local)
                events = state.apply(action)
            except IllegalMove as exc:
                raise exc.at(where, text) from None
            log.append(MoveLog(number, j + 1, player, text, tuple(events), covered))
    return SpyReplay(checked, state, log)


def _covered_top(state: SpyState, player: int, local: int) -> int | None:
    """The top card a legal placement will cover (None for other moves or bad ones)."""
    if state.phase != PLAYING or player >= state.num_players:
        return None
    seat = state.seats[player]
    if PLACE_POINTS <= local < OPEN_POINTS:  # place points N or place waste N
        index = (local - PLACE_POINTS) % MAX_PILES
        if index < len(seat.piles):
            return seat.piles[index][-1]
    return None


def new_record(seed: int, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """A record of a match dealt from ``seed``: round 1's cards and no moves.

    Raises :class:`BadOptions` for an unknown or bad option or player count.
    """
    try:
        checked = SpyOptions.from_dict(options)
    except BadRecord as exc:
        raise BadOptions(f"option {exc.field}: {exc.reason}") from None
    names = list(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadOptions(
            f"Spy vs Spy is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (rule S1), "
            f"got {len(names)}"
        )
    for name in names:
        if not name.strip():
            raise BadOptions("a player name must not be empty")
    return SpyState.deal(names, seed=seed, options=checked).to_record()


# ----------------------------------------------------------------- transcripts

#: The transcript's words in every language, from the catalogues (``cli:spy.*``).
_WORDS: dict[str, dict[str, str]] = {
    lang: {
        key.removeprefix("spy."): str(text)
        for key, text in words("cli", lang).items()
        if key.startswith("spy.")
    }
    for lang in languages()
}


class _Transcript:
    """Renders a :class:`SpyReplay` in one language."""

    def __init__(self, replay: SpyReplay, lang: str) -> None:
        if lang not in languages():
            raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(languages())}")
        self.replay = replay
        self.lang = lang
        self.words = _WORDS[lang]
        self.names = replay.record.players

    def card(self, kind: int | None) -> str:
        return "-" if kind is None else Card.from_kind(kind).symbol(self.lang)

    def cards(self, kinds: Sequence[int]) -> str:
        return " ".join(self.card(k) for k in kinds)

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(
            f"{self.names[p]} {s:+d}" if s else f"{self.names[p]} 0" for p, s in enumerate(scores)
        )

    def render(self) -> str:
        words = self.words
        record = self.replay.record
        options = ", ".join(
            f"{k}={str(v).lower() if isinstance(v, bool) else v}"
            for k, v in record.options.to_dict().items()
        )
        lines = [
            words["title"],
            f"{words['players']}: " + ", ".join(f"{p} {n}" for p, n in enumerate(self.names)),
            f"{words['options']}: {options}",
        ]
        moves_by_round: dict[int, list[MoveLog]] = {}
        for move in self.replay.log:
            moves_by_round.setdefault(move.round, []).append(move)
        for i, (cards, _) in enumerate(record.rounds):
            number = i + 1
            lines.append("")
            lines.append(words["round"].format(n=number))
            for p, hand in enumerate(cards):
                lines.append(
                    "  "
                    + words["deal"].format(
                        name=self.names[p],
                        points=self.cards(hand[:5]),
                        piles=self.cards(hand[5:9]),
                        count=len(hand) - 9,
                        deck=self.cards(hand[9:]),
                    )
                )
            for move in moves_by_round.get(number, []):
                lines.extend(self.move_lines(move))
        state = self.replay.state
        if state.phase == PLAYING:
            lines.append(words["unfinished"].format(n=state.round_number))
        elif state.phase != MATCH_OVER:
            lines.append(words["between"].format(n=state.round_number + 1))
        return "\n".join(lines) + "\n"

    def move_lines(self, move: MoveLog) -> list[str]:
        words = self.words
        name = self.names[move.player]
        parts: list[str] = []
        after: list[str] = []
        for event in move.events:
            event_type = event.type
            if event_type == "turn":
                key = "recycle" if event.recycled else "turn"
                parts.append(words[key].format(card=self.card(event.card)))
            elif event_type == "place":
                parts.append(
                    words["place"].format(
                        card=self.card(event.card),
                        source=words[event.source or "waste"],
                        pile=event.pile,
                        covered=self.card(move.covered),
                    )
                )
            elif event_type == "open":
                parts.append(
                    words["open"].format(
                        card=self.card(event.card),
                        source=words[event.source or "waste"],
                        pile=event.pile,
                    )
                )
            elif event_type == "reveal":
                parts.append(words["reveal"].format(card=self.card(event.card)))
            elif event_type in ("call", "resign"):
                parts.append(words[event_type])
            elif event_type == "blocked":
                after.append("     " + words["blocked"].format(name=name))
            elif event_type == "round_end":
                if event.player is None:
                    after.append(words["no_winner"].format(n=event.round))
                else:
                    after.append(words["won"].format(n=event.round, name=self.names[event.player]))
                after.append("  " + words["scores"].format(scores=self.scores(event.scores or ())))
                after.append(
                    "  "
                    + words["totals"].format(
                        scores=self.scores(self.totals_after(event.round or 1))
                    )
                )
            elif event_type == "match_end":
                winners = list(event.winners or ())
                key = "winner" if len(winners) == 1 else "winners"
                who = words[key].format(names=", ".join(self.names[p] for p in winners))
                after.append(words["match"].format(who=who))
        first = move.events[0] if move.events else None
        if first is not None and first.source == "points" and not _reveals(move):
            parts.append(words["empty"])  # the last points card has gone (S10: call now)
        return [f"  {move.number}. {name}: " + "; ".join(parts), *after]

    def totals_after(self, round_number: int) -> list[int]:
        results = self.replay.state.results[:round_number]
        return [sum(r.scores[p] for r in results) for p in range(len(self.names))]


def _reveals(move: MoveLog) -> bool:
    return any(e.type == "reveal" for e in move.events)
