"""Ukrainian texts about a player do not guess the player's gender (we never know it):
no masculine past-tense verb ("оголосив", "зіграв", "здався") in a text that names a
player, nor in the short flags shown beside a seat's name. The texts say it another way
("Перше «закінчив» — Олена", "Олена: хід …", "поза раундом"), the way the terminal's
move log already did ("Олена: покладено 7♠")."""

from __future__ import annotations

import re

from cardtable.catalogue import words
from cardtable.games.candidate.records import _WORDS as CANDIDATE_RECORD_WORDS
from cardtable.games.spy.records import _WORDS as SPY_RECORD_WORDS
from cardtable.messages import CATALOG
from cardtable.tui.i18n import words as tui_words

#: Placeholders that stand for a player's name.
NAMES = re.compile(r"\{(name|names|player_name|who|winner)\}")
#: A masculine past-tense verb: "-в" after a vowel, reflexive "-вся", or "-міг".
PAST = re.compile(r"(?<![\w'])[а-яіїєґ']+(?:[аеиоуяіїю]в(?:ся)?|міг)(?![\w'])", re.IGNORECASE)
#: Words of that shape that are not verbs (genitive plurals and the like).
NOT_VERBS = {"гравців", "ходів", "очків", "символів", "байтів", "разів", "столів", "рядків"}
#: Verbs whose subject is not the player (a text's key: its verbs that agree with
#: another noun: "найкоротший фініш був", "чесний гравець очікував", "час вийшов").
OTHER_SUBJECT = {"spyMoveLine": {"був", "очікував"}, "clockOutOther": {"вийшов", "зробив"}}
#: Flags and lines the web client and the terminal show right after a seat's name.
WEB_FLAGS = ("called", "resigned", "away", "raceFollowed", "raceParts")
TUI_FLAGS = ("resigned",)


def web_uk() -> dict[str, str]:
    """The Ukrainian words of the web client (its catalogue's ``web:`` ids), each plural
    form on its own."""
    out: dict[str, str] = {}
    for key, text in words("web", "uk").items():
        forms = text if isinstance(text, tuple) else (text,)
        for i, form in enumerate(forms):
            out[key if i == 0 else f"{key}[{i}]"] = form
    return out


def masculine_past(text: str) -> list[str]:
    """The masculine past-tense verbs of ``text`` outside «quotes» (a quoted «закінчив»
    is the game's call, a fixed word, not a verb about the player)."""
    bare = re.sub(r"«[^«»]*»", "", text)
    return [word for word in PAST.findall(bare) if word.lower() not in NOT_VERBS]


def offenders(texts: dict[str, str], flags: tuple[str, ...]) -> dict[str, list[str]]:
    return {
        key: found
        for key, text in texts.items()
        if (NAMES.search(text) or key in flags)
        and (found := [w for w in masculine_past(text) if w not in OTHER_SUBJECT.get(key, ())])
    }


def test_the_detector_finds_the_forms_it_is_for() -> None:
    assert masculine_past("{name} першим оголосив «закінчив»") == ["оголосив"]
    assert masculine_past("{name} здався") == ["здався"]
    assert masculine_past("Переміг: {names}") == ["Переміг"]
    assert masculine_past("Перше «закінчив» — {name}") == []
    assert masculine_past("очікується {n} гравців") == []


def test_the_engines_messages_name_players_without_a_gender() -> None:
    assert offenders({code: texts["uk"] for code, texts in CATALOG.items()}, ()) == {}


def test_the_web_client_names_players_without_a_gender() -> None:
    texts = web_uk()
    assert "endedCalled" in texts  # the catalogue holds the client's words
    assert "won" in texts
    assert offenders(texts, WEB_FLAGS) == {}


def test_the_terminal_names_players_without_a_gender() -> None:
    assert offenders(dict(tui_words("uk")), TUI_FLAGS) == {}


def test_the_records_transcripts_name_players_without_a_gender() -> None:
    assert offenders(dict(SPY_RECORD_WORDS["uk"]), ()) == {}
    assert offenders(dict(CANDIDATE_RECORD_WORDS["uk"]), ()) == {}
