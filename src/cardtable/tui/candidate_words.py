"""How the Candidate screen words the match: names, moves, events, the result.

Everything here reads a seat's view (``match.view(seat)``) and the events as that seat
may see them (``MatchEvent.seen_by``) — JSON-ready mappings, cards as text — and
writes strings in the app's language; nothing draws. The other player's hidden cards
are not in what it reads (C4, C10 in ``docs/rules/candidate.en.md``).

>>> words = CandidateWords("uk", viewer=0, names=("Ann", "Bob"), people=(0,))
>>> words.seat_name(0), words.move_label("play JS QS")
('Ви', 'зіграти В♠ Д♠')
>>> words.event_line({"type": "drew", "player": 1, "pile": "C", "cards": []})
'Bob: добір зі стопки ♣'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.tui.i18n import bot_name, card_label, game_title, tr

__all__ = ["SUITS", "CandidateWords"]

#: The suit symbols of the piles S, H, D, C.
SUITS: Final = "♠♥♦♣"


def pile_symbol(letter: str) -> str:
    """A pile's record letter (``S``) as the suit it holds (``♠``)."""
    return SUITS["SHDC".index(letter)]


@dataclass(frozen=True, slots=True)
class CandidateWords:
    """The words of one screen: its language, whose view it shows (``viewer``), the
    players' names and which seats people play."""

    lang: str
    viewer: int
    names: Sequence[str]
    people: Sequence[int]
    #: Each seat's bot level (``None`` for a person); empty when not known.
    levels: Sequence[str | None] = ()

    def seat_name(self, seat: int | None) -> str:
        """A player's name ("You" for the one person against a bot; a bot by its level,
        in the language: «Бот (легкий)»)."""
        if seat is None:
            return "-"
        if len(self.people) == 1 and seat == self.people[0]:
            return tr(self.lang, "you")
        level = self.levels[seat] if seat < len(self.levels) else None
        if level is not None:
            return bot_name(level, self.lang)
        return self.names[seat]

    def move_label(self, text: str) -> str:
        """A move in words of the language, cards in display form (``play 9♠ 10♥``,
        «зіграти 9♠ 10♥», «роздати зі стопки ♠»)."""
        words = text.split()
        if words[0] == "play":
            cards = " ".join(card_label(w, self.lang) for w in words[1:])
            return tr(self.lang, "mv_play", cards=cards)
        if words[0] == "pass":
            return tr(self.lang, "pass")
        return tr(self.lang, f"mv_{words[0]}", pile=pile_symbol(words[1]))

    def result_text(self, totals: Sequence[int]) -> str:
        """Who won the match by how much (C17: the higher total), or a draw."""
        a, b = totals
        if a == b:
            return tr(self.lang, "draw_result", a=a, b=b)
        best = 0 if a > b else 1
        high, low = max(a, b), min(a, b)
        if len(self.people) == 1 and best == self.people[0]:
            return tr(self.lang, "you_win", a=high, b=low)  # not "You wins"
        return tr(self.lang, "winner", name=self.seat_name(best), a=high, b=low)

    def ended_text(self, how: str, seat: int) -> str:
        """How a match that stopped early ended: who resigned and who won, or who
        aborted it (no result)."""
        if how == "aborted":
            return tr(self.lang, "cand_aborted", name=self.seat_name(seat))
        if len(self.people) == 1 and seat == self.people[0]:
            return tr(self.lang, "cand_you_resigned", name=self.seat_name(1 - seat))
        return tr(
            self.lang, "cand_resigned", name=self.seat_name(seat), winner=self.seat_name(1 - seat)
        )

    def over_title(self) -> str:
        """The title bar once the match is over (played out, resigned or aborted)."""
        return tr(self.lang, "cand_title_over", game=game_title("candidate", self.lang))

    def title_text(self, view: Mapping[str, Any]) -> str:
        """The title bar: the deal, the dealer and the leader, or the match's end."""
        if view["is_over"]:
            return self.over_title()
        return tr(
            self.lang,
            "cand_title",
            game=game_title("candidate", self.lang),
            deal=view["deal_number"],
            deals=view["deals"],
            dealer=self.seat_name(view["dealer"]),
            leader=self.seat_name(view["leader"]),
        )

    def decision_text(self, view: Mapping[str, Any], *, thinking: bool) -> str:
        """Whose decision it is and which (``thinking``: a bot has it)."""
        player = view["current_player"]
        if player is None:
            return tr(self.lang, "match_over_status", result=self.result_text(view["totals"]))
        if thinking:
            return tr(self.lang, "thinking", name=self.seat_name(player))
        decision = view["decision"] or ""
        key = f"decision_{decision}"
        if decision == "play" and "pass" not in view["legal_moves"] and player == self.viewer:
            key = "decision_play_from_hand"
        return tr(self.lang, key, name=self.seat_name(player))

    def pause_text(self, view: Mapping[str, Any], seconds: float, *, holds: bool = False) -> str:
        """The pause after a deal: when the next one starts, and Enter to go on now;
        once its time is up and it waits for the person (C13), only Enter."""
        deal = view["deal_number"]
        if holds and seconds <= 0:
            return tr(self.lang, "cand_pause_holds", deal=deal - 1, next=deal)
        return tr(self.lang, "cand_pause", deal=deal - 1, next=deal, seconds=round(seconds))

    def deal_over_lines(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """The last deal's summary from the events as the viewer saw them: for each
        player a heading (deal score and total) and the captures, card by card (C13)."""
        ends = [i for i, event in enumerate(events) if event["type"] == "deal_ended"]
        if not ends:
            return []
        start = ends[-2] + 1 if len(ends) > 1 else 0
        ended = events[ends[-1]]
        lines = []
        for seat, (score, total) in enumerate(zip(ended["scores"], ended["totals"], strict=True)):
            captures = [
                " ".join(card_label(c, self.lang) for c in event["cards"]) + f" ={event['score']}"
                for event in events[start : ends[-1]]
                if event["type"] == "trick_taken" and event.get("player") == seat
            ]
            head = tr(
                self.lang, "deal_over_seat", name=self.seat_name(seat), score=score, total=total
            )
            lines.append((head, " · ".join(captures) or tr(self.lang, "deal_over_none")))
        return lines

    def event_line(self, event: Mapping[str, Any]) -> str:
        """One line of the log ("" for an event not worth a line)."""
        lang = self.lang
        name = self.seat_name(event.get("player"))
        cards = " ".join(card_label(t, lang) for t in event.get("cards", ()))
        event_type = event["type"]
        pile = pile_symbol(event["pile"]) if event.get("pile") else None
        if event_type == "received":
            return "" if not cards else tr(lang, "ev_received", name=name, cards=cards)
        if event_type == "drew" and not cards:
            return tr(lang, "ev_drew_hidden", name=name, pile=pile)
        if event_type in ("deal_ended", "match_ended"):
            scores = self.scores_text(event.get("scores") or (0, 0))
            totals = self.scores_text(event.get("totals") or (0, 0))
            return tr(lang, f"ev_{event_type}", scores=scores, totals=totals)
        return tr(
            lang, f"ev_{event_type}", name=name, cards=cards, pile=pile, score=event.get("score")
        )

    def scores_text(self, scores: Sequence[int]) -> str:
        """``You 12, Bot (easy) 30``."""
        return ", ".join(f"{self.seat_name(p)} {s}" for p, s in enumerate(scores))
