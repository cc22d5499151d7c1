"""Words and cards as the terminal app shows them, in English and Ukrainian.

Every string a screen shows comes from :func:`tr`, so the language switch (``l``)
changes the whole app at once. Cards are shown with suit symbols, which differ in shape
(♠ ♥ ♦ ♣), so they stay distinguishable without colour (``NO_COLOR``); red suits are
also coloured when colour is on. In Ukrainian the court cards use the letters В Д К Т.

>>> card_label("QS", "en"), card_label("QS", "uk"), card_label("10H", "uk")
('Q♠', 'Д♠', '10♥')
>>> tr("uk", "pass")
'пас'
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from cardtable.cards import Rank, Suit, parse_card_kind
from cardtable.errors import IllegalMove
from cardtable.glossary import term
from cardtable.messages import CATALOG, say
from cardtable.tui.driver import Refusal

__all__ = [
    "LANGS",
    "bot_name",
    "card_label",
    "card_text",
    "cards_text",
    "other_lang",
    "refusal_text",
    "tr",
]

LANGS = ("en", "uk")


def other_lang(lang: str) -> str:
    """The language the switch goes to from ``lang``."""
    return "uk" if lang == "en" else "en"


def card_label(text: str, lang: str) -> str:
    """A card's display form: rank (Ukrainian letters in ``uk``) then suit symbol."""
    kind = parse_card_kind(text)
    rank = Rank(kind % 13 + 2)
    return (rank.text_uk if lang == "uk" else rank.text) + Suit(kind // 13).symbol


def card_text(text: str, lang: str) -> Text:
    """A card as styled text: bold, red suits in red (colour is only a help: the
    symbol alone tells the suit)."""
    suit = Suit(parse_card_kind(text) // 13)
    return Text(card_label(text, lang), style="bold red" if suit.is_red else "bold")


def cards_text(texts: Iterable[str], lang: str, sep: str = " ") -> Text:
    """Several cards as styled text, separated by ``sep``."""
    out = Text()
    for i, text in enumerate(texts):
        if i:
            out.append(sep)
        out.append_text(card_text(text, lang))
    return out


def refusal_text(exc: IllegalMove | Refusal, lang: str) -> str:
    """Why the engine or the table refused a move, in ``lang``: its message id rendered
    from the catalog of :mod:`cardtable.messages` (the English reason when it has none).

    >>> from cardtable.games.candidate.actions import text_to_action
    >>> try:
    ...     text_to_action("play 2S 7S")
    ... except IllegalMove as exc:
    ...     print(refusal_text(exc, "uk"))
    2♠ 7♠ — не послідовність: після 2♠ йде 3 (сходинки) або 2 (набір)
    """
    if isinstance(exc, IllegalMove):
        code, fallback = exc.code, exc.reason
    else:
        code, fallback = exc.message_id, exc.text
    if code is None or code not in CATALOG:
        return fallback
    return say(code, exc.params, lang)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _game_words(lang: str) -> dict[str, str]:
    """The games' own words in ``lang``, from the glossary every face reads."""
    return {
        "piles": _capital(term("piles", lang)),
        "lobby": _capital(term("lobby", lang)),
        "run": term("run", lang),
        "set": term("set", lang),
        "waste": term("waste", lang),
        "deck": term("deck", lang),
        "bot": term("bot", lang),
    }


def bot_name(level: str, lang: str) -> str:
    """A bot seat's name from its level, in ``lang``: ``Bot (easy)``, «Бот (легкий)»;
    a spec that is not a level (``greedy``) is kept as it is."""
    try:
        return f"{term('bot', lang)} ({term(f'level.{level}', lang)})"
    except KeyError:
        return f"{term('bot', lang)} ({level})"


def tr(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang`` (English when missing), formatted with ``values``."""
    table = _UK if lang == "uk" else _EN
    template = table.get(key) or _EN[key]
    return template.format(**values) if values else template


_EN: dict[str, str] = {
    # -- shared ------------------------------------------------------------------------
    "you": "You",
    "pass": "pass",
    "mv_play": "play {cards}",
    "mv_deal": "deal from the {pile} pile",
    "mv_lobby": "turn a card from the {pile} pile onto the lobby",
    "mv_draw": "draw from the {pile} pile",
    "help_title": "Help",
    "rules_title": "Rules",
    "close_hint": "Esc or ? closes this screen",
    "keys_common": "? help  r rules  l мова: українська  q quit",
    "saved": "Record saved to {path}",
    "save_failed": "Could not save the record to {path}: {why}",
    "quit_hint": "q quits; --save FILE keeps a record",
    "quit_title": "Leave the game?",
    "quit_saves": "The game so far is saved to {path}; it replays from there.",
    "quit_lost": "The game is not saved (play with --save FILE to keep a record).",
    "quit_keys": "y or q — leave · any other key — back to the game",
    "unknown_key": "{pressed} does nothing here: {why}",
    "unknown_key_why": "press ? for the keys",
    # -- candidate ---------------------------------------------------------------------
    "cand_title": "Candidate · deal {deal} of {deals} · dealer: {dealer} · leader: {leader}",
    "cand_title_over": "Candidate · match over",
    "cand_resigned": "{name} resigned: {winner} wins. q quits",
    "cand_you_resigned": "You resigned: {name} wins. q quits",
    "cand_aborted": "{name} aborted the game before the first move: no result. q quits",
    "cand_confirm_resign": "Press x again to resign the match (it counts as a loss)",
    "lobby_empty": "empty",
    "discards": "discarded",
    "hand": "hand",
    "hand_of": "{name}'s hand",
    "your_hand": "Your hand",
    "cards_count": "{n} cards",
    "deal_score": "deal {score}",
    "total": "total {total}",
    "captures": "captures",
    "no_captures": "no captures yet",
    "decision_deal": "{name}: deal the hands — choose a pile (s h d c)",
    "decision_lobby": "{name}: turn a lobby card — choose a pile (s h d c)",
    "decision_draw": "{name}: draw a card — choose a pile (s h d c)",
    "decision_play": "{name}: play cards (1-5, then Enter) or pass (p)",
    "decision_play_from_hand": "{name}: piles empty — start the lobby from hand (1-5, Enter)",
    "thinking": "{name} is thinking…",
    "selected": "selected: {cards} — Enter plays, Esc clears",
    "hint": "Hint: {move}",
    "hint_wait": "Working out a hint…",
    "hint_none": "No hint now: it is not your decision",
    "not_your_turn": "it is not your decision now",
    "no_pile_now": "now is not the time to choose a pile: {what}",
    "no_card_now": "now is not the time to pick cards: {what}",
    "no_such_card": "there is no card {n} in your hand (you hold {count})",
    "nothing_selected": "select cards with 1-5 first",
    "match_over_status": "Match over — {result}. q quits",
    "cand_pause": "Deal {deal} is over: deal {next} starts in {seconds} s — Enter starts it now",
    "cand_paused_why": "the next deal has not begun (Enter begins it)",
    "cand_pause_holds": "Deal {deal} is over: read it, then Enter starts deal {next}",
    "deal_over_title": "Deal {deal} of {deals} is over",
    "deal_over_seat": "{name}: {score} this deal, {total} in all",
    "deal_over_none": "no captures",
    "deal_over_next": "Enter — start deal {next} · ? r l q — help, rules, language, quit",
    "deal_over_last": "The match is over: {result}. Enter closes this, then q quits.",
    "help_deal_over": """Deal over — keys

Enter        close this and start the next deal (the table waits
             for you; after the last deal, see the match's result)
? r l q      help, rules, language, quit

The captures and scores of the deal stay here until you go on.""",
    "winner": "{name} wins {a}:{b}",
    "you_win": "you win {a}:{b}",
    "draw_result": "a draw {a}:{b}",
    "keys_candidate": "1-5 pick  Enter play  Esc unpick  p pass  s h d c pile  t hint",
    "handoff_title": "Pass the keyboard",
    "handoff_why": "press Enter when {name} has the keyboard",
    "handoff_body": "Pass the keyboard to {name}.\n\n{other}, please look away.\n\n"
    "{name}: press Enter to see your hand.",
    "ev_dealt": "{name} dealt the hands from pile {pile}",
    "ev_received": "{name} received {cards}",
    "ev_received_hidden": "{name} received five cards",
    "ev_lobby_turned": "{name} turned {cards} onto the lobby from pile {pile}",
    "ev_played": "{name} played {cards}",
    "ev_passed": "{name} passed",
    "ev_trick_taken": "{name} took {cards}, scoring {score}",
    "ev_lobby_discarded": "nobody played onto {cards}: it is discarded",
    "ev_drew": "{name} drew {cards} from pile {pile}",
    "ev_drew_hidden": "{name} drew from pile {pile}",
    "ev_deal_ended": "Deal over: {scores}; totals {totals}",
    "ev_match_ended": "Match over: totals {totals}",
    "help_candidate": """Candidate — keys

1 … 5        pick a card of your hand (again: unpick); the cards are
             played in rank order
Enter        play the picked cards onto the lobby; after a deal, start
             the next one without waiting for the countdown
Esc          clear the picked cards
p            pass
s h d c      choose a pile (♠ ♥ ♦ ♣): deal, turn a lobby card, draw
t            hint: what the bot would do in your place
u            take back your last move and the bot's reply (against bots)
a            abort the game (before your first move: no result)
x x          resign the match (press x twice)
r            the rules (C1…C17)
l            language: English / українська
?            this help
q            quit (the record is saved with --save FILE)

The status line says whose decision it is and what kind; a key that
means nothing now says why there.""",
    "help_handoff": """Pass the keyboard — keys

Enter        show the hand of the player named on the screen
? r l q      help, rules, language, quit

The hand stays hidden until the right player presses Enter.""",
    # -- spy ---------------------------------------------------------------------------
    "spy_title": "Spy vs Spy · round {round} of {rounds}",
    "spy_your_total": "your total {total} (lowest wins)",
    "spy_others_head": "pts top │ piles                   │ waste deck moves total",
    "spy_title_over": "Spy vs Spy · match over",
    "points": "points",
    "moves": "# move|# moves",
    "racing": "racing",
    "called": "CALLED",
    "blocked": "blocked",
    "resigned": "resigned",
    "pile_n": "pile {n}",
    "new_pile": "new",
    "your_table": "Your table",
    "others": "The others",
    "spy_status": "Place on a pile (1-6), turn (space), call (c) when the points pile is empty",
    "spy_status_blocked": "You are blocked: nothing can ever fit (S12). Resign (x x) or wait",
    "spy_status_resigned": "You resigned this round: the others race on",
    "spy_status_call": "Your points pile is empty: call now (c)!",
    "spy_waste_prefix": "From the waste: choose a pile (1-6)",
    "spy_confirm_resign": "Press x again to resign this round",
    "spy_no_pile": "there is no pile {n}: you have {count}, and the next one you open is {next}",
    "spy_no_more_piles": "there is no pile {n}: you have all six piles",
    "spy_pause": "Round {round} starts in {seconds} s: Enter goes on now",
    "spy_round_over_title": "Round {round} over",
    "spy_round_winner": "{name} called first.",
    "spy_round_nobody": "Everybody is blocked or out: nobody wins the round.",
    "spy_round_scores": "Round scores: {scores}",
    "spy_totals": "Totals: {totals}",
    "spy_next_round": "Round {round} starts in {seconds} s. Enter: go on now.",
    "spy_match_over": "Match over. Winner: {names}. Press Enter, then q to quit.",
    "keys_spy": "1-6 pile  w 1-6 from waste  space turn  c call  x x resign",
    "ev_turn": "turned {card}",
    "ev_place": "put {card} on pile {pile}",
    "ev_open": "opened pile {pile} with {card}",
    "ev_call": "CALLED",
    "ev_resign": "resigned",
    "ev_blocked": "is blocked",
    "help_spy": """Spy vs Spy — keys

1 … 6        put a card on pile N: the points-pile top when it fits,
             else the waste top; the number after your last pile opens
             a new pile (the points-pile top first)
w then 1…6   put the waste top on pile N (or open one with it)
space        turn a card from the racing deck onto the waste
c            call "finished" (only with an empty points pile)
x x          resign this round
r            the rules (S1…S17)
l            language: English / українська
?            this help
q            quit (the record is saved with --save FILE)

A card fits a pile whose top is one rank above or below it; ranks
wrap round: … Q K A 2 3 … The others race at the speeds you chose.""",
    "help_round_over": """Round over — keys

Enter        go on to the next round now, without waiting for the
             countdown (or close the result of the match)
? r l q      help, rules, language, quit

Moves wait for the next round: the table pauses between rounds.""",
    "keys_rules": "Esc back  ↑ ↓ PgUp PgDn scroll  ? help  l мова: українська  q quit",
    "help_rules": """Rules — keys

↑ ↓ PgUp PgDn   scroll
Esc or r        back to the game
l               language: English / українська""",
    "help_help": "Esc or ? closes the help.",
}
_EN.update(_game_words("en"))

_UK: dict[str, str] = {
    "you": "Ви",
    "pass": "пас",
    "mv_play": "зіграти {cards}",
    "mv_deal": "роздати зі стопки {pile}",
    "mv_lobby": "відкрити в лобі карту зі стопки {pile}",
    "mv_draw": "добрати зі стопки {pile}",
    "help_title": "Довідка",
    "rules_title": "Правила",
    "close_hint": "Esc або ? закриває цей екран",
    "keys_common": "? довідка  r правила  l language: English  q вихід",
    "saved": "Запис гри збережено у {path}",
    "save_failed": "Не вдалося зберегти запис у {path}: {why}",
    "quit_hint": "q — вихід; --save FILE зберігає запис",
    "quit_title": "Вийти з гри?",
    "quit_saves": "Гру досі збережено у {path}; її можна переглянути з цього місця.",
    "quit_lost": "Гру не буде збережено (грайте з --save FILE, щоб зберегти запис).",
    "quit_keys": "y або q — вийти · будь-яка інша клавіша — назад до гри",
    "unknown_key": "{pressed} тут нічого не робить: {why}",
    "unknown_key_why": "натисніть ?, щоб побачити клавіші",
    "cand_title": "Кандидат · роздача {deal} з {deals} · здає {dealer} · ходить {leader}",
    "cand_title_over": "Кандидат · матч закінчено",
    "cand_resigned": "{name} здається: перемагає {winner}. q — вихід",
    "cand_you_resigned": "Ви здалися: перемагає {name}. q — вихід",
    "cand_aborted": "{name} скасовує гру до першого ходу: без результату. q — вихід",
    "cand_confirm_resign": "Натисніть x ще раз, щоб здати матч (це поразка)",
    "lobby_empty": "порожнє",
    "discards": "скинуто",
    "hand": "рука",
    "hand_of": "Рука: {name}",
    "your_hand": "Ваша рука",
    "cards_count": "карт: {n}",
    "deal_score": "роздача {score}",
    "total": "разом {total}",
    "captures": "взятки",
    "no_captures": "взяток ще немає",
    "decision_deal": "{name}: роздайте руки — оберіть стопку (s h d c)",
    "decision_lobby": "{name}: відкрийте карту лобі — оберіть стопку (s h d c)",
    "decision_draw": "{name}: доберіть карту — оберіть стопку (s h d c)",
    "decision_play": "{name}: покладіть карти (1-5, потім Enter) або пас (p)",
    "decision_play_from_hand": "{name}: стопки порожні — почніть лобі з руки (1-5, Enter)",
    "thinking": "{name} думає…",
    "selected": "обрано: {cards} — Enter кладе, Esc знімає вибір",
    "hint": "Підказка: {move}",
    "hint_wait": "Шукаю підказку…",
    "hint_none": "Підказки немає: зараз не ваше рішення",
    "not_your_turn": "зараз не ваше рішення",
    "no_pile_now": "зараз не час обирати стопку: {what}",
    "no_card_now": "зараз не час обирати карти: {what}",
    "no_such_card": "у вашій руці немає карти {n} (карт: {count})",
    "nothing_selected": "спершу оберіть карти клавішами 1-5",
    "match_over_status": "Матч закінчено — {result}. q — вихід",
    "cand_pause": "Роздачу {deal} закінчено: роздача {next} за {seconds} с — Enter почне її зараз",
    "cand_paused_why": "наступна роздача ще не почалася (Enter почне її)",
    "cand_pause_holds": "Роздачу {deal} закінчено: перегляньте її, Enter почне роздачу {next}",
    "deal_over_title": "Роздачу {deal} з {deals} закінчено",
    "deal_over_seat": "{name}: {score} за роздачу, разом {total}",
    "deal_over_none": "взяток немає",
    "deal_over_next": "Enter — почати роздачу {next} · ? r l q — довідка, правила, мова, вихід",
    "deal_over_last": "Матч закінчено: {result}. Enter закриває це вікно, потім q — вихід.",
    "help_deal_over": """Роздачу закінчено — клавіші

Enter        закрити це вікно й почати наступну роздачу (стіл
             чекає на вас; після останньої — результат матчу)
? r l q      довідка, правила, мова, вихід

Взятки й очки роздачі лишаються тут, доки ви не продовжите.""",
    "winner": "перемагає {name} {a}:{b}",
    "you_win": "ви перемагаєте {a}:{b}",
    "draw_result": "нічия {a}:{b}",
    "keys_candidate": "1-5 карта  Enter класти  Esc зняти  p пас  s h d c стопка  t підказка",
    "handoff_title": "Передайте клавіатуру",
    "handoff_why": "натисніть Enter, коли клавіатура в {name}",
    "handoff_body": "Передайте клавіатуру: {name}.\n\n{other}, не дивіться.\n\n"
    "{name}: натисніть Enter, щоб побачити свою руку.",
    "ev_dealt": "{name}: роздача зі стопки {pile}",
    "ev_received": "{name}: отримано {cards}",
    "ev_received_hidden": "{name}: отримано п'ять карт",
    "ev_lobby_turned": "{name}: у лобі відкрито {cards} зі стопки {pile}",
    "ev_played": "{name}: покладено {cards}",
    "ev_passed": "{name}: пас",
    "ev_trick_taken": "{name}: взятка {cards}, очок: {score}",
    "ev_lobby_discarded": "на {cards} ніхто не поклав: карту скинуто",
    "ev_drew": "{name}: добір {cards} зі стопки {pile}",
    "ev_drew_hidden": "{name}: добір зі стопки {pile}",
    "ev_deal_ended": "Роздачу закінчено: {scores}; разом {totals}",
    "ev_match_ended": "Матч закінчено: разом {totals}",
    "help_candidate": """Кандидат — клавіші

1 … 5        обрати карту з руки (ще раз — зняти вибір); карти
             кладуться за старшинством
Enter        покласти обрані карти в лобі; після роздачі — почати
             наступну, не чекаючи відліку
Esc          зняти вибір
p            пас
s h d c      обрати стопку (♠ ♥ ♦ ♣): роздати, відкрити лобі, добрати
t            підказка: що зробив би бот на вашому місці
u            повернути свій останній хід і відповідь бота (проти ботів)
a            скасувати гру (до вашого першого ходу: без результату)
x x          здати матч (x двічі)
r            правила (C1…C17)
l            мова: English / українська
?            ця довідка
q            вихід (запис гри зберігає --save FILE)

Рядок стану каже, чиє рішення і яке; клавіша, що зараз нічого не
означає, пояснює там чому. Літери працюють і в українській розкладці
(та сама клавіша): і р в с — стопки, з — пас, е — підказка, й — вихід.""",
    "help_handoff": """Передайте клавіатуру — клавіші

Enter        показати руку гравця, названого на екрані
? r l q      довідка, правила, мова, вихід

Рука лишається прихованою, доки потрібний гравець не натисне Enter.""",
    "spy_title": "Шпигун проти шпигуна · раунд {round} з {rounds}",
    "spy_your_total": "ваш рахунок {total} (менший — кращий)",
    "spy_others_head": "очк вер │ стопки                  │ відбій кол ходи разом",
    "spy_title_over": "Шпигун проти шпигуна · матч закінчено",
    "points": "очки",
    "moves": "# хід|# ходи|# ходів",
    "racing": "у грі",
    "called": "ЗАКІНЧИВ",
    "blocked": "заблоковано",
    "resigned": "поза раундом",
    "pile_n": "стопка {n}",
    "new_pile": "нова",
    "your_table": "Ваш стіл",
    "others": "Інші гравці",
    "spy_status": "1-6 — класти на стопку, пробіл — нова карта, c — «закінчив» (без очок)",
    "spy_status_blocked": "Ви заблоковані (S12): нічого не підійде. x x — здатися, або чекайте",
    "spy_status_resigned": "Ви вибули з цього раунду: інші змагаються далі",
    "spy_status_call": "Стопка очок порожня: кажіть «закінчив» (c)!",
    "spy_waste_prefix": "З відбою: оберіть стопку (1-6)",
    "spy_confirm_resign": "Натисніть x ще раз, щоб здатися в цьому раунді",
    "spy_no_pile": "стопки {n} немає: у вас {count}, наступна нова — {next}",
    "spy_no_more_piles": "стопки {n} немає: у вас уже всі шість стопок",
    "spy_pause": "Раунд {round} почнеться за {seconds} с: Enter — почати зараз",
    "spy_round_over_title": "Раунд {round} закінчено",
    "spy_round_winner": "Перше «закінчив» — {name}.",
    "spy_round_nobody": "Усі заблоковані або вибули: раунд без переможця.",
    "spy_round_scores": "Очки раунду: {scores}",
    "spy_totals": "Разом: {totals}",
    "spy_next_round": "Раунд {round} почнеться за {seconds} с. Enter — почати зараз.",
    "spy_match_over": "Матч закінчено. Переможець: {names}. Enter, потім q — вихід.",
    "keys_spy": "1-6 стопка  w 1-6 з відбою  пробіл карта  c закінчив  x x здатися",
    "ev_turn": "відкрито {card}",
    "ev_place": "{card} на стопку {pile}",
    "ev_open": "нова стопка {pile}: {card}",
    "ev_call": "ЗАКІНЧИВ",
    "ev_resign": "вибуває з раунду",
    "ev_blocked": "заблоковано",
    "help_spy": """Шпигун проти шпигуна — клавіші

1 … 6        покласти карту на стопку N: верх стопки очок, якщо
             підходить, інакше верх відбою; номер після останньої
             стопки відкриває нову (спершу картою з очок)
w, потім 1…6 покласти верх відбою на стопку N (або відкрити нею)
пробіл       відкрити карту з колоди на відбій
c            сказати «закінчив» (лише з порожньою стопкою очок)
x x          здатися в цьому раунді
r            правила (S1…S17)
l            мова: English / українська
?            ця довідка
q            вихід (запис гри зберігає --save FILE)

Карта підходить на стопку, верх якої на одне значення старший або
молодший; значення йдуть по колу: … Д К Т 2 3 …
В українській розкладці: ц (w), с (c), ч (x), к (r), д (l), й (q).""",
    "help_round_over": """Раунд закінчено — клавіші

Enter        до наступного раунду одразу, не чекаючи відліку
             (або закрити результат матчу)
? r l q      довідка, правила, мова, вихід

Ходи чекають наступного раунду: між раундами стіл робить паузу.""",
    "keys_rules": "Esc назад  ↑ ↓ PgUp PgDn гортати  ? довідка  l language: English  q вихід",
    "help_rules": """Правила — клавіші

↑ ↓ PgUp PgDn   гортати
Esc або r       назад до гри
l               мова: English / українська""",
    "help_help": "Esc або ? закриває довідку.",
}
_UK.update(_game_words("uk"))
