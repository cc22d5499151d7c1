// How a card looks: its rank (Ukrainian letters in Ukrainian) and a suit symbol whose
// shape tells the suit; colour only helps (red/black plus a suit letter for the ear).

import { h } from "./dom.js";
import { cardSpoken, rankText, splitCard, suitSymbol } from "./i18n.js";

const RED = new Set(["H", "D"]);

/** A face-up card. `tag` "button" makes it actionable; extra attributes pass through. */
export function cardFace(text, attrs = {}, tag = "span") {
  const { rank, suit } = splitCard(text);
  const classes = ["card", RED.has(suit) ? "red" : "black", `suit-${suit}`];
  if (attrs.class) classes.push(attrs.class);
  const role = tag === "span" ? { role: "img" } : {};
  return h(
    tag,
    { ...role, ...attrs, class: classes.join(" "), "aria-label": cardSpoken(text), title: cardSpoken(text) },
    h("span", { class: "rank", "aria-hidden": "true" }, rankText(rank)),
    h("span", { class: "suit", "aria-hidden": "true" }, suitSymbol(suit)),
  );
}

/** A face-down card (or a placeholder for an empty spot). */
export function cardBack(label, attrs = {}) {
  return h("span", { role: "img", "aria-label": label, title: label, ...attrs, class: `card back ${attrs.class || ""}` });
}

export function emptySpot(label, attrs = {}, tag = "span") {
  const role = tag === "span" ? { role: "img" } : {};
  return h(tag, { ...role, "aria-label": label, ...attrs, class: `card empty ${attrs.class || ""}` }, "");
}

/** A row of face-up cards. */
export function cardRow(texts, label) {
  return h(
    "span",
    { class: "cardrow", role: "list", "aria-label": label },
    texts.map((c) => h("span", { role: "listitem" }, cardFace(c))),
  );
}
