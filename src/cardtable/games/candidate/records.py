"""Candidate game records (``docs/records.md``): validate, replay, summarise, transcribe.

>>> from cardtable.games.candidate.game import GAME
>>> record = GAME.new_record(seed=7, players=["Ann", "Bob"], options={"deals": 1})
>>> record["deals"][0]["dealer"], record["deals"][0]["moves"]
(1, [])
>>> replay = replay_record(record)
>>> replay.summary()["next"]
{'player': 1, 'decision': 'deal'}
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import KIND_TEXT, Card
from cardtable.catalogue import languages, words
from cardtable.errors import IllegalMove
from cardtable.games.candidate.actions import PILE_LETTERS
from cardtable.games.candidate.deal import Piles
from cardtable.games.candidate.events import Event
from cardtable.games.candidate.explain import deal_over
from cardtable.games.candidate.options import CandidateOptions
from cardtable.games.candidate.scoring import winners as best_players
from cardtable.games.candidate.state import CandidateState
from cardtable.messages import make_refusal, plural
from cardtable.record import RecordReader

__all__ = [
    "CandidateReplay",
    "ParsedDeal",
    "ParsedRecord",
    "Step",
    "parse_record",
    "record_seed",
    "replay_record",
]

#: The message term naming each pile's suit ("spade", …).
_SUIT_TERMS = ("term.spade", "term.heart", "term.diamond", "term.club")


@dataclass(frozen=True, slots=True)
class ParsedDeal:
    """One deal of a record, checked for shape: dealer, piles (kinds) and move texts."""

    dealer: int
    piles: Piles
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    """A record whose every field has been checked (the moves are checked by replay)."""

    options: CandidateOptions
    players: tuple[str, str]
    deals: tuple[ParsedDeal, ...]
    #: How a match that stopped before its end ended: ``("resigned", seat)`` or
    #: ``("aborted", seat)`` from the record's ``ended``; ``None`` when it has none.
    ended: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed move: where it is, who made it, its text and its events."""

    deal: int  # 0-based
    number: int  # 1-based within the deal
    player: int
    text: str
    events: tuple[Event, ...]


def parse_record(record: Mapping[str, Any]) -> ParsedRecord:
    """Check every field of a Candidate record; :class:`BadRecord` names the bad one."""
    read = RecordReader
    record = read.as_object(record, "")
    read.check_fields(
        record, "", required=("game", "players", "deals"), optional=("options", "ended")
    )
    if record["game"] != "candidate":
        raise make_refusal("candidate.record_game", got=repr(record["game"])).bad_record("game")
    options = CandidateOptions.from_dict(record.get("options"), "options", record=True)
    first, second = read.player_names(record["players"], "players", low=2, high=2)
    raw_deals = read.as_list(record["deals"], "deals")
    if len(raw_deals) > options.deals:
        raise make_refusal(  # C17
            "candidate.record_deals", count=len(raw_deals), deals=options.deals
        ).bad_record("deals")
    deals: list[ParsedDeal] = []
    for i, raw in enumerate(raw_deals):
        field = f"deals[{i}]"
        deal = read.as_object(raw, field)
        read.check_fields(deal, field, required=("dealer", "piles", "moves"))
        dealer = read.as_int(deal["dealer"], f"{field}.dealer", 0, 1)
        if deals and dealer == deals[-1].dealer:
            raise make_refusal(  # C2
                "candidate.dealer_alternates", expected=1 - dealer, previous=i - 1, dealer=dealer
            ).bad_record(f"{field}.dealer")
        piles_obj = read.as_object(deal["piles"], f"{field}.piles")
        read.check_fields(piles_obj, f"{field}.piles", required=PILE_LETTERS)
        piles = tuple(
            _pile(piles_obj[letter], f"{field}.piles.{letter}", suit, options.decks)
            for suit, letter in enumerate(PILE_LETTERS)
        )
        moves = tuple(
            read.as_str(m, f"{field}.moves[{j}]")
            for j, m in enumerate(read.as_list(deal["moves"], f"{field}.moves"))
        )
        deals.append(ParsedDeal(dealer, piles, moves))
    ended = _ended(record["ended"]) if "ended" in record else None
    return ParsedRecord(options, (first, second), tuple(deals), ended)


#: The ways a record's ``ended`` may say a match stopped before its end.
ENDINGS = ("resigned", "aborted")


def _ended(value: Any) -> tuple[str, int]:
    """A record's ``ended``: ``{"how": "resigned" | "aborted", "seat": 0 | 1}``."""
    read = RecordReader
    ended = read.as_object(value, "ended")
    read.check_fields(ended, "ended", required=("how", "seat"))
    how = read.as_str(ended["how"], "ended.how")
    if how not in ENDINGS:
        raise make_refusal("candidate.record_ending", got=repr(how)).bad_record("ended.how")
    return how, read.as_int(ended["seat"], "ended.seat", 0, 1)


def _pile(value: Any, field: str, suit: int, decks: int) -> tuple[int, ...]:
    """A pile: exactly the 13 × decks cards of its suit (C3), top first."""
    kinds = RecordReader.card_kinds(value, field)
    letter = PILE_LETTERS[suit]
    for j, kind in enumerate(kinds):
        if kind // 13 != suit:
            raise make_refusal(
                "candidate.pile_wrong_suit",
                card=KIND_TEXT[kind],
                suit_term=_SUIT_TERMS[suit],
                pile_suit=letter,
            ).bad_record(f"{field}[{j}]")
    # Extra copies first (a doubled card is the clearer message), then missing ones.
    for rank in sorted(range(13), key=lambda r: kinds.count(suit * 13 + r) <= decks):
        kind = suit * 13 + rank
        have = kinds.count(kind)
        if have != decks:
            raise make_refusal(
                "candidate.pile_copies",
                suit_term=_SUIT_TERMS[suit],
                decks=decks,
                count=13 * decks,
                card=KIND_TEXT[kind],
                have=have,
            ).bad_record(field)
    return tuple(kinds)


def record_seed(parsed: ParsedRecord) -> str:
    """The seed later deals of a replayed record are dealt from (records hold no seed):
    a digest of the first deal's cards, so the same record always continues alike."""
    text = ";".join(" ".join(KIND_TEXT[k] for k in pile) for pile in parsed.deals[0].piles)
    return "record-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def replay_record(record: Mapping[str, Any], seed: int | str | None = None) -> CandidateReplay:
    """Validate and replay a record, complete or stopped anywhere.

    Deals after the record's last one (if the match goes on) are dealt from ``seed``,
    by default a digest of the record (:func:`record_seed`). Raises :class:`BadRecord`
    or :class:`IllegalMove` (located: ``deal 1, move 17``).
    """
    parsed = parse_record(record)
    if not parsed.deals:
        return CandidateReplay(parsed, None, ())
    first = parsed.deals[0]
    state = CandidateState.from_piles(
        first.piles,
        first.dealer,
        parsed.options,
        seed=record_seed(parsed) if seed is None else seed,
    )
    steps: list[Step] = []
    for i, deal in enumerate(parsed.deals):
        if i:
            if state.deal_number != i + 1 or state.moves:
                raise make_refusal("candidate.deal_unfinished", deal=i + 1, previous=i).bad_record(
                    f"deals[{i}]"
                )
            state.set_deal_piles(deal.piles)
        for j, text in enumerate(deal.moves):
            where = f"deal {i + 1}, move {j + 1}"
            if state.is_terminal() or state.deal_number != i + 1:
                raise deal_over(i + 1).illegal(text).at(where)
            player = state.current_player
            try:
                events = state.apply(text)
            except IllegalMove as exc:
                raise exc.at(where, text) from None
            steps.append(Step(i, j + 1, player, text, tuple(events)))
    if parsed.ended is not None and state.is_terminal():
        raise make_refusal("candidate.record_ended_over").bad_record("ended")
    return CandidateReplay(parsed, state, tuple(steps))


class CandidateReplay:
    """A replayed record: the final :attr:`state`, the :attr:`steps`, a summary and a
    transcript (``docs/records.md``, "Replay summary")."""

    def __init__(
        self, parsed: ParsedRecord, state: CandidateState | None, steps: tuple[Step, ...]
    ) -> None:
        self.parsed = parsed
        #: The state after the last move (None for a record with no deal yet).
        self.state = state
        self.steps = steps

    @property
    def players(self) -> tuple[str, str]:
        """The players' names."""
        return self.parsed.players

    def deal_summaries(self) -> list[dict[str, Any]]:
        """For each deal of the record: dealer, captures (as text) and scores."""
        state = self.state
        if state is None:
            return []
        out = []
        history = state.history
        for i in range(len(self.parsed.deals)):
            if i < len(history):
                done = history[i]
                captures = done.captures
                scores = list(done.scores)
                dealer = done.dealer
            else:
                captures = (state.captures(0), state.captures(1))
                scores = list(state.deal_scores)
                dealer = state.dealer
            out.append(
                {
                    "dealer": dealer,
                    "captures": [[[KIND_TEXT[k] for k in c] for c in captures[p]] for p in (0, 1)],
                    "scores": scores,
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        """The replay summary of ``docs/records.md``, as JSON-ready data."""
        deals = self.deal_summaries()
        totals = [sum(d["scores"][p] for d in deals) for p in (0, 1)]
        state = self.state
        ended = self.parsed.ended
        complete = (state is not None and state.is_terminal()) or ended is not None
        winners = best_players(totals)
        if ended is not None:
            how, seat = ended
            # A resigned match is the other player's; an aborted one nobody's.
            winners = [1 - seat] if how == "resigned" else []
        if complete:
            following: dict[str, Any] | None = None
        elif state is None:
            following = {"player": None, "decision": "deal"}
        else:
            following = {"player": state.current_player, "decision": state.decision}
        summary: dict[str, Any] = {
            "game": "candidate",
            "complete": complete,
            "deals": deals,
            "totals": totals,
            "winners": winners,
            "next": following,
        }
        if ended is not None:  # a record without ``ended`` keeps its summary as it was
            summary["ending"], summary["ended_by"] = ended
        return summary

    def transcript(self, lang: str = "en") -> str:
        """A readable account: players, each deal's piles, every move with who made it,
        every capture and its score, each deal's scores and the totals. ``lang``: en, uk."""
        if lang not in _WORDS:
            raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(_WORDS)}")
        return _Transcript(self, _WORDS[lang], lang).render()


#: The transcript's words in every language, from the catalogues (``cli:candidate.*``).
_WORDS: dict[str, dict[str, str]] = {
    lang: {
        key.removeprefix("candidate."): str(text)
        for key, text in words("cli", lang).items()
        if key.startswith("candidate.")
    }
    for lang in languages()
}


class _Transcript:
    def __init__(self, replay: CandidateReplay, words: dict[str, str], lang: str) -> None:
        self.replay = replay
        self.words = words
        self.lang = lang
        self.names = replay.players
        self.lines: list[str] = []

    def card(self, kind: int) -> str:
        return Card.from_kind(kind).symbol(self.lang)

    def cards(self, kinds: Sequence[int]) -> str:
        return " ".join(self.card(k) for k in kinds)

    def count(self, n: int, key: str) -> str:
        """``n`` with the words of ``key`` in the plural form the language gives it."""
        return plural(n, self.words[key], self.lang)

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{name} {score}" for name, score in zip(self.names, scores, strict=True))

    def render(self) -> str:
        w = self.words
        parsed = self.replay.parsed
        options = parsed.options
        self.lines = [
            f"{w['title']} — "
            + w["deals"].format(
                deals=self.count(options.deals, "deal_count"),
                decks=self.count(options.decks, "deck_count"),
            ),
            f"{w['players']}: " + ", ".join(f"{n} ({i})" for i, n in enumerate(self.names)),
        ]
        if not parsed.deals:
            self.lines += ["", w["no_deal"], w["unfinished_none"]]
            return "\n".join(self.lines) + "\n"
        summaries = self.replay.deal_summaries()
        steps_by_deal: list[list[Step]] = [[] for _ in parsed.deals]
        for step in self.replay.steps:
            steps_by_deal[step.deal].append(step)
        lobby: list[int] = []
        for i, deal in enumerate(parsed.deals):
            self.lines += [
                "",
                w["deal"].format(n=i + 1, of=options.deals, name=self.names[deal.dealer]),
                w["piles"],
            ]
            for suit, letter in enumerate(PILE_LETTERS):
                self.lines.append(f"  {letter}: {self.cards(deal.piles[suit])}")
            width = len(str(len(deal.moves)))
            for step in steps_by_deal[i]:
                notes = []
                for event in step.events:
                    note = self.event(event, lobby)
                    if note:
                        notes.append(note)
                head = f"  {step.number:>{width}}. {self.names[step.player]}: {step.text}"
                self.lines.append(head + (" — " + "; ".join(notes) if notes else ""))
            self.lines.append(
                w["deal_scores"].format(n=i + 1, scores=self.scores(summaries[i]["scores"]))
            )
        totals = [sum(d["scores"][p] for d in summaries) for p in (0, 1)]
        self.lines += ["", w["totals"].format(scores=self.scores(totals))]
        summary = self.replay.summary()
        following = summary["next"]
        ending = summary.get("ending")
        if ending == "resigned":
            seat = summary["ended_by"]
            self.lines.append(
                w["resigned"].format(name=self.names[seat], winner=self.names[1 - seat])
            )
        elif ending == "aborted":
            self.lines.append(w["aborted"].format(name=self.names[summary["ended_by"]]))
        elif following is None:
            best = summary["winners"]
            if len(best) > 1:
                self.lines.append(w["draw_result"])
            else:
                self.lines.append(w["over"].format(names=self.names[best[0]]))
        else:
            decision = w[f"{following['decision']}_decision"]
            self.lines.append(
                w["unfinished"].format(name=self.names[following["player"]], decision=decision)
            )
        return "\n".join(self.lines) + "\n"

    def event(self, event: Event, lobby: list[int]) -> str | None:
        w = self.words
        event_type = event.type
        if event_type == "dealt":
            return w["dealt"].format(pile=event.pile)
        if event_type == "received":
            assert event.player is not None
            return w["received"].format(
                name=self.names[event.player], cards=self.cards(event.cards)
            )
        if event_type == "lobby_turned":
            lobby[:] = list(event.cards)
            return w["lobby_turned"].format(cards=self.cards(event.cards))
        if event_type == "played":
            lobby.extend(event.cards)
            return w["played"].format(cards=self.cards(event.cards), lobby=self.cards(lobby))
        if event_type == "trick_taken":
            assert event.player is not None
            assert event.score is not None
            lobby.clear()
            count = len(event.cards)
            if count == 1:
                what = w["single"]
            elif event.cards[0] % 13 == event.cards[1] % 13:
                what = w["set"].format(n=count)
            else:
                what = w["run"].format(n=count)
            return w["trick_taken"].format(
                name=self.names[event.player],
                cards=self.cards(event.cards),
                what=what,
                score=self.count(event.score, "points"),
            )
        if event_type == "lobby_discarded":
            lobby.clear()
            return w["lobby_discarded"].format(cards=self.cards(event.cards))
        if event_type == "drew":
            return w["drew"].format(cards=self.cards(event.cards))
        return None  # passes speak for themselves; deal and match ends are summed up below
