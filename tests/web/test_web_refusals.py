"""Refusals in the player's language: a Ukrainian player's illegal moves are refused in
Ukrainian, and the client says every message id exactly as the engine does."""

from __future__ import annotations

import itertools
import re
from typing import Any

import httpx
from web_helpers import WebServer, create_table, join_by_invite

from cardtable.messages import CATALOG, LANGS, param_content, placeholders, say

#: Sample values for each parameter content (docs in cardtable/messages.py).
SAMPLES: dict[str, list[Any]] = {
    "card": ["QS", "10H", "AD", "8C"],
    "cards": ["2S 7S", "JD QH KC AS", "9H"],
    "rank": ["J", "8", "A", "10"],
    "ranks": ["9-10-J", "Q-K-A", "2-3"],
    "suit": ["S", "H", "D", "C"],
    "term": ["term.spade", "term.json_string", "term.half_deck"],
    "text": ["ZZ", 3, "it's", 'a "b"', "tab\there"],
}
NUMBERS = [0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 111]


def plural_names(template: str) -> set[str]:
    import string

    return {name for _, name, spec, _ in string.Formatter().parse(template) if name and "|" in spec}


def samples(code: str) -> list[dict[str, Any]]:
    """Parameter sets for ``code``: every sample of each content in turn, numbers for the
    parameters that choose a plural form."""
    names = sorted(placeholders(CATALOG[code]["en"]))
    numeric = set().union(*(plural_names(CATALOG[code][lang]) for lang in LANGS))
    out = []
    for i in range(len(NUMBERS)):
        out.append(
            {
                name: NUMBERS[i]
                if name in numeric
                else SAMPLES[param_content(name)][i % len(SAMPLES[param_content(name)])]
                for name in names
            }
        )
    return out


def test_the_client_says_every_message_as_the_engine_does(
    web_server: WebServer, browser: Any
) -> None:
    cases = [
        {"code": code, "lang": lang, "params": params}
        for code, lang in itertools.product(CATALOG, LANGS)
        for params in samples(code)
    ]
    page = browser.new_page()
    page.goto(web_server.base + "/")
    said = page.evaluate(
        """async (cases) => {
            const m = await import("/js/messages.js");
            const out = [];
            for (const c of cases) {
                out.push(m.renderMessage(await m.loadMessages(c.lang), c.code, c.params));
            }
            return out;
        }""",
        cases,
    )
    expected = [say(c["code"], c["params"], c["lang"]) for c in cases]
    mismatched = [
        (c["code"], c["lang"], js, py)
        for c, js, py in zip(cases, said, expected, strict=True)
        if js != py
    ]
    assert mismatched == []
    assert len(cases) > 2 * len(CATALOG)
    page.close()


def test_the_server_serves_the_catalog_in_each_language(web_server: WebServer) -> None:
    uk = httpx.get(web_server.base + "/api/messages?lang=uk").json()
    assert uk["messages"]["spy.match_over"] == "матч закінчено"
    assert set(uk["messages"]) == set(CATALOG)
    assert uk["ranks"]["A"] == "Т"
    assert uk["suits"]["H"] == "♥"
    en = httpx.get(web_server.base + "/api/messages?lang=en").json()
    assert en["messages"]["spy.match_over"] == "the match is over"
    assert en["ranks"]["A"] == "A"
    assert en["suits"]["H"] == "♥"  # cards as the table draws them, not as records write them
    assert httpx.get(web_server.base + "/api/messages?lang=fr").status_code == 422


def refusal_toast(page: Any, move: str) -> str:
    page.evaluate("move => window.cardtableConnection.move(move)", move)
    page.wait_for_selector(".toast.error:not([hidden])")
    text = str(page.inner_text("#toast"))
    page.evaluate("document.querySelector('#toast').hidden = true")
    return text


def test_a_ukrainian_player_is_refused_in_ukrainian(web_server: WebServer, browser: Any) -> None:
    """S10 and C7 in the browser: with the client in Ukrainian, the engine's refusals
    read in Ukrainian, cards written the Ukrainian way."""
    base = web_server.base
    context = browser.new_context(locale="uk-UA")
    page = context.new_page()

    spy = create_table(
        base, "spy", {"rounds": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}], seed=7
    )
    join_by_invite(page, base, spy["invites"][0]["link"], "Оксана")
    page.wait_for_selector(".board.spy")
    page.wait_for_function("() => window.cardtableConnection.ready")
    text = refusal_toast(page, "call")
    assert text == (
        "Такий хід не дозволено: в очковій стопці ще 5 карт: "
        "«закінчив» оголошують, лише коли вона порожня"
    )
    text = refusal_toast(page, "place points 7")
    assert text == "Такий хід не дозволено: стопки 7 немає: стопки мають номери від 1 до 6"

    candidate = create_table(
        base, "candidate", {"deals": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}]
    )
    join_by_invite(page, base, candidate["invites"][0]["link"], "Оксана")
    page.wait_for_selector(".board.candidate")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('.board.candidate').dataset.legal || '[]')"
        ".length > 0"
    )
    text = refusal_toast(page, "play 2S 7S")
    assert text == (
        "Такий хід не дозволено: 2♠ 7♠ — не послідовність: після 2♠ йде 3 (сходинки) або 2 (набір)"
    )
    text = refusal_toast(page, "play QS 9D")
    assert text == (
        "Такий хід не дозволено: Д♠ 9♦ — не послідовність: після Д♠ йде К (сходинки) або Д (набір)"
    )
    assert "not" not in text

    # A move that does not answer the decision (the rules, C3-C12), said in Ukrainian.
    legal = page.evaluate("() => window.cardtableConnection.state.legal_moves")
    decision = "play" if legal[0].split()[0] in ("play", "pass") else legal[0].split()[0]
    text = refusal_toast(page, "deal S" if decision == "play" else "pass")
    wanted = say("candidate.wrong_decision", {"wanted_term": f"term.decision_{decision}"}, "uk")
    assert text == f"Такий хід не дозволено: {wanted}"
    assert text.startswith("Такий хід не дозволено: зараз не час для цього: гравець, що ходить")
    context.close()


def test_an_english_player_reads_cards_as_the_table_shows_them(
    web_server: WebServer, browser: Any
) -> None:
    """S10 and C7 in English: a refusal writes cards with suit symbols (``Q♠``), as the
    table draws them, never as a record's codes (``QS``)."""
    base = web_server.base
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    candidate = create_table(
        base, "candidate", {"deals": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}]
    )
    join_by_invite(page, base, candidate["invites"][0]["link"], "Olena")
    page.wait_for_selector(".board.candidate")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('.board.candidate').dataset.legal || '[]')"
        ".length > 0"
    )
    text = refusal_toast(page, "play QS 9D")
    assert text == (
        "That move is not allowed: Q♠ 9♦ is not a sequence: after Q♠ comes a K (a run) "
        "or a Q (a set)"
    )

    spy = create_table(
        base, "spy", {"rounds": 1}, [{"type": "open"}, {"type": "bot", "level": "easy"}], seed=7
    )
    join_by_invite(page, base, spy["invites"][0]["link"], "Olena")
    page.wait_for_selector(".board.spy")
    page.wait_for_function("() => window.cardtableConnection.ready")
    state = page.evaluate("() => window.cardtableConnection.state")
    codes = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")
    said = [
        refusal_toast(page, move)
        for move in (f"place points {pile}" for pile in range(1, 7))
        if move not in state["legal_moves"]
    ]
    assert any(symbol in text for text in said for symbol in "♠♥♦♣"), said
    assert [text for text in said if codes.search(text)] == []
    context.close()
