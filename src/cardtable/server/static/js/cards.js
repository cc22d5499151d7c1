// How a card looks: the vendored SVG face (static/cards/, a CC0 deck with court figures)
// under a corner index of our own — the rank as the player's language writes it (В Д К Т
// in Ukrainian) and the suit symbol, larger than the drawing's so a small card on a
// phone stays readable, and still there if an image fails to load. The card's name in
// words is its aria-label: the images are decoration for the eye.

import { h } from "./dom.js";
import { cardSpoken, rankText, splitCard, suitSymbol } from "./i18n.js";

const RED = new Set(["H", "D"]);
/** Where the vendored deck is served (static/cards/: the faces by record name, a back). */
export const DECK_URL = "/cards";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** The image of a card's face ("QS" → /cards/QS.svg) or, with no card, of the back. */
export function cardImage(text = null) {
  return `${DECK_URL}/${text ? text : "back"}.svg`;
}

/** An <img> of the deck: decoration only (the card element carries the name). */
function deckImage(src) {
  return h("img", { class: "cardimg", src, alt: "", draggable: "false", "aria-hidden": "true" });
}

/** The rank and suit in the corner, once at the top left and once upside down at the
 * bottom right, as on a printed card. */
function cornerIndex(rank, suit, where) {
  return h(
    "span",
    { class: `index ${where}`, "aria-hidden": "true" },
    h("span", { class: "rank" }, rankText(rank)),
    h("span", { class: "suit" }, suitSymbol(suit)),
  );
}

/** A face-up card. `tag` "button" makes it actionable; extra attributes pass through. */
export function cardFace(text, attrs = {}, tag = "span") {
  preloadDeck();
  const { rank, suit } = splitCard(text);
  const classes = ["card", "face", RED.has(suit) ? "red" : "black", `suit-${suit}`];
  if (attrs.class) classes.push(attrs.class);
  const role = tag === "span" ? { role: "img" } : {};
  return h(
    tag,
    { ...role, ...attrs, class: classes.join(" "), "aria-label": cardSpoken(text), title: cardSpoken(text) },
    deckImage(cardImage(text)),
    cornerIndex(rank, suit, "top"),
    cornerIndex(rank, suit, "bottom"),
  );
}

/** A face-down card (or a placeholder for an empty spot). */
export function cardBack(label, attrs = {}) {
  return h(
    "span",
    { role: "img", "aria-label": label, title: label, ...attrs, class: `card back ${attrs.class || ""}` },
    deckImage(cardImage()),
  );
}

export function emptySpot(label, attrs = {}, tag = "span") {
  const role = tag === "span" ? { role: "img" } : {};
  return h(tag, { ...role, "aria-label": label, ...attrs, class: `card empty ${attrs.class || ""}` }, "");
}

/** A row of face-up cards; a long row overlaps like a fan, each card's corner in view. */
export function cardRow(texts, label) {
  return h(
    "span",
    { class: "cardrow", role: "list", "aria-label": label },
    texts.map((c) => h("span", { role: "listitem" }, cardFace(c))),
  );
}

let preloaded = false;

/** Fetch the whole deck once a page, in the background, so that a card seen for the
 * first time in a race is drawn at once (the browser keeps the images cached). */
export function preloadDeck() {
  if (preloaded) return;
  preloaded = true;
  const urls = [cardImage()];
  for (const suit of "SHDC") for (const rank of RANKS) urls.push(cardImage(rank + suit));
  for (const url of urls) {
    const img = new Image();
    img.decoding = "async";
    img.src = url;
  }
}
