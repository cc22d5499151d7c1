"""Refusals in every language the faces speak: message ids, templates and rendering.

Every refusal the engine raises — an :class:`~cardtable.errors.IllegalMove`, a
:class:`~cardtable.errors.BadRecord`, a :class:`~cardtable.errors.CardParseError` —
carries a stable message id (``code``) and its parameters (``params``) beside its
English text. The English text is the catalog's English template rendered with those
parameters, so the CLI, the records and ``str(exc)`` read as before; a face renders the
same id in the player's language instead:

Its length (over the project's 600-line guide) is the catalog itself: one entry per
message id in both languages, kept in one place so that every face reads one source.

>>> refusal = make_refusal("spy.no_fit", card="QS", pile=2, top_card="7D")
>>> refusal.text("en")
'QS does not fit on pile 2 (top 7D): a card goes on a pile one rank above or below it'
>>> print(refusal.text("uk"))  # doctest: +NORMALIZE_WHITESPACE
Д♠ не підходить на стопку 2 (зверху 7♦): карту кладуть на стопку, верхня карта якої на
одне значення вища або нижча
>>> exc = refusal.illegal("0 place points 2")
>>> exc.code, render(exc.code, exc.params, "en") == exc.reason
('spy.no_fit', True)

Templates are :meth:`str.format` templates with these fields:

================  ==================================================================
``{name}``        the parameter, shown the way its content is shown in the language
``{name!r}``      the parameter's Python ``repr`` (how English quotes what was typed)
``{name:a}``      with the English indefinite article: ``a 7``, ``an 8``, ``an A``
``{name:f1|f2}``  a plural form chosen by the integer parameter, ``#`` standing for
                  the number: English has two forms (one, other), Ukrainian three
                  (one, few, many)
``{{`` ``}}``     literal braces
================  ==================================================================

A parameter's content (what it holds) follows from its name:

=====================  ========================================================
``card``, ``*_card``   one card's plain text (``QS``): in Ukrainian ``Д♠``
``cards``, ``*_cards`` card texts separated by single spaces
``rank``, ``*_rank``   a rank (``2``…``10``, ``J``, ``Q``, ``K``, ``A``): ``В Д К Т``
``ranks``, ``*_ranks`` ranks joined by ``-`` (a run: ``9-10-J``)
``suit``, ``*_suit``   a suit letter (``S H D C``): in Ukrainian ``♠ ♥ ♦ ♣``
``term``, ``*_term``   the id of a ``term.*`` entry, shown in the language
anything else          as it is
=====================  ========================================================

Cards are shown as the project shows them to people in each language: the faces (the
browser, the terminal) say a refusal with :func:`say`, which writes every card with its
suit symbol (``Q♠`` in English, ``Д♠`` in Ukrainian), as the table draws it.
:func:`render` in English keeps the plain text of the records (``QS``), which is what the
CLI, the records and ``str(exc)`` read. The web client renders the same catalog, served
as JSON by the server for the faces (:func:`catalog_json`), so every face reads one source.

>>> say("spy.no_fit", {"card": "QS", "pile": 2, "top_card": "7D"}, "en")
'Q♠ does not fit on pile 2 (top 7♦): a card goes on a pile one rank above or below it'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from cardtable.errors import BadRecord, CardParseError, IllegalMove, UnreadableFile
from cardtable.glossary import GLOSSARY

__all__ = [
    "CATALOG",
    "LANGS",
    "Refusal",
    "catalog_json",
    "make_refusal",
    "param_content",
    "placeholders",
    "plural",
    "render",
    "say",
]

#: The languages every message id is written in.
LANGS: Final = ("en", "uk")

#: What a card must look like, as the card parser's messages say it.
_EXPECTED_EN = "expected a rank (2-10, J, Q, K, A) and a suit (S, H, D, C), e.g. QS or 10H"
_EXPECTED_UK = (
    "очікується значення (2-10, В, Д, К, Т) і масть (S, H, D, C або ♠ ♥ ♦ ♣), напр. Д♠ або 10♥"
)
#: Spy's move forms (docs/records.md), as the move parser's messages list them.
_SPY_FORMS_EN = (
    "'P turn', 'P place points N', 'P place waste N', 'P open points', "
    "'P open waste', 'P call' or 'P resign' (P a player 0-7, N a pile 1-6)"
)
_SPY_FORMS_UK = (
    "'P turn', 'P place points N', 'P place waste N', 'P open points', "
    "'P open waste', 'P call' або 'P resign' (P — гравець 0-7, N — стопка 1-6)"
)
#: Candidate's move forms (docs/records.md).
_CANDIDATE_FORMS_EN = "expected deal X, lobby X, draw X (X one of S H D C), pass, or play and cards"
_CANDIDATE_FORMS_UK = (
    "очікується deal X, lobby X, draw X (X — одна з S H D C), pass або play з картами"
)

_CATALOG: dict[str, dict[str, str]] = {
    # -- words that other messages name (parameters holding a term) -------------------
    "term.json_null": {"en": "null", "uk": "null"},
    "term.json_boolean": {"en": "a boolean", "uk": "логічне значення"},
    "term.json_number": {"en": "a number", "uk": "число"},
    "term.json_string": {"en": "a string", "uk": "рядок"},
    "term.json_list": {"en": "a list", "uk": "список"},
    "term.json_object": {"en": "an object", "uk": "об'єкт"},
    # one suit, in the glossary's words (cardtable.glossary)
    "term.spade": dict(GLOSSARY["suit_one.S"]),
    "term.heart": dict(GLOSSARY["suit_one.H"]),
    "term.diamond": dict(GLOSSARY["suit_one.D"]),
    "term.club": dict(GLOSSARY["suit_one.C"]),
    "term.half_deck": {"en": "half a deck", "uk": "пів колоди"},
    "term.full_deck": {"en": "a full deck", "uk": "повна колода"},
    "term.both_players_cards": {"en": "the two players' cards", "uk": "карти обох гравців"},
    "term.player_cards": {"en": "a player's cards", "uk": "карти гравця"},
    "term.decision_deal": {
        "en": "deal the hands: deal S, H, D or C",
        "uk": "роздати руки: deal S, H, D або C",
    },
    "term.decision_lobby": {
        "en": "turn a lobby card: lobby X for a non-empty pile X",
        "uk": "відкрити карту лобі: lobby X для непорожньої стопки X",
    },
    "term.decision_draw": {
        "en": "draw a card: draw X for a non-empty pile X",
        "uk": "добрати карту: draw X для непорожньої стопки X",
    },
    "term.decision_play": {
        "en": "play cards onto the lobby or pass",
        "uk": "покласти карти в лобі або пасувати",
    },
    # -- cards (cardtable.cards) ----------------------------------------------------
    "card.not_suit": {
        "en": "{text!r} is not a suit: expected one of S, H, D, C (or ♠ ♥ ♦ ♣)",
        "uk": "«{text}» — не масть: очікується одна з S, H, D, C (або ♠ ♥ ♦ ♣)",
    },
    "card.not_rank": {
        "en": "{text!r} is not a rank: expected 2-10, J, Q, K, A "
        "(T for 10; Ukrainian В, Д, К, Т for J, Q, K, A)",
        "uk": "«{text}» — не значення карти: очікується 2-10, В, Д, К, Т "
        "(або латиницею J, Q, K, A; T — це 10)",
    },
    "card.not_kind": {
        "en": "{value} is not a card kind: expected 0..51",
        "uk": "{value} — не номер карти: очікується 0..51",
    },
    "card.empty": {
        "en": "{text!r} is not a card: it is empty; " + _EXPECTED_EN,
        "uk": "«{text}» — не карта: тут порожньо; " + _EXPECTED_UK,
    },
    "card.cyrillic_es": {
        "en": "{text!r} is not a card: Cyrillic 'С' is not a suit; "
        "use the Latin letters S, H, D, C or the symbols ♠ ♥ ♦ ♣",
        "uk": "«{text}» — не карта: кирилична «С» — не масть; "
        "пишіть латинські літери S, H, D, C або символи ♠ ♥ ♦ ♣",
    },
    "card.suit_first": {
        "en": "{text!r} is not a card: a suit letter comes after the rank "
        "(write {fixed}); " + _EXPECTED_EN,
        "uk": "«{text}» — не карта: літеру масті пишуть після значення "
        "(напишіть {fixed}); " + _EXPECTED_UK,
    },
    "card.not_card": {
        "en": "{text!r} is not a card: " + _EXPECTED_EN,
        "uk": "«{text}» — не карта: " + _EXPECTED_UK,
    },
    "card.two_suits": {
        "en": "{text!r} is not a card: it has two suits; " + _EXPECTED_EN,
        "uk": "«{text}» — не карта: у ній дві масті; " + _EXPECTED_UK,
    },
    "card.no_suit": {
        "en": "{text!r} is not a card: the suit is missing; " + _EXPECTED_EN,
        "uk": "«{text}» — не карта: бракує масті; " + _EXPECTED_UK,
    },
    # -- records: JSON and field shapes (cardtable.record) --------------------------
    "record.empty": {
        "en": "the record is empty (no text at all)",
        "uk": "запис порожній (у ньому немає тексту)",
    },
    "record.bad_json": {
        "en": "not valid JSON: {detail} at line {line}, column {column}",
        "uk": "некоректний JSON: {detail} (рядок {line}, стовпець {column})",
    },
    "record.top_not_object": {
        "en": "expected a JSON object, got {got_term}",
        "uk": "очікується об'єкт JSON, а тут {got_term}",
    },
    "record.unreadable": {
        "en": "cannot read {path!r}: {detail}",
        "uk": "не вдається прочитати «{path}»: {detail}",
    },
    "file.missing": {
        "en": "there is no file {path!r}",
        "uk": "файлу «{path}» немає",
    },
    "file.is_folder": {
        "en": "{path!r} is a folder, not a file",
        "uk": "«{path}» — тека, а не файл",
    },
    "record.not_utf8": {
        "en": "{path!r} is not UTF-8 text",
        "uk": "«{path}» — не текст у UTF-8",
    },
    "record.game_missing": {
        "en": "missing: expected one of {games}",
        "uk": "бракує: очікується одна з ігор {games}",
    },
    "record.game_unknown": {
        "en": "unknown game {got}: expected one of {games}",
        "uk": "невідома гра {got}: очікується одна з ігор {games}",
    },
    "record.field_missing": {
        "en": "missing (this field is required)",
        "uk": "бракує (це поле обов'язкове)",
    },
    "record.field_unknown": {
        "en": "unknown field (expected only {known})",
        "uk": "невідоме поле (очікуються лише {known})",
    },
    "record.players_exact": {
        "en": "expected exactly {low} player names, got {count}",
        "uk": "очікується імен гравців: рівно {low}, а тут {count}",
    },
    "record.players_range": {
        "en": "expected {low} to {high} player names, got {count}",
        "uk": "очікується від {low} до {high} імен гравців, а тут {count}",
    },
    "record.player_empty": {
        "en": "a player name must not be empty",
        "uk": "ім'я гравця не може бути порожнім",
    },
    # -- values of record fields and options ---------------------------------------
    "value.not_object": {
        "en": "expected an object, got {got_term}",
        "uk": "очікується об'єкт, а тут {got_term}",
    },
    "value.not_list": {
        "en": "expected a list, got {got_term}",
        "uk": "очікується список, а тут {got_term}",
    },
    "value.not_string": {
        "en": "expected a string, got {got_term}",
        "uk": "очікується рядок, а тут {got_term}",
    },
    "value.not_integer": {
        "en": "expected an integer, got {got_term}",
        "uk": "очікується ціле число, а тут {got_term}",
    },
    "value.not_bool": {
        "en": "expected true or false, got {got_term}",
        "uk": "очікується true або false, а тут {got_term}",
    },
    "value.int_at_least": {
        "en": "expected an integer of at least {low}, got {value}",
        "uk": "очікується ціле число, не менше за {low}, а тут {value}",
    },
    "value.int_at_most": {
        "en": "expected an integer of at most {high}, got {value}",
        "uk": "очікується ціле число, не більше за {high}, а тут {value}",
    },
    "value.int_range": {
        "en": "expected an integer from {low} to {high}, got {value}",
        "uk": "очікується ціле число від {low} до {high}, а тут {value}",
    },
    "option.not_integer": {
        "en": "expected an integer, got {got}",
        "uk": "очікується ціле число, а тут {got}",
    },
    "option.not_bool": {
        "en": "expected true or false, got {got}",
        "uk": "очікується true або false, а тут {got}",
    },
    # -- action ids, both games -----------------------------------------------------
    "move.not_action_id": {
        "en": "{value} is not an action id",
        "uk": "{value} — не номер дії",
    },
    "move.bad_action_id": {
        "en": "{value} is not an action id: expected 0 to {last}",
        "uk": "{value} — не номер дії: очікується від 0 до {last}",
    },
    # -- Spy vs Spy: move texts (games/spy/actions.py) -----------------------------
    "spy.move_not_text": {
        "en": "a move is text, not {type}",
        "uk": "хід — це текст, а не {type}",
    },
    "spy.move_spaces": {
        "en": "move words are separated by single spaces, with none before or after",
        "uk": "слова ходу розділяє один пробіл, без пробілів на початку й у кінці",
    },
    "spy.move_no_player": {
        "en": "a move starts with the player's number; expected " + _SPY_FORMS_EN,
        "uk": "хід починається з номера гравця; очікується " + _SPY_FORMS_UK,
    },
    "spy.move_bad_player": {
        "en": "there is no player {player}: players are numbered 0 to {last}",
        "uk": "гравця {player} немає: гравці мають номери від 0 до {last}",
    },
    "spy.move_bad_pile_number": {
        "en": "{text!r} is not a pile number: piles are numbered 1 to {max}",
        "uk": "«{text}» — не номер стопки: стопки мають номери від 1 до {max}",
    },
    "spy.move_no_pile": {
        "en": "there is no pile {pile}: piles are numbered 1 to {max}",
        "uk": "стопки {pile} немає: стопки мають номери від 1 до {max}",
    },
    "spy.move_upper_case": {
        "en": "move words are lower case; expected " + _SPY_FORMS_EN,
        "uk": "слова ходу пишуть малими літерами; очікується " + _SPY_FORMS_UK,
    },
    "spy.move_unknown": {
        "en": "unknown move; expected " + _SPY_FORMS_EN,
        "uk": "невідомий хід; очікується " + _SPY_FORMS_UK,
    },
    # -- Spy vs Spy: the rules (games/spy/state.py, match.py; S6-S13) --------------
    "spy.no_player": {
        "en": "there is no player {player}: players are 0 to {last}",
        "uk": "гравця {player} немає: гравці — від 0 до {last}",
    },
    "spy.match_over": {"en": "the match is over", "uk": "матч закінчено"},
    "spy.no_round": {"en": "no round is in play", "uk": "зараз жоден раунд не триває"},
    "spy.round_paused": {
        "en": "the round is over: go on to the next one first",
        "uk": "раунд закінчено: спершу перейдіть до наступного",
    },
    "spy.resigned": {
        "en": "player {player} has resigned this round and makes no more moves",
        "uk": "гравець {player} здався в цьому раунді й більше не ходить",
    },
    "spy.move_limit": {
        "en": "player {player} has used up the {limit} moves allowed in a round "
        "and may only resign",
        "uk": "гравець {player} вичерпав дозволені в раунді ходи ({limit}) і може лише здатися",
    },
    "spy.nothing_to_turn": {
        "en": "the racing deck and the waste are both empty: there is nothing to turn",
        "uk": "колода й відбій порожні: немає чого відкривати",
    },
    "spy.call_too_early": {
        "en": "the points pile still holds {count:# card|# cards}: call only when it is empty",
        "uk": "в очковій стопці ще {count:# карта|# карти|# карт}: "
        "«закінчив» оголошують, лише коли вона порожня",
    },
    "spy.all_piles_open": {
        "en": "all {max} piles are open: no more piles may be opened",
        "uk": "усі {max} стопок уже відкрито: більше стопок відкривати не можна",
    },
    "spy.points_empty": {
        "en": "the points pile is empty: call instead",
        "uk": "очкова стопка порожня: оголосіть «закінчив»",
    },
    "spy.waste_empty": {
        "en": "the waste is empty: turn a card first",
        "uk": "відбій порожній: спершу відкрийте карту",
    },
    "spy.no_pile": {
        "en": "there is no pile {pile}: there are {count} piles",
        "uk": "стопки {pile} немає: стопок лише {count}",
    },
    "spy.no_fit": {
        "en": "{card} does not fit on pile {pile} (top {top_card}): "
        "a card goes on a pile one rank above or below it",
        "uk": "{card} не підходить на стопку {pile} (зверху {top_card}): "
        "карту кладуть на стопку, верхня карта якої на одне значення вища або нижча",
    },
    "spy.not_your_seat": {
        "en": "you are player {seat}: a move must start with {seat}",
        "uk": "ви — гравець {seat}: хід має починатися з {seat}",
    },
    # -- Spy vs Spy: records (games/spy/records.py, deal.py, options.py) -----------
    "spy.record_game": {
        "en": "expected 'spy', got {got}",
        "uk": "очікується 'spy', а тут {got}",
    },
    "spy.record_rounds": {
        "en": "{count} rounds, but options.rounds is {rounds} (rule S16)",
        "uk": "раундів {count}, але options.rounds — {rounds} (правило S16)",
    },
    "spy.round_unfinished": {
        "en": "round {round} is not finished, so no round may follow it",
        "uk": "раунд {round} не закінчено, тож інший раунд не може йти за ним",
    },
    "spy.move_after_round": {
        "en": "round {round} is already over: no move may follow its end",
        "uk": "раунд {round} уже закінчено: після його кінця ходів не буває",
    },
    "spy.cards_of_players": {
        "en": "expected the cards of {players} players, got {count}",
        "uk": "очікуються карти гравців: {players}, а тут {count}",
    },
    "spy.hand_size": {
        "en": "expected {size} cards ({what_term}, rule S2), got {count}",
        "uk": "очікується {size:# карта|# карти|# карт} ({what_term}, правило S2), а тут {count}",
    },
    "spy.not_one_deck": {
        "en": "{whose_term} must be exactly one deck of 52 cards; "
        "more than once: {twice_cards}; missing: {missing_cards}",
        "uk": "{whose_term} мають скласти рівно одну колоду з 52 карт; "
        "повторюються: {twice_cards}; бракує: {missing_cards}",
    },
    "spy.options_not_object": {
        "en": "expected an object of rule options",
        "uk": "очікується об'єкт з опціями правил",
    },
    "spy.same_deal_differs": {
        "en": "with same_deal every player holds the same cards in the same order, "
        "but player {player}'s differ from player 1's",
        "uk": "з same_deal кожен гравець має ті самі карти в тому самому порядку, "
        "а карти гравця {player} відрізняються від карт гравця 1",
    },
    "spy.option_unknown": {
        "en": "unknown option (Spy vs Spy options: {known})",
        "uk": "невідома опція (опції «Шпигуна проти шпигуна»: {known})",
    },
    # -- Candidate: move texts (games/candidate/actions.py) ------------------------
    "candidate.play_empty": {
        "en": "a play needs at least one card",
        "uk": "щоб покласти, потрібна хоча б одна карта",
    },
    "candidate.play_too_many": {
        "en": "a play has at most {max} cards (a hand holds at most 5)",
        "uk": "за раз кладуть щонайбільше {max:# карту|# карти|# карт} (у руці їх до 5)",
    },
    "candidate.not_sequence": {
        "en": "{cards} is not a sequence: after {first_card} comes {next_rank:a} (a run) "
        "or {rank:a} (a set)",
        "uk": "{cards} — не послідовність: після {first_card} йде {next_rank} (сходинки) "
        "або {rank} (набір)",
    },
    "candidate.not_sequence_at_ace": {
        "en": "{cards} is not a sequence: after {first_card} comes {rank:a} (a set)",
        "uk": "{cards} — не послідовність: після {first_card} може йти лише {rank} (набір)",
    },
    "candidate.bad_run_card": {
        "en": "{cards} is not a run: card {position} must be {rank:a}",
        "uk": "{cards} — не сходинки: карта {position} має бути {rank}",
    },
    "candidate.run_past_ace": {
        "en": "{cards} is not a run: card {position} must be nothing: a run stops at A",
        "uk": "{cards} — не сходинки: карти {position} бути не може: сходинки закінчуються на Т",
    },
    "candidate.bad_set_card": {
        "en": "{cards} is not a set: card {position} must be {rank:a}",
        "uk": "{cards} — не набір: карта {position} має бути {rank}",
    },
    "candidate.not_play_action": {
        "en": "{action} is not a play action",
        "uk": "{action} — не номер викладання карт",
    },
    "candidate.move_empty": {
        "en": "an empty move: " + _CANDIDATE_FORMS_EN,
        "uk": "порожній хід: " + _CANDIDATE_FORMS_UK,
    },
    "candidate.pass_alone": {
        "en": "'pass' takes nothing after it",
        "uk": "після 'pass' нічого не пишуть",
    },
    "candidate.pile_letter": {
        "en": "'{word}' takes one pile letter: S, H, D or C",
        "uk": "після '{word}' пишуть одну літеру стопки: S, H, D або C",
    },
    "candidate.move_unknown": {
        "en": "unknown move '{word}': " + _CANDIDATE_FORMS_EN,
        "uk": "невідомий хід '{word}': " + _CANDIDATE_FORMS_UK,
    },
    # -- Candidate: whose decision (games/candidate/match.py) ----------------------
    "candidate.match_over": {
        "en": "the match is over: no more moves",
        "uk": "матч закінчено: ходів більше немає",
    },
    "candidate.not_your_turn": {"en": "it is not your turn", "uk": "зараз не ваш хід"},
    # -- Candidate: the rules (games/candidate/explain.py; C7, C8, C12) ------------
    "candidate.not_a_move": {
        "en": "{action} is not a move (action ids run from 0 to {last})",
        "uk": "{action} — не хід (номери дій — від 0 до {last})",
    },
    "candidate.wrong_decision": {
        "en": "now is not the time for that: the player to move must {wanted_term}",
        "uk": "зараз не час для цього: гравець, що ходить, має {wanted_term}",
    },
    "candidate.pile_empty": {
        "en": "pile {pile_suit} is empty",
        "uk": "стопка {pile_suit} порожня",
    },
    "candidate.may_not_pass": {
        "en": "the piles are used up and the lobby is empty: the leader must start the "
        "lobby with a card from hand and may not pass (C12)",
        "uk": "стопки скінчилися, а лобі порожнє: той, хто ходить першим, мусить почати "
        "лобі картою з руки й не може пасувати (C12)",
    },
    "candidate.not_held": {
        "en": "you do not hold {card}",
        "uk": "у вас немає {card}",
    },
    "candidate.held_fewer": {
        "en": "you hold {card} only {held} times, not {count}",
        "uk": "у вас {card} лише {held:# раз|# рази|# разів}, а не {count}",
    },
    "candidate.move_not_legal": {
        "en": "that move is not legal now",
        "uk": "зараз такий хід не дозволено",
    },
    "candidate.lobby_not_continued": {
        "en": "{card} does not continue the lobby {lobby_card}: the next card must be "
        "a {next_rank} (a run) or a {rank} (a set)",
        "uk": "{card} не продовжує лобі {lobby_card}: наступна карта має бути "
        "{next_rank} (сходинки) або {rank} (набір)",
    },
    "candidate.lobby_not_continued_at_ace": {
        "en": "{card} does not continue the lobby {lobby_card}: the next card must be "
        "a {rank} (a set)",
        "uk": "{card} не продовжує лобі {lobby_card}: наступна карта може бути лише {rank} (набір)",
    },
    "candidate.set_not_continued": {
        "en": "{card} does not continue the set of {rank}s: the next card must be a {rank}",
        "uk": "{card} не продовжує набір значення {rank}: наступна карта має бути {rank}",
    },
    "candidate.run_not_continued": {
        "en": "{card} does not continue the run {run_ranks}: the next card must be a {next_rank}",
        "uk": "{card} не продовжує сходинки {run_ranks}: наступна карта має бути {next_rank}",
    },
    "candidate.run_ends_at_ace": {
        "en": "{card} does not continue the run {run_ranks}: a run stops at A (C7)",
        "uk": "{card} не продовжує сходинки {run_ranks}: сходинки закінчуються на Т (C7)",
    },
    # -- Candidate: records (games/candidate/records.py, options.py) ---------------
    "candidate.record_game": {
        "en": 'expected "candidate", got {got}',
        "uk": 'очікується "candidate", а тут {got}',
    },
    "candidate.record_ending": {
        "en": 'expected "resigned" or "aborted", got {got}',
        "uk": 'очікується "resigned" або "aborted", а тут {got}',
    },
    "candidate.record_ended_over": {
        "en": "the match was played to its end: it cannot have been resigned or aborted",
        "uk": "партію зіграно до кінця: її не могли здати чи скасувати",
    },
    "candidate.record_deals": {
        "en": "{count} deals, but the match has only {deals} (options.deals)",
        "uk": "роздач {count}, але в матчі їх лише {deals} (options.deals)",
    },
    "candidate.dealer_alternates": {
        "en": "expected {expected}: the deal alternates between the players (C2) "
        "and deals[{previous}] was dealt by player {dealer}",
        "uk": "очікується {expected}: гравці здають по черзі (C2), "
        "а deals[{previous}] здавав гравець {dealer}",
    },
    "candidate.pile_wrong_suit": {
        "en": "{card} is not a {suit_term}: pile {pile_suit} holds only {suit_term}s",
        "uk": "{card} не масті «{suit_term}»: у стопці {pile_suit} лише карти масті «{suit_term}»",
    },
    "candidate.pile_copies": {
        "en": "expected each {suit_term} {decks:once|# times} ({count} cards with "
        "{decks:# deck|# decks}), but {card} is there {have:# time|# times}",
        "uk": "кожна карта масті «{suit_term}» має бути {decks:# раз|# рази|# разів} "
        "({count:# карта|# карти|# карт}, колод: {decks}), "
        "але {card} тут {have:# раз|# рази|# разів}",
    },
    "candidate.deal_unfinished": {
        "en": "deal {deal} follows deal {previous}, which is unfinished",
        "uk": "роздача {deal} йде після роздачі {previous}, яку не закінчено",
    },
    "candidate.deal_over": {
        "en": "deal {deal} is over: no more moves belong to it",
        "uk": "роздачу {deal} закінчено: ходів у ній більше немає",
    },
    "candidate.options_not_object": {
        "en": 'expected an object such as {{"decks": 1, "deals": 12}}',
        "uk": 'очікується об\'єкт на зразок {{"decks": 1, "deals": 12}}',
    },
    "candidate.option_unknown": {
        "en": "unknown option (Candidate has only decks and deals)",
        "uk": "невідома опція («Кандидат» має лише decks і deals)",
    },
    # -- the table (cardtable/table/table.py) ---------------------------------------
    "table.not_started": {
        "en": "the match has not started: seats are still open",
        "uk": "партія ще не почалася: є вільні місця",
    },
    "table.finished": {"en": "the match is over", "uk": "партію закінчено"},
    "table.no_seat": {"en": "there is no seat {seat}", "uk": "місця {seat} немає"},
    "table.stale": {
        "en": "move made against version {version}, but your position changed at "
        "version {changed}: here is the current state",
        "uk": "хід зроблено для версії {version}, але ваша позиція змінилася у версії "
        "{changed}: ось поточний стан",
    },
    "table.bad_version": {
        "en": "version {version} is ahead of the table's {table}",
        "uk": "версія {version} новіша за версію столу {table}",
    },
    "table.paused_round": {
        "en": "the round is over: the next one starts in {seconds} s",
        "uk": "раунд закінчено: наступний почнеться за {seconds} с",
    },
    "table.paused_deal": {
        "en": "the deal is over: the next one starts in {seconds} s",
        "uk": "роздачу закінчено: наступна почнеться за {seconds} с",
    },
    "table.not_your_turn": {"en": "it is not your turn", "uk": "зараз не ваш хід"},
    "table.counting": {
        "en": "the race starts in {seconds} s: everyone starts together",
        "uk": "гонка почнеться за {seconds} с: усі починають разом",
    },
    "table.seat_taken": {
        "en": "seat {seat} is already taken",
        "uk": "місце {seat} вже зайняте",
    },
    "table.bad_table": {
        "en": "{game} is played by {low} to {high} players, not {count}",
        "uk": "у {game} грають від {low} до {high} гравців, а не {count}",
    },
    "table.bad_invite": {
        "en": "this invite link does not belong to a seat here",
        "uk": "це запрошення не належить жодному місцю за цим столом",
    },
    "table.not_waiting": {
        "en": "the match has already started",
        "uk": "партія вже почалася",
    },
    "table.seats_open": {
        "en": "every seat must be filled first",
        "uk": "спершу мають бути зайняті всі місця",
    },
    "table.race_no_resign": {
        "en": "a race is not resigned, aborted or taken back as a whole: "
        "leave the round with resign (S13)",
        "uk": "гонку не можна здати, скасувати чи переграти цілком: "
        "щоб вийти з раунду, здайтеся в ньому (S13)",
    },
    "table.abort_tournament": {
        "en": "a tournament game cannot be aborted: play it or resign",
        "uk": "турнірну партію не можна скасувати: грайте або здавайтеся",
    },
    "table.abort_late": {
        "en": "the game is under way: abort only before the first move; resign instead",
        "uk": "партія вже йде: скасувати можна лише до першого ходу; натомість здайтеся",
    },
    "table.takeback_rated": {
        "en": "no takebacks at a rated table",
        "uk": "за рейтинговим столом ходи не повертають",
    },
    "table.takeback_tournament": {
        "en": "no takebacks in a tournament game",
        "uk": "у турнірній партії ходи не повертають",
    },
    "table.takeback_people": {
        "en": "takebacks are only for a casual game against bots",
        "uk": "повернути хід можна лише в нерейтинговій грі проти ботів",
    },
    "table.takeback_nothing": {
        "en": "you have made no move to take back",
        "uk": "ви ще не зробили ходу, який можна повернути",
    },
    # -- a race's start and the pause between its rounds (table, terminal) ---------
    "race.count": {
        "en": "Get ready: the race starts in {seconds} s",
        "uk": "Приготуйтеся: гонка почнеться за {seconds} с",
    },
    "race.go": {"en": "Go!", "uk": "Старт!"},
    "race.called": {
        "en": "{name} called «finished» first",
        "uk": "Перше «закінчив» — {name}",
    },
    "race.blocked": {
        "en": "Nobody could move any more: the round was blocked and nobody wins it",
        "uk": "Ніхто більше не міг ходити: раунд заблоковано, переможця немає",
    },
    "race.resigned": {
        "en": "Everyone left the round: nobody wins it",
        "uk": "Усі вийшли з раунду: переможця немає",
    },
    "race.time": {"en": "Race time {time}", "uk": "Час гонки {time}"},
    # -- the server's protocol (server/core.py) ------------------------------------
    "server.storage": {
        "en": "the move could not be stored; please resync",
        "uk": "хід не вдалося зберегти; оновіть стан столу",
    },
    "server.not_paused": {
        "en": "the table is not pausing",
        "uk": "стіл не на паузі",
    },
    "server.rate_limited": {
        "en": "too many messages: slow down",
        "uk": "забагато повідомлень: повільніше",
    },
    "server.no_hello": {"en": "say hello first", "uk": "спершу привітайтеся (hello)"},
    "server.already_greeted": {
        "en": "this connection already said hello as another seat",
        "uk": "це з'єднання вже привіталося як інше місце",
    },
    "server.too_large": {
        "en": "a message may be at most {limit} bytes",
        "uk": "повідомлення може мати щонайбільше {limit} байтів",
    },
    # -- several server processes and a busy one (server/cluster/, admission) -------
    "server.owner_unreachable": {
        "en": "the server running this table did not answer: try again",
        "uk": "сервер, що веде цей стіл, не відповів: спробуйте ще раз",
    },
    "server.owner_failed": {
        "en": "the server running this table failed to answer: try again",
        "uk": "сервер, що веде цей стіл, не зміг відповісти: спробуйте ще раз",
    },
    "server.busy": {
        "en": "the server is busy: try again in {retry_after} s",
        "uk": "сервер зайнятий: спробуйте ще раз за {retry_after} с",
    },
    "server.moved": {
        "en": "the table moved to another server: try again",
        "uk": "стіл перейшов на інший сервер: спробуйте ще раз",
    },
    "server.rematch_conflict": {
        "en": "the rematch could not be stored now: try again",
        "uk": "реванш зараз не вдалося зберегти: спробуйте ще раз",
    },
    # -- lobby codes, invites and the next game (server/routes/tables.py) ------------
    "server.no_code": {
        "en": "no table and no open seat has the code {code!r}",
        "uk": "жоден стіл і жодне вільне місце не має коду {code!r}",
    },
    "server.not_host": {
        "en": "only the table's creator may see its invites",
        "uk": "запрошення столу бачить лише той, хто його створив",
    },
    # -- fair deals and a hardened server (server/app.py, routes, runtime) ----------
    "server.client_seed": {
        "en": "the server deals: a client may not choose the seed",
        "uk": "роздає сервер: клієнт не може вибирати зерно роздачі",
    },
    "server.client_seed_rated": {
        "en": "a table with a client's seed cannot be rated",
        "uk": "стіл із зерном роздачі від клієнта не може бути рейтинговим",
    },
    "server.bad_options": {
        "en": "bad rule options: {detail}",
        "uk": "неправильні параметри правил: {detail}",
    },
    "server.hint_rate_limited": {
        "en": "too many hints: ask again in {seconds} s",
        "uk": "забагато підказок: спитайте знову за {seconds} с",
    },
    "server.hints_rated": {
        "en": "no hints at a rated table: every move is the player's own",
        "uk": "за рейтинговим столом підказок немає: кожен хід — лише власний",
    },
    "server.hints_off": {
        "en": "this table allows no hints: they were not chosen when it was created",
        "uk": "за цим столом підказок немає: їх не дозволили, коли стіл створювали",
    },
    "server.rated_hints": {
        "en": "a rated table allows no hints: play it unrated for hints",
        "uk": "рейтинговий стіл не дозволяє підказок: для підказок грайте без рейтингу",
    },
    "server.hints_busy": {
        "en": "the server is working out other hints: ask again in a moment",
        "uk": "сервер зараз готує інші підказки: спитайте знову за мить",
    },
    "server.not_json": {
        "en": "the body must be JSON, sent with Content-Type: application/json",
        "uk": "тіло запиту має бути JSON із заголовком Content-Type: application/json",
    },
    "server.too_deep": {
        "en": "JSON may nest at most {limit} arrays and objects deep",
        "uk": "JSON може мати щонайбільше {limit} рівнів вкладених масивів і об'єктів",
    },
    "server.number_too_long": {
        "en": "a number may have at most {limit} characters",
        "uk": "число може мати щонайбільше {limit} символів",
    },
    "server.bad_text": {
        "en": "text must be valid Unicode: a lone surrogate (such as \\ud800) is not",
        "uk": "текст має бути правильним Unicode: одинокий сурогат (як-от \\ud800) ним не є",
    },
    # -- the analysis board (server/analysis.py, routes/analysis.py) ----------------
    "server.analysis_not_finished": {
        "en": "the game is not finished: it can be analysed once it is over",
        "uk": "гру ще не закінчено: її можна проаналізувати, коли вона скінчиться",
    },
    "server.analysis_no_game": {
        "en": "there is no analysis for the game {game}",
        "uk": "для гри {game} аналізу немає",
    },
    "server.analysis_running": {
        "en": "this game is being analysed already: {percent}% done",
        "uk": "цю гру вже аналізують: готово {percent}%",
    },
    "server.analysis_one_at_a_time": {
        "en": "you have an analysis running already: one at a time",
        "uk": "у вас уже йде аналіз іншої гри: лише один за раз",
    },
    "server.analysis_rate_limited": {
        "en": "too many analyses: start the next one in {minutes} min",
        "uk": "забагато аналізів: наступний можна почати за {minutes} хв",
    },
    "server.analysis_busy": {
        "en": "the server is analysing other games: try again in a minute",
        "uk": "сервер зараз аналізує інші ігри: спробуйте за хвилину",
    },
    # -- the "play now" queue (server/seeks.py, routes/seeks.py) -------------------
    "server.no_seek": {
        "en": "no such seek: it was cancelled or has expired",
        "uk": "такого пошуку немає: його скасовано або він застарів",
    },
    "server.seeks_busy": {
        "en": "the play-now queues are busy: try again in a moment",
        "uk": "черги «Грати зараз» зайняті: спробуйте ще раз за мить",
    },
    "server.seek_name": {
        "en": "a guest waits under a display name: give one",
        "uk": "гість чекає під своїм ім'ям: вкажіть його",
    },
    "server.seek_bots_later": {
        "en": "bots may fill the table after {seconds} s more of waiting",
        "uk": "ботів можна покликати ще через {seconds} с очікування",
    },
    "server.seek_seats": {
        "en": "this game seats {min} to {max} players",
        "uk": "у цій грі від {min} до {max} гравців",
    },
    # -- accounts and rated tables (server/routes/accounts.py, routes/tables.py) -------
    "server.rated_needs_account": {
        "en": "rated tables are for signed-in players: sign in, or play unrated",
        "uk": "рейтингові столи — лише для тих, хто увійшов: увійдіть або грайте без рейтингу",
    },
    "server.already_seated": {
        "en": "you already have a seat at this table",
        "uk": "у вас уже є місце за цим столом",
    },
    "server.csrf": {
        "en": "a request signed in by cookie must carry the {header} header",
        "uk": "запит, підписаний cookie, мусить мати заголовок {header}",
    },
    "server.signed_out": {"en": "sign in first", "uk": "спершу увійдіть"},
    "tournament.starting": {
        "en": "the server is starting: try again in a moment",
        "uk": "сервер запускається: спробуйте за мить",
    },
    "tournament.no_tournament": {
        "en": "no tournament {tournament}",
        "uk": "турніру {tournament} немає",
    },
    "tournament.bad_format": {
        "en": "the server runs 'swiss' (Candidate), 'race' (Spy) and 'arena' (both) "
        "tournaments, not {format}",
        "uk": "сервер проводить турніри 'swiss' (Кандидат), 'race' (Шпигун) і 'arena' (обидві "
        "гри), а не {format}",
    },
    "tournament.arena_minutes": {
        "en": "an arena lasts 1 to {most} minutes, not {minutes}",
        "uk": "арена триває від 1 до {most} хвилин, а не {minutes}",
    },
    "tournament.arena_duplicate": {
        "en": "an arena cannot be duplicate: its games start at different times",
        "uk": "арена не може бути дублікатною: її партії починаються в різний час",
    },
    "tournament.format_game": {
        "en": "a {format} tournament is played at {game}",
        "uk": "турнір {format} грають у {game}",
    },
    "tournament.bad_options": {
        "en": "these options do not suit the tournament's tables: {detail}",
        "uk": "ці параметри не підходять для столів турніру: {detail}",
    },
    "tournament.start_past": {
        "en": "the start time has passed",
        "uk": "час початку вже минув",
    },
    "tournament.two_starts": {
        "en": "give starts_at or start_in, not both",
        "uk": "вкажіть starts_at або start_in, не обидва",
    },
    "tournament.bad_time": {
        "en": "starts_at is not an ISO 8601 time: {value}",
        "uk": "starts_at — не час у форматі ISO 8601: {value}",
    },
    "tournament.finished": {"en": "the tournament is over", "uk": "турнір закінчено"},
    "tournament.started": {
        "en": "the tournament has started",
        "uk": "турнір уже почався",
    },
    "tournament.bad_code": {
        "en": "this tournament needs its invite code",
        "uk": "для цього турніру потрібен код запрошення",
    },
    "tournament.registered": {
        "en": "you are registered already",
        "uk": "ви вже зареєстровані",
    },
    "tournament.removed": {
        "en": "the organiser removed you from this tournament",
        "uk": "організатор вилучає вас із цього турніру",
    },
    "tournament.not_registered": {
        "en": "you are not registered in this tournament",
        "uk": "ви не зареєстровані в цьому турнірі",
    },
    "tournament.checkin_closed": {
        "en": "check-in has not opened yet (it opens at {opens_at})",
        "uk": "реєстрацію присутності ще не відкрито (відкриється о {opens_at})",
    },
    "tournament.not_organiser": {
        "en": "only the tournament's organiser may do that",
        "uk": "це може лише організатор турніру",
    },
    "tournament.no_player": {
        "en": "no player {player} in this tournament",
        "uk": "гравця {player} у цьому турнірі немає",
    },
    "server.bad_login": {
        "en": "wrong user name or password",
        "uk": "неправильне ім'я користувача або пароль",
    },
    "server.login_limited": {
        "en": "too many failed logins: try again in {minutes} min",
        "uk": "забагато невдалих спроб входу: спробуйте знову за {minutes} хв",
    },
    "server.bad_password": {
        "en": "the current password is wrong",
        "uk": "поточний пароль неправильний",
    },
    "server.password_short": {
        "en": "a password has at least {min} characters",
        "uk": "пароль має щонайменше {min} символів",
    },
    "server.name_taken": {
        "en": "the name {name!r} is taken",
        "uk": "ім'я {name!r} уже зайняте",
    },
    "server.name_invisible": {
        "en": "a user name may not hold invisible characters",
        "uk": "ім'я користувача не може містити невидимих символів",
    },
    "server.name_length": {
        "en": "a user name has {min} to {max} characters",
        "uk": "ім'я користувача має від {min} до {max} символів",
    },
    "server.name_spaces": {
        "en": "a user name may not hold two spaces in a row",
        "uk": "ім'я користувача не може містити двох пробілів поспіль",
    },
    "server.name_character": {
        "en": "a user name holds letters, digits, spaces and - _ . ' only",
        "uk": "ім'я користувача містить лише літери, цифри, пробіли та - _ . '",
    },
    "server.name_scripts": {
        "en": "a user name may not mix alphabets",
        "uk": "ім'я користувача не може змішувати абетки",
    },
    "server.name_letters": {
        "en": "a user name needs a letter",
        "uk": "ім'я користувача мусить мати літеру",
    },
    "server.name_reserved": {
        "en": "names starting with Bot are kept for the bots",
        "uk": "імена, що починаються з Bot чи Бот, належать ботам",
    },
    "server.name_label": {
        "en": "names such as 'spectator 1' are kept for the server's labels",
        "uk": "імена на кшталт «глядач 1» залишено для позначок сервера",
    },
    "server.name_of_account": {
        "en": "{name!r} is an account's name (or looks like one): sign in as it, or "
        "choose another name",
        "uk": "{name!r} — ім'я облікового запису (або схоже на нього): увійдіть у нього "
        "чи виберіть інше ім'я",
    },
    "server.name_at_table": {
        "en": "{name!r} is another seat's name at this table (or looks like it): choose "
        "another name",
        "uk": "{name!r} — ім'я іншого місця за цим столом (або схоже на нього): виберіть інше ім'я",
    },
    "server.no_player": {
        "en": "no player is called {name!r}",
        "uk": "жоден гравець не називається {name!r}",
    },
    # -- table chat (server/chat.py) ----------------------------------------------------
    "server.chat_too_long": {
        "en": "a chat message may be at most {limit} characters",
        "uk": "повідомлення в чаті може мати щонайбільше {limit} символів",
    },
    "server.chat_rate_limited": {
        "en": "too many chat messages: wait {seconds} s",
        "uk": "забагато повідомлень у чаті: зачекайте {seconds} с",
    },
    "server.chat_empty": {
        "en": "a chat message needs some text",
        "uk": "повідомлення в чаті не може бути порожнім",
    },
    "server.chat_storage": {
        "en": "the chat message could not be stored; try again",
        "uk": "не вдалося зберегти повідомлення чату; спробуйте ще раз",
    },
}

#: Every message id with its template in each language of :data:`LANGS`.
CATALOG: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {code: MappingProxyType(texts) for code, texts in _CATALOG.items()}
)

#: How each language shows a rank and a suit letter of a card's plain text (English
#: keeps the plain text; Ukrainian as :meth:`cardtable.cards.Card.symbol` shows it).
_RANK_FACES: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {},
    "uk": {"J": "В", "Q": "Д", "K": "К", "A": "Т"},
}
_SUIT_SYMBOLS: Final[Mapping[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_FACES: Final[Mapping[str, Mapping[str, str]]] = {"en": {}, "uk": _SUIT_SYMBOLS}
_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_Piece = tuple[str, str | None, str | None, str | None]
_PARSED: Final[dict[tuple[str, str], tuple[_Piece, ...]]] = {
    (code, lang): tuple(string.Formatter().parse(template))
    for code, texts in _CATALOG.items()
    for lang, template in texts.items()
}


def say(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``code`` in ``lang`` as a face shows it to a player: like
    :func:`render`, but every card and suit is written with its suit symbol in every
    language (``Q♠``, ``♥``), the way the table draws cards, never as a record's code.

    >>> say("candidate.bad_run_card", {"cards": "7S 8H 10D", "position": 3, "rank": "9"})
    '7♠ 8♥ 10♦ is not a run: card 3 must be a 9'
    """
    return _render(code, params, lang, _SUIT_SYMBOLS)


def render(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``code`` in ``lang``, its parameters shown as the language shows them
    in text (English: a record's plain card text, ``QS``; faces use :func:`say`).

    Raises :class:`KeyError` for an unknown id or a missing parameter and
    :class:`ValueError` for a language not in :data:`LANGS`.

    >>> render("spy.call_too_early", {"count": 1}, "en")
    'the points pile still holds 1 card: call only when it is empty'
    >>> render("spy.call_too_early", {"count": 3}, "uk")
    'в очковій стопці ще 3 карти: «закінчив» оголошують, лише коли вона порожня'
    >>> render("candidate.bad_run_card", {"cards": "7S 8H 10D", "position": 3, "rank": "9"})
    '7S 8H 10D is not a run: card 3 must be a 9'
    """
    return _render(code, params, lang, _SUIT_FACES.get(lang, {}))


def _render(code: str, params: Mapping[str, Any], lang: str, suits: Mapping[str, str]) -> str:
    """``code`` in ``lang``, its suits shown by ``suits`` (the rules of :func:`render`)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    pieces = _PARSED.get((code, lang))
    if pieces is None:
        raise KeyError(f"unknown message id {code!r}")
    out: list[str] = []
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        value = params[name]
        if conversion == "r":
            out.append(repr(value))
        elif spec and "|" in spec:
            out.append(_plural(int(value), spec, lang))
        else:
            text = _param_text(name, value, lang, suits)
            out.append(_article(text) + text if spec == "a" else text)
    return "".join(out)


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses.

    >>> sorted(placeholders("{card} on {pile} ({count:# card|# cards})"))
    ['card', 'count', 'pile']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def param_content(name: str) -> str:
    """What a parameter holds, from its name: ``card``, ``cards``, ``rank``, ``ranks``,
    ``suit``, ``term`` or ``text`` (shown as it is).

    >>> [param_content(name) for name in ("top_card", "cards", "got_term", "pile")]
    ['card', 'cards', 'term', 'text']
    """
    content = name.rsplit("_", 1)[-1]
    return content if content in ("card", "cards", "rank", "ranks", "suit", "term") else "text"


def _param_text(name: str, value: Any, lang: str, suits: Mapping[str, str]) -> str:
    content = param_content(name)
    if content == "text":
        return str(value)
    if content == "term":
        return CATALOG[str(value)][lang]
    if content == "suit":
        return suits.get(str(value), str(value))
    if content == "rank":
        return _RANK_FACES[lang].get(str(value), str(value))
    if content == "ranks":
        faces = _RANK_FACES[lang]
        return "-".join(faces.get(rank, rank) for rank in str(value).split("-"))
    if content == "card":
        return _card(str(value), lang, suits)
    return " ".join(_card(card, lang, suits) for card in str(value).split(" ")) if value else ""


def _card(text: str, lang: str, suits: Mapping[str, str]) -> str:
    rank, suit = text[:-1], text[-1:]
    return _RANK_FACES[lang].get(rank, rank) + suits.get(suit, suit)


def _article(text: str) -> str:
    """The English indefinite article before a rank or number: ``an 8``, ``an A``."""
    return "an " if text[:1] in ("8", "A") else "a "


def plural(number: int, spec: str, lang: str) -> str:
    """The form of ``spec`` for ``number``, ``#`` standing for the number: English
    ``one|other``, Ukrainian ``one|few|many``.

    >>> plural(1, "# move|# moves", "en"), plural(3, "# хід|# ходи|# ходів", "uk")
    ('1 move', '3 ходи')
    """
    return _plural(number, spec, lang)


def _plural(number: int, spec: str, lang: str) -> str:
    """The form of ``spec`` (``one|other`` or ``one|few|many``) for ``number``."""
    forms = spec.split("|")
    if lang == "uk":
        tens, units = number % 100, number % 10
        if units == 1 and tens != 11:
            index = 0
        elif 2 <= units <= 4 and not 12 <= tens <= 14:
            index = 1
        else:
            index = 2
    else:
        index = 0 if number == 1 else 1
    return forms[min(index, len(forms) - 1)].replace("#", str(number))


class Refusal(NamedTuple):
    """A reason to refuse: a message id and its parameters, not yet said in any language.

    :meth:`text` says it; :meth:`illegal`, :meth:`bad_record` and :meth:`bad_card` make
    the error to raise, its English text rendered from the catalog.
    """

    code: str
    params: Mapping[str, str | int]

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``."""
        return render(self.code, self.params, lang)

    def illegal(self, move: str | None = None) -> IllegalMove:
        """An :class:`~cardtable.errors.IllegalMove` for ``move`` (its text, if known)."""
        return IllegalMove(self.text(), move, code=self.code, params=self.params)

    def bad_record(self, field: str) -> BadRecord:
        """A :class:`~cardtable.errors.BadRecord` naming the record ``field``."""
        return BadRecord(field, self.text(), code=self.code, params=self.params)

    def bad_card(self) -> CardParseError:
        """A :class:`~cardtable.errors.CardParseError`."""
        return CardParseError(self.text(), code=self.code, params=self.params)

    def unreadable_file(self) -> UnreadableFile:
        """An :class:`~cardtable.errors.UnreadableFile`."""
        return UnreadableFile(self.text(), code=self.code, params=self.params)


def make_refusal(code: str, /, **params: str | int) -> Refusal:
    """A :class:`Refusal` of the catalog's message ``code`` (an unknown id is a bug:
    :class:`KeyError` at once, not when someone reads the message)."""
    if code not in CATALOG:
        raise KeyError(f"unknown message id {code!r}")
    return Refusal(code, params)


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog in ``lang`` for a face that renders the messages itself: every
    template and how the language shows ranks and suits to a player (as :func:`say`:
    suit symbols in every language).

    >>> data = catalog_json("uk")
    >>> data["messages"]["spy.match_over"], data["ranks"]["Q"], data["suits"]["S"]
    ('матч закінчено', 'Д', '♠')
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    return {
        "lang": lang,
        "messages": {code: texts[lang] for code, texts in CATALOG.items()},
        "ranks": {rank: _RANK_FACES[lang].get(rank, rank) for rank in _RANKS},
        "suits": dict(_SUIT_SYMBOLS),
    }
