"""Cards that look like cards: the vendored SVG deck is served and drawn on every card,
each card still named in words in the player's language, and a card dragged to where
it goes is played as a click plays it — a Candidate card onto the lobby, a Spy card onto
a pile — with a mouse on a desktop and a finger on a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GUARD, WebServer, join_by_invite

from cardtable.cards import standard_deck
from cardtable.glossary import card_name
from cardtable.server.app import STATIC_DIR, create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DECK = STATIC_DIR / "cards"


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """Quick Candidate bots and slow Spy bots: our drags are made while the bots wait."""
    db = tmp_path_factory.mktemp("cardsweb") / "web.db"
    settings = Settings(
        pacing=Pacing(
            level_speeds={"easy": 0.25, "medium": 0.25, "hard": 0.25},
            turn_delay=0.05,
            segment_pause=0.0,
            start_count=0.0,
        ),
        bot_processes=0,
        keep_finished_seconds=60.0,
        allow_client_seeds=True,  # known deals (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


def test_the_deck_is_vendored_with_its_licence_and_served(web_server: WebServer) -> None:
    """Every card of a 52-card deck (all that Candidate and Spy use) and the back are
    files of the package, with the deck's licence and source, served as SVG."""
    names = [f"{card}.svg" for card in standard_deck()]
    assert len(names) == 52
    assert sorted(p.name for p in DECK.glob("*.svg")) == sorted([*names, "back.svg"])
    assert "CC0 1.0 Universal" in (DECK / "LICENSE").read_text(encoding="utf-8")
    readme = (DECK / "README.md").read_text(encoding="utf-8")
    assert "@letele/playing-cards" in readme
    assert "0.1.0" in readme
    for name in ("QS.svg", "10H.svg", "back.svg"):
        response = httpx.get(f"{web_server.base}/cards/{name}")
        assert response.status_code == 200, name
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert response.text.lstrip().startswith("<?xml")
        assert "<svg" in response.text
    assert httpx.get(f"{web_server.base}/cards/1X.svg").status_code == 404


def open_page(browser: Any, *, lang: str, phone: bool) -> Any:
    """A page in ``lang`` that records page errors and every failed request."""
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone
    )
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on(
        "response",
        lambda r: page.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    return page


def sit_down(base: str, page: Any, game: str, options: dict[str, Any], seed: int) -> None:
    """Ann at a new table against bots (easy), by her invite link."""
    bots = [{"type": "bot", "level": "easy"}] * (2 if game == "spy" else 1)
    body = {
        "game": game,
        "options": options,
        "seats": [{"type": "open"}, *bots],
        "seed": seed,
        "rated": False,  # a known deal is never rated
    }
    created = httpx.post(base + "/api/tables", json=body).json()
    join_by_invite(page, base, created["invites"][0]["link"], "Ann")
    page.wait_for_selector(f".board.{game}")


def version(page: Any) -> int:
    return int(page.get_attribute("#main", "data-version") or -1)


def moved_past(page: Any, before: int) -> None:
    """Until the table's version is past ``before`` (a move was made and answered)."""
    page.wait_for_function(
        "v => Number(document.querySelector('#main').dataset.version) > v", arg=before
    )


def legal(page: Any, game: str) -> list[str]:
    return list(json.loads(page.get_attribute(f".board.{game}", "data-legal") or "[]"))


def images_loaded(page: Any) -> int:
    """How many card images the page shows, once every one has loaded; each has a size."""
    page.wait_for_function("[...document.images].every((img) => img.complete)")
    sizes = page.eval_on_selector_all(".card img", "imgs => imgs.map(i => i.naturalWidth)")
    assert sizes
    assert all(width > 0 for width in sizes), sizes
    return len(sizes)


def drag(
    page: Any, source: str, target: str, *, touch: bool = False, shot: Path | None = None
) -> None:
    """Press on ``source``, move in steps onto ``target`` and release, as a hand does
    (both in view: the source at the bottom of the screen, the target above it) — with
    the mouse, or with a finger on a touch screen (the browser's own touch events);
    ``shot``: a screenshot just before the release."""
    page.eval_on_selector(source, "el => el.scrollIntoView({block: 'end'})")
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    assert start is not None
    assert end is not None
    assert end["y"] >= 0, end
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 3
    to_x, to_y = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    # Under the drag threshold first (still a press), then on to the target.
    path = [(x + 4, y - 4)] + [
        (x + (to_x - x) * k / 6, y + (to_y - y) * k / 6) for k in range(1, 7)
    ]
    if touch:
        cdp = page.context.new_cdp_session(page)

        def finger(kind: str, at: tuple[float, float] | None) -> None:
            points = [{"x": at[0], "y": at[1]}] if at else []
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        finger("touchStart", (x, y))
        for point in path:
            finger("touchMove", point)
        assert page.locator(".dragghost").count() == 1  # the card follows the finger
        if shot:
            page.screenshot(path=str(shot))
        finger("touchEnd", None)
        cdp.detach()
        return
    page.mouse.move(x, y)
    page.mouse.down()
    for point in path:
        page.mouse.move(*point)
    assert page.locator(".dragghost").count() == 1  # the card follows the pointer
    if shot:
        page.screenshot(path=str(shot))
    page.mouse.up()


def single_card_play(page: Any) -> str:
    """Play on (by the wire, the fast way) until a one-card play is legal; that card."""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while True:
        assert time.monotonic() < deadline, "no one-card play came in time"
        page.wait_for_function(
            "() => JSON.parse(document.querySelector('.board.candidate').dataset.legal"
            " || '[]').length > 0"
        )
        moves = legal(page, "candidate")
        singles = [m for m in moves if m.startswith("play ") and len(m.split()) == 2]
        if singles:
            return singles[0].split()[1]
        before = version(page)
        move = next((m for m in moves if not m.startswith("play")), moves[0])
        page.evaluate(f"window.cardtableConnection.move({json.dumps(move)})")
        moved_past(page, before)


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("uk", True)])
def test_candidate_card_dragged_onto_the_lobby_is_played(
    web_server: WebServer, browser: Any, shots: Path, lang: str, phone: bool
) -> None:
    page = open_page(browser, lang=lang, phone=phone)
    sit_down(web_server.base, page, "candidate", {"deals": 1}, seed=21)
    card = single_card_play(page)
    button = f".hand.mine button[data-card='{card}']"
    page.wait_for_selector(f"{button}.playable")

    # Every card is drawn from the deck, named in words in the player's language.
    assert images_loaded(page) >= 5
    labels = page.eval_on_selector_all(
        ".hand.mine .card", "els => els.map(e => [e.dataset.card, e.ariaLabel])"
    )
    assert labels
    for text, label in labels:
        assert label == card_name(text, lang)
    assert page.locator(".hand.mine .card .index.top .rank").count() == len(labels)
    assert page.locator(".piles .pile").count() == 4  # the face-down piles show the back

    # A press that hardly moves is a click: the card is chosen, nothing is played.
    page.eval_on_selector(button, "el => el.scrollIntoView({block: 'end'})")
    box = page.locator(button).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 2, box["y"] + box["height"] / 2)
    page.mouse.up()
    page.wait_for_selector(f"{button}.chosen")
    page.click(button)  # chosen again: no longer chosen
    page.wait_for_selector(f"{button}:not(.chosen)")

    before = version(page)
    drag(page, button, ".lobby", touch=phone, shot=shots / f"cards-dragging-{lang}.png")
    moved_past(page, before)
    page.wait_for_selector(f".lobby .card[data-card='{card}']")
    assert page.locator(".dragghost").count() == 0
    played = page.get_attribute(f".lobby .card[data-card='{card}']", "aria-label")
    assert played == card_name(card, lang)
    words = "plays" if lang == "en" else "грає"
    assert words in page.inner_text(".movelist")
    images_loaded(page)
    page.screenshot(path=str(shots / f"cards-candidate-dragged-{lang}.png"))
    assert page.errors == []
    page.context.close()


def race_over(base: str, page: Any) -> bool:
    """Whether the page's race has ended (the server's word: the two easy bots may end a
    one-round race before a slow browser on a busy machine has placed its card)."""
    table = page.url.split("/play/")[1].split("?")[0]
    return bool(httpx.get(f"{base}/api/tables/{table}").json()["status"] == "finished")


def place_by_drag(base: str, page: Any, seed: int, shots: Path) -> bool:
    """At a new one-round race (``seed``), drag a card the player may place onto its
    pile and check it lands; False when the bots ended the race first."""
    sit_down(base, page, "spy", {"rounds": 1}, seed=seed)
    page.wait_for_selector(".board.spy .spyseat")
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while True:
        assert time.monotonic() < deadline, "no card to place came in time"
        if race_over(base, page):
            return False
        moves = legal(page, "spy")
        places = sorted(m for m in moves if m.startswith("place "))
        if places:
            break
        if "turn" not in moves:
            # Wait for the table itself: a placement or a turn among the legal moves,
            # or the race's end.
            page.wait_for_function(
                "() => JSON.parse(document.querySelector('.board.spy').dataset.legal || '[]')"
                ".some((m) => m.startsWith('place ') || m === 'turn')"
                " || !document.querySelector('section.result').hidden"
            )
            continue
        before = version(page)
        page.keyboard.press("t")
        moved_past(page, before)
    _, source, pile = places[0].split()
    where = "points pile" if source == "points" else "waste"
    label = page.get_attribute(f"button[data-source='{source}']", "aria-label") or ""
    card = label.split(": ")[1].split(",")[0]  # "Waste: 7 of clubs, 12 cards left"
    assert card.count(" of ") == 1, label
    assert images_loaded(page) >= 7
    try:
        drag(page, f"button[data-source='{source}']", f"button[data-pile='{pile}']")
    except AssertionError:
        if race_over(base, page):  # the source went with the race
            return False
        raise
    page.wait_for_function(
        "([pile, card]) => (document.querySelector(`button[data-pile='${pile}']`)"
        "?.ariaLabel || '').includes(card) || !document.querySelector('section.result').hidden",
        arg=[pile, card],
    )
    if f"from the {where} on pile {pile}" not in page.inner_text(".movelist"):
        assert race_over(base, page), "the dragged card was not placed"
        return False
    page.screenshot(path=str(shots / "cards-spy-dragged.png"), full_page=True)
    return True


def test_spy_card_dragged_onto_a_pile_is_placed(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    """A card dragged onto a pile is placed. Should the bots end the race first, a new
    race is dealt (at most three)."""
    for seed in (7, 8, 9):
        page = open_page(browser, lang="en", phone=False)
        placed = place_by_drag(web_server.base, page, seed, shots)
        if placed:
            assert page.errors == []
        page.context.close()
        if placed:
            return
    pytest.fail("the bots ended three races before a card could be dragged")
