// The move list: every move of a match in words, in the player's language and the
// game's notation (cards as the table shows them: В Д К Т in Ukrainian), as an ARIA
// role="log" region. One module for the live tables and the replay viewer.
//
//   const list = new MoveList({ game: "candidate", names: ["Ann", "Bob"] });
//   someContainer.append(list.el);   // <section class="movelist"> holding an <ol role="log">
//   list.reset(entries);             // the whole list again (a welcome's history, a replay)
//   list.add(entry);                 // one move as it happens (an update's event)
//   list.mark(i);                    // highlight entry i (the replay's current step), -1: none
//   describeMove(game, entry, names) // one move as a sentence (the replay's caption)
//
// An entry is {seat, move, source?, events?, time?}: the mover, the move in record
// notation (docs/records.md; Spy moves may keep their "P " prefix), who made it
// ("player", "bot", "substitute", "clock"), the engine's events of the move as this
// player may see them (captures, a card drawn by this player, the end of a deal or
// round), and for a race the seconds into the round when it was made.

import { h } from "./dom.js";
import { cardText, suitSymbol, t } from "./i18n.js";

const cards = (list) => list.map(cardText).join(" ");

function scoresText(names, scores) {
  return scores.map((s, i) => `${names[i]} ${s}`).join(", ");
}

/** "m:ss" for a number of seconds. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function candidateMove(entry, name) {
  const [word, ...rest] = entry.move.split(" ");
  const events = entry.events || [];
  const seen = (type) => events.find((e) => e.type === type && e.cards && e.cards.length);
  const suit = rest[0] ? suitSymbol(rest[0]) : "";
  switch (word) {
    case "deal":
      return t("mv_deal", { name, suit });
    case "lobby": {
      const turned = seen("lobby_turned");
      return turned ? t("mv_lobbyCard", { name, suit, card: cardText(turned.cards[0]) }) : t("mv_lobby", { name, suit });
    }
    case "play":
      return t("mv_play", { name, cards: cards(rest) });
    case "pass":
      return t("mv_pass", { name });
    case "draw": {
      const drawn = seen("drew");
      return drawn ? t("mv_drawCard", { name, suit, card: cardText(drawn.cards[0]) }) : t("mv_draw", { name, suit });
    }
    default:
      return entry.move;
  }
}

function spyMove(entry, name) {
  const words = entry.move.replace(/^\d+ /, "").split(" ");
  const events = entry.events || [];
  const shown = events.find((e) => e.card && ["turn", "place", "open"].includes(e.type));
  const card = shown ? cardText(shown.card) : null;
  const source = words[1] ? t(`src_${words[1]}`) : "";
  switch (words[0]) {
    case "turn":
      return card ? t("mv_turn", { name, card }) : t("mv_turnBare", { name });
    case "place":
      return card ? t("mv_place", { name, card, source, pile: words[2] }) : t("mv_placeBare", { name, source, pile: words[2] });
    case "open":
      return card ? t("mv_open", { name, card, source }) : t("mv_openBare", { name, source });
    case "call":
      return t("mv_call", { name });
    case "resign":
      return t("mv_resign", { name });
    default:
      return entry.move;
  }
}

/** One move as a sentence in the player's language ("Ann plays 10♥ В♥"). */
export function describeMove(game, entry, names) {
  const name = names[entry.seat] ?? t("seat", { n: entry.seat + 1 });
  let text = game === "candidate" ? candidateMove(entry, name) : spyMove(entry, name);
  if (entry.source === "clock") text += ` (${t("by_clock")})`;
  else if (entry.source === "substitute") text += ` (${t("by_substitute")})`;
  return text;
}

/** What else the move made happen, as sentences: captures, a discard, a deal's end. */
export function describeEvents(game, entry, names) {
  const lines = [];
  for (const e of entry.events || []) {
    if (e.type === "trick_taken") lines.push(t("mv_took", { name: names[e.player], cards: cards(e.cards), n: e.score }));
    else if (e.type === "lobby_discarded") lines.push(t("mv_discarded", { card: cardText(e.cards[0]) }));
    else if (e.type === "deal_ended") lines.push(t("mv_dealEnded", { scores: scoresText(names, e.scores) }));
    else if (e.type === "round_end") lines.push(t("mv_roundEnded", { k: e.round, scores: scoresText(names, e.scores) }));
  }
  return lines;
}

export class MoveList {
  constructor({ game, names }) {
    this.game = game;
    this.names = names;
    this.count = 0;
    this.segment = 0; // deals (Candidate) or rounds (Spy) begun so far
    this.items = []; // the <li> of each entry, by index
    // Focusable, so the keyboard can scroll a long list.
    this.log = h("ol", { class: "moves", role: "log", "aria-live": "polite", "aria-label": t("moveList"), tabindex: "0" });
    this.empty = h("p", { class: "none" }, t("noMoves"));
    this.el = h("section", { class: "movelist", "aria-label": t("moveList") }, h("h3", {}, t("moveList")), this.empty, this.log);
  }

  setNames(names) {
    this.names = names;
  }

  reset(entries) {
    this.log.replaceChildren();
    this.items = [];
    this.count = 0;
    this.segment = 0;
    // The whole history at once is not news: the log is quiet while it is rebuilt.
    this.log.setAttribute("aria-live", "off");
    for (const entry of entries) this.add(entry, false);
    this.log.setAttribute("aria-live", "polite");
    this.scrollToEnd();
  }

  heading(text) {
    this.log.append(h("li", { class: "segment", "aria-hidden": "true" }, text));
  }

  add(entry, scroll = true) {
    const firstOfDeal = this.game === "candidate" && entry.move.startsWith("deal ");
    if (firstOfDeal || (this.game !== "candidate" && this.segment === 0)) {
      this.segment += 1;
      this.heading(t(this.game === "candidate" ? "dealHeading" : "roundHeading", { k: this.segment }));
    }
    this.count += 1;
    const time = typeof entry.time === "number" ? h("span", { class: "movetime" }, clockText(entry.time)) : null;
    const extra = describeEvents(this.game, entry, this.names);
    const item = h(
      "li",
      { class: `move ${entry.source && entry.source !== "player" ? `by-${entry.source}` : ""}`, "data-index": this.items.length },
      h("span", { class: "moveno", "aria-hidden": "true" }, `${this.count}.`),
      time ? [time, " "] : null, // a space, so the time and the words are read apart
      h("span", { class: "movetext" }, describeMove(this.game, entry, this.names)),
      extra.map((line) => h("span", { class: "moveevent" }, line)),
    );
    this.items.push(item);
    this.log.append(item);
    if (this.game !== "candidate" && (entry.events || []).some((e) => e.type === "round_end" && e.round)) {
      const ended = entry.events.find((e) => e.type === "round_end");
      if (!(entry.events || []).some((e) => e.type === "match_end")) {
        this.segment = ended.round + 1;
        this.heading(t("roundHeading", { k: this.segment }));
      }
    }
    for (const old of this.log.querySelectorAll(".move.last")) old.classList.remove("last");
    item.classList.add("last");
    this.empty.hidden = true;
    if (scroll) this.scrollToEnd();
  }

  mark(index) {
    for (const old of this.log.querySelectorAll(".move.last, .move.current")) old.classList.remove("last", "current");
    const item = this.items[index];
    if (!item) return;
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    for (const other of this.items) if (other !== item) other.removeAttribute("aria-current");
    const box = this.log;
    if (item.offsetTop < box.scrollTop || item.offsetTop > box.scrollTop + box.clientHeight - item.offsetHeight) {
      box.scrollTop = item.offsetTop - box.clientHeight / 2;
    }
  }

  scrollToEnd() {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
