"""The panels of the Candidate screen, each drawn from one seat's view.

:class:`PilesPanel` (the four piles with suit and size), :class:`LobbyPanel` (the
lobby, its shape and the discards), :class:`SeatPanel` (a player's score, captures and,
for the other player, the hand's size and suit counts — public, C3 in
``docs/rules/candidate.en.md``) and :class:`HandPanel` (the hand of the person at the
keyboard, the picked cards and the hint). Each is a :class:`~textual.widgets.Static`
with a :meth:`show` taking the view (``match.view(seat)``, cards as text) and the
screen's :class:`~cardtable.tui.candidate_words.CandidateWords`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.text import Text
from textual.widgets import Static

from cardtable.tui.candidate_words import SUITS, CandidateWords
from cardtable.tui.i18n import card_text, cards_text, tr

__all__ = ["HandPanel", "LobbyPanel", "PilesPanel", "SeatPanel"]

#: Characters of captures shown per player (the newest first; older ones elided).
CAPTURE_WIDTH: Final = 140

View = Mapping[str, Any]


def label(text: str) -> str:
    """A row's label in a column of 8, a longer word (Spanish «Montones») followed by a
    space all the same."""
    return f"{text:<{max(8, len(text) + 1)}}"


class PilesPanel(Static):
    """The four piles: suit and cards left, with the key that chooses each."""

    def show(self, view: View, words: CandidateWords) -> None:
        out = Text(label(tr(words.lang, "piles")), style="bold")
        for letter, size in view["piles"]:
            suit = "SHDC".index(letter)
            style = "red" if suit in (1, 2) else ""
            out.append(f"[{letter.lower()}] ", style="dim")
            out.append(SUITS[suit], style=style)
            out.append(f" {size:<3}  ", style="" if size else "dim")
        self.update(out)


class LobbyPanel(Static):
    """The lobby (a run or a set once fixed, C7) and the discarded cards."""

    def show(self, view: View, words: CandidateWords) -> None:
        lang = words.lang
        out = Text(label(tr(lang, "lobby")), style="bold")
        if view["lobby"]:
            out.append_text(cards_text(view["lobby"], lang))
            if view["lobby_shape"]:
                out.append(f"  ({tr(lang, view['lobby_shape'])})")
        else:
            out.append(tr(lang, "lobby_empty"), style="dim")
        if view["discards"]:
            out.append(f"   {tr(lang, 'discards')}: ", style="dim")
            out.append_text(cards_text(view["discards"], lang))
        self.update(out)


class SeatPanel(Static):
    """One player: deal score, match total, the captures (newest first), and for the
    other player the hand's size and suit counts."""

    def show(self, view: View, words: CandidateWords, seat: int) -> None:
        lang = words.lang
        name = words.seat_name(seat)
        out = Text(label(name), style="bold")
        if seat != words.viewer:
            size = view["hand_sizes"][seat]
            out.append(tr(lang, "cards_count", n=size))
            if size:
                suits = view["hand_suits"][seat]
                out.append(
                    " (" + " ".join(f"{SUITS[s]}{n}" for s, n in enumerate(suits) if n) + ")"
                )
            out.append(" · ")
        out.append(tr(lang, "deal_score", score=view["deal_scores"][seat]))
        out.append(" · " + tr(lang, "total", total=view["totals"][seat]), style="bold")
        if view["current_player"] == seat:
            out.append("  ◀", style="bold")
        out.append("\n  ")
        out.append_text(self.captures_text(view, lang, seat))
        self.update(out)

    @staticmethod
    def captures_text(view: View, lang: str, seat: int) -> Text:
        captures = list(zip(view["captures"][seat], view["capture_scores"][seat], strict=True))
        if not captures:
            return Text(tr(lang, "no_captures"), style="dim")
        out = Text()
        out.append(f"{tr(lang, 'captures')} ({len(captures)}): ", style="dim")
        shown: list[Text] = []
        width = 0
        for cards, score in reversed(captures):
            piece = cards_text(cards, lang)
            piece.append(f" ={score}", style="bold")
            width += len(piece.plain) + 3
            if shown and width > CAPTURE_WIDTH:
                shown.append(Text("…", style="dim"))
                break
            shown.append(piece)
        out.append_text(Text(" · ").join(shown))
        return out


class HandPanel(Static):
    """The hand of the person at the keyboard: each card with its key, the picked ones
    marked; a hint, when one was asked for, marks its cards and is said on the line
    just below them, where the eye is."""

    def show(
        self, view: View, words: CandidateWords, selected: Sequence[int], hint: str | None
    ) -> None:
        lang = words.lang
        title = (
            tr(lang, "your_hand")
            if len(words.people) == 1
            else tr(lang, "hand_of", name=words.seat_name(words.viewer))
        )
        out = Text(f"{title}: ", style="bold")
        hand = view["hand"] or ()
        hinted = set(hint.split()[1:]) if hint and hint.startswith("play ") else set()
        if not hand:
            out.append("—", style="dim")
        for i, card in enumerate(hand):
            out.append(f" {i + 1}", style="dim")
            label = card_text(card, lang)
            if card in hinted:
                label.stylize("underline")
            if i in selected:
                label = Text("›", style="bold") + label + Text("‹", style="bold")
                label.stylize("reverse")
            else:
                label = Text(" ") + label + Text(" ")
            out.append_text(label)
        if hint:
            said = tr(lang, "hint", move=words.move_label(hint))
            out.append("\n" + " " * (len(title) + 2) + "→ " + said, style="bold italic")
        self.update(out)
