// The Spy vs Spy table: your square and piles 5–6, points pile and racing deck, the
// other players' progress live. What may go where comes only from the legal moves.
// The server times the race: the 3-2-1 count before each round (state.count), the race
// time (state.race) and the pause between rounds with its account (state.pause.segment).
// Every move is in the move list (movelist.js) with its race time, rebuilt from a
// welcome's history after a reload; the last one is marked on the table, placements
// slide in (motion.js) and a card played or «finished» called is heard (sound.js).

import { api } from "./api.js";
import { cardBack, cardFace, emptySpot } from "./cards.js";
import { announce, h, replaceKeepingFocus, toast } from "./dom.js";
import { draggable } from "./drag.js";
import { cardSpoken, seatName, t } from "./i18n.js";
import { rectOf, slideFrom } from "./motion.js";
import { refusalText } from "./messages.js";
import { MoveList, clockText, describeMove } from "./movelist.js";
import { playSound } from "./sound.js";

/** The shortcuts by physical key (KeyboardEvent.code), so they work in any layout. */
const KEY_ACTIONS = [
  ["KeyP", "keyPoints"],
  ["KeyW", "keyWaste"],
  ["Digit1", "keyPiles"],
  ["KeyN", "keyNewPile"],
  ["KeyT", "keyTurn"],
  ["KeyC", "keyCall"],
  ["KeyH", "keyHint"],
  ["Escape", "keyCancel"],
];

/** What the player's layout types on each physical key: from the browser's layout map
 * where it offers one, and from every key the player presses. */
const layoutKeys = new Map();
if (navigator.keyboard && navigator.keyboard.getLayoutMap) {
  navigator.keyboard
    .getLayoutMap()
    .then((map) => map.forEach((key, code) => layoutKeys.has(code) || layoutKeys.set(code, key)))
    .catch(() => {});
}

/** A physical key as the player's layout shows it, with the Latin letter beside it
 * when they differ ("Й (Q)"): the shortcut list names keys the player can find. */
export function keyLabel(code) {
  if (code === "Escape") return "Esc";
  if (code === "Digit1") return "1–6";
  const latin = code.startsWith("Key") ? code.slice(3) : code;
  const typed = (layoutKeys.get(code) || latin).toUpperCase();
  return typed === latin ? latin : `${typed} (${latin})`;
}

export class SpyBoard {
  /**
   * `moveList` (a MoveList; the board makes its own when none is given) is told of
   * every move at the table as it comes: `moveList.add({ seat, move, source, events,
   * round, time })`, and given a welcome's whole history with `moveList.reset(entries)`.
   */
  constructor({ conn, tableId = null, token = null, moveList = null }) {
    this.conn = conn;
    this.tableId = tableId;
    this.token = token;
    this.moveList = moveList || new MoveList({ game: "spy", names: [] });
    this.lastMove = null; // {seat, move, source, events, time} of the move marked on the table
    this.motion = false; // the next draw slides the placed or turned card in
    this.state = null;
    this.source = null; // "points" | "waste" | null
    this.round = null;
    this.hint = null;
    this.received = performance.now(); // when this.state came (the server's times are as of then)
    this.counted = null; // the count number last said
    // The list stays in place while the table is redrawn (a race redraws many times a
    // second): its scroll position and the reader's place in it are kept.
    this.surface = h("div", { class: "spytable" });
    this.el = h("div", { class: "board spy", "aria-label": t("spy") }, this.surface, this.moveList.el);
    this.timer = setInterval(() => this.tick(), 200);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }

  update(state, message) {
    this.state = state;
    this.received = performance.now();
    if (state.view.round !== this.round || state.pause || state.count) {
      this.round = state.view.round;
      this.source = null;
      this.hint = null;
    }
    if (this.source && !this.sourcePlayable(this.source)) this.source = null;
    if (this.hint && !this.moves.has(this.hint)) this.hint = null;
    const event = message && message.type === "update" ? message.event : null;
    if (event && event.type === "go") {
      if (this.counted !== t("raceGo")) announce(t("raceGo")); // said once, by whichever comes first
      this.counted = null;
    }
    this.moveList.setNames(state.seats.map((s) => seatName(s)));
    this.motion = false;
    if (message && message.type === "welcome") {
      const history = message.history || [];
      this.moveList.reset(history);
      this.lastMove = history.at(-1) || null;
    } else if (message && message.type === "step") {
      this.lastMove = message.event || null; // the replay: the list is its own
      this.motion = Boolean(message.forward && message.event);
    } else if (event && event.type === "move") {
      // The server's race time of the move (the same a reloaded page gets in history).
      const time = typeof event.time === "number" ? event.time : this.raceSeconds();
      this.lastMove = { seat: event.seat, move: event.move, source: event.source, events: event.events || [], round: state.view.round, time };
      this.moveList.add(this.lastMove);
      this.motion = true;
      this.sounds(this.lastMove);
    }
    this.draw();
  }

  /** A card another player put on a pile is heard (your own you saw yourself);
   * «finished» called is the table's sound (table.js), for every player. */
  sounds(move) {
    const word = move.move.replace(/^\d+ /, "").split(" ")[0];
    if (move.seat !== this.state.seat && (word === "place" || word === "open")) playSound("card");
  }

  /** The last move, while the table still shows its round: not once the move ended a
   * round and the next one is dealt, nor during a count or a pause. */
  shownMove() {
    const move = this.lastMove;
    const state = this.state;
    if (!move || state.count || (state.pause && state.status !== "finished")) return null;
    const ended = (move.events || []).some((e) => e.type === "round_end");
    return ended && state.status !== "finished" ? null : move;
  }

  /** Where the last move put its card, as [seat, what]: "pile-N" or "waste". */
  lastSpot() {
    const move = this.shownMove();
    if (!move) return null;
    const words = move.move.replace(/^\d+ /, "").split(" ");
    if (words[0] === "turn") return [move.seat, "waste"];
    if (words[0] === "place") return [move.seat, `pile-${words[2]}`];
    if (words[0] === "open") {
      const seat = this.state.view.seats.find((s) => s.player === move.seat);
      return seat ? [move.seat, `pile-${seat.piles.length}`] : null;
    }
    return null;
  }

  /** Is `spot` of `player` where the last move's card landed? */
  isLast(player, spot) {
    const last = this.lastSpot();
    return Boolean(last) && last[0] === player && last[1] === spot;
  }

  /** Where the last move's card came from, before a redraw (its source or the deck). */
  motionStart() {
    if (!this.motion || !this.lastMove) return null;
    const words = this.lastMove.move.replace(/^\d+ /, "").split(" ");
    const seat = this.surface.querySelector(`[data-player='${this.lastMove.seat}']`);
    if (!seat) return null;
    if (words[0] === "turn") return rectOf(seat.querySelector("[data-from='deck']"));
    if (words[0] === "place" || words[0] === "open") return rectOf(seat.querySelector(`[data-from='${words[1]}']`));
    return null;
  }

  /** Seconds until the race starts (the server's count), or null when none runs. */
  countLeft() {
    const count = this.state && this.state.count;
    if (!count) return null;
    return Math.max(0, count.seconds - (performance.now() - this.received) / 1000);
  }

  /** The race time the server keeps, carried on locally while the race runs; once the
   * match is over, every round's together. */
  raceSeconds() {
    const state = this.state;
    if (!state || !state.race) return 0;
    if (state.status === "finished") return state.race.times.reduce((a, b) => a + b, 0);
    const running = state.status === "playing" && !state.pause && !state.count;
    return state.race.elapsed + (running ? (performance.now() - this.received) / 1000 : 0);
  }

  /** My legal moves without the seat number ("place waste 4"). */
  get moves() {
    if (this.state.seat === null || !this.conn.ready) return new Set();
    return new Set(this.state.legal_moves.map((m) => m.replace(/^\d+ /, "")));
  }

  sourcePlayable(source) {
    for (const m of this.moves) if (m.startsWith(`place ${source} `) || m === `open ${source}`) return true;
    return false;
  }

  send(move) {
    if (this.conn.move(move)) {
      this.source = null;
      announce(this.moveWords(move));
    }
  }

  pick(source) {
    if (!this.sourcePlayable(source)) return;
    this.source = this.source === source ? null : source;
    this.draw();
    if (this.source) announce(t("chosen", { what: t(source === "points" ? "pointsPile" : "waste") }));
  }

  /** Place the chosen card on pile n; with none chosen, the points card first. */
  placeOn(n, source = this.source) {
    const moves = this.moves;
    const order = source ? [source] : ["points", "waste"];
    for (const s of order) {
      if (moves.has(`place ${s} ${n}`)) {
        this.send(`place ${s} ${n}`);
        return true;
      }
    }
    return false;
  }

  openNew(source = this.source) {
    const moves = this.moves;
    const order = source ? [source] : ["points", "waste"];
    for (const s of order) {
      if (moves.has(`open ${s}`)) {
        this.send(`open ${s}`);
        return true;
      }
    }
    return false;
  }

  /** Say why a key or click did nothing, in the engine's words (the catalog's
   * refusal `messageId`), instead of ignoring it: only while this seat may move. */
  async explain(messageId, params = {}) {
    if (!this.moves.size) return;
    const said = await refusalText(messageId, params);
    if (said) toast(t("err_illegal", { detail: said }), "error", 3000);
  }

  /** A move of this seat in the player's words, as the move list says it ("Ann puts
   * 9♠ from the points pile on pile 4", not the record's "place points 4"), the card
   * read from this seat's side of the table: for the hint and the screen reader. */
  moveWords(move) {
    const seat = this.mySeat();
    const [kind, source] = move.split(" ");
    const card = seat && (source === "points" ? seat.points_top : source === "waste" ? seat.waste_top : null);
    const events = card && (kind === "place" || kind === "open") ? [{ type: kind, card }] : [];
    const names = this.state.seats.map((s) => seatName(s));
    return describeMove("spy", { seat: this.state.seat, move: `${this.state.seat} ${move}`, events }, names);
  }

  mySeat() {
    return this.state.view.seats.find((s) => s.player === this.state.seat) || null;
  }

  /** Pile n, by key or click: place the card, or say why it cannot go there (S6). */
  placeOrExplain(n, source = this.source) {
    if (this.placeOn(n, source)) return;
    const seat = this.mySeat();
    if (!seat) return;
    if (n > seat.piles.length) {
      this.explain("spy.no_pile", { pile: n, count: seat.piles.length });
      return;
    }
    const from = source || (seat.points_top ? "points" : "waste");
    const card = from === "points" ? seat.points_top : seat.waste_top;
    if (!card) this.explain(from === "points" ? "spy.points_empty" : "spy.waste_empty");
    else this.explain("spy.no_fit", { card, pile: n, top_card: seat.piles[n - 1].top });
  }

  /** Shortcuts by physical key (event.code): the same keys in an English or a
   * Ukrainian layout. What the layout typed is remembered for the shortcut list. */
  key(event) {
    if (!this.state || this.state.seat === null) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const code = event.code || "";
    if (code.startsWith("Key") && event.key && event.key.length === 1 && layoutKeys.get(code) !== event.key.toLowerCase()) {
      layoutKeys.set(code, event.key.toLowerCase());
      const list = this.el.querySelector(".shortcuts");
      if (list) list.replaceWith(this.shortcuts());
    }
    const digit = /^(Digit|Numpad)([1-6])$/.exec(code);
    if (this.state.count && (digit || /^(Key[PWNOTC]|Space)$/.test(code))) {
      // The race has not started: say so rather than doing nothing (S17).
      toast(t("err_counting"), "info", 1500);
      event.preventDefault();
      return;
    }
    // A key that can do nothing now says why (the engine's reason), as in the terminal.
    const seat = this.mySeat();
    let done = true;
    if (code === "KeyP") {
      if (seat && !seat.points_top) this.explain("spy.points_empty");
      else this.pick("points");
    } else if (code === "KeyW") {
      if (seat && !seat.waste_top) this.explain("spy.waste_empty");
      else this.pick("waste");
    } else if (digit) this.placeOrExplain(Number(digit[2]));
    else if (code === "KeyN" || code === "KeyO") {
      if (!this.openNew() && seat && seat.piles.length >= 6) this.explain("spy.all_piles_open", { max: 6 });
    } else if (code === "Space" || code === "KeyT") {
      if (target && target.tagName === "BUTTON" && code === "Space") return; // let Space press the focused button
      if (this.moves.has("turn")) this.send("turn");
      else this.explain("spy.nothing_to_turn");
    } else if (code === "KeyC") {
      if (this.moves.has("call")) this.send("call");
      else if (seat && seat.points_count) this.explain("spy.call_too_early", { count: seat.points_count });
    } else if (code === "KeyH" && this.state.hints) this.askHint();
    else if (code === "Escape") {
      this.source = null;
      this.draw();
    } else done = false;
    if (done) event.preventDefault();
  }

  /** The shortcut list, each key as the player's layout shows it. */
  shortcuts() {
    const items = KEY_ACTIONS.filter(([code]) => code !== "KeyH" || this.state?.hints).map(([code, what]) => `${code === "KeyT" ? `${t("keySpace")} / ` : ""}${keyLabel(code)} ${t(what)}`);
    return h("p", { class: "shortcuts" }, `${t("keysAre")} ${items.join(" · ")}`);
  }

  /** The strongest bot's move for this seat now (the server's /hint serves both games). */
  async askHint() {
    if (!this.tableId || !this.token || !this.moves.size) return;
    try {
      const answer = await api.hint(this.tableId, this.token);
      const move = answer.move ? answer.move.replace(/^\d+ /, "") : null;
      this.hint = move && this.moves.has(move) ? move : null;
      this.draw();
      announce(this.hint ? t("hintIs", { move: this.moveWords(this.hint) }) : t("noHint"));
    } catch (err) {
      toast(t("err_generic", { detail: err.message }));
    }
  }

  /** The round just over, for the pause before the next one (table.js shows it): the
   * server's account — who called «finished» or how it was blocked, scores, totals. */
  lastSegment(state) {
    const segment = state.pause && state.pause.segment;
    if (!segment) return null;
    const names = state.seats.map((s) => seatName(s));
    const how =
      segment.ending === "called" ? t("endedCalled", { name: names[segment.ended_by] }) : t(`ended_${segment.ending}`);
    const time = state.race ? ` ${t("raceTook", { time: clockText(state.race.elapsed) })}` : "";
    return {
      heading: t("roundOver", { k: segment.number }),
      scores: segment.scores,
      totals: segment.totals,
      note: `${how}.${time}`,
      next: (s) => t("nextRoundIn", { s }),
    };
  }

  tick() {
    if (!this.state) return;
    const el = this.el.querySelector(".racetime");
    if (el) el.textContent = `${this.raceLabel()}: ${clockText(this.raceSeconds())}`;
    const count = this.el.querySelector(".startcount");
    const left = this.countLeft();
    if (count && left !== null) {
      const n = Math.ceil(left);
      const text = n > 0 ? String(n) : t("raceGo");
      if (count.firstChild.textContent !== text) {
        count.firstChild.textContent = text;
        if (this.counted !== text) announce(text);
        this.counted = text;
      }
    }
  }

  raceLabel() {
    return t(this.state.status === "finished" ? "raceTimeAll" : "raceTime");
  }

  /** The 3-2-1 count before the race: one big number, the same for every player. */
  startCount() {
    const left = this.countLeft();
    if (left === null) return null;
    const n = Math.ceil(left);
    return h(
      "div",
      { class: "startcount", role: "timer", "aria-live": "off", "data-key": "startcount" },
      h("span", { class: "number" }, n > 0 ? String(n) : t("raceGo")),
      h("span", { class: "caption" }, t("raceStartsIn", { k: this.state.view.round })),
    );
  }

  draw() {
    const state = this.state;
    const view = state.view;
    const mine = view.seats.find((s) => s.player === state.seat) || null;
    const others = view.seats.filter((s) => s.player !== state.seat);
    const over = state.status === "finished";
    const from = this.motionStart();
    const names = state.seats.map((s) => seatName(s));
    replaceKeepingFocus(
      this.surface,
      h(
        "div",
        { class: "dealinfo" },
        h("strong", {}, over ? t("matchOver") : t("roundOf", { k: view.round, n: view.rounds })),
        // In the pause the next round is dealt but not raced: the panel says how long the last one took.
        // A replay has no race clock (each move's time is in the list): no "0:00" then.
        state.pause || !state.race ? null : h("span", { class: "racetime", role: "timer", "aria-live": "off" }, `${this.raceLabel()}: ${clockText(this.raceSeconds())}`),
        this.shownMove() ? h("p", { class: "lastmove" }, t("lastMove", { move: describeMove("spy", this.shownMove(), names) })) : null,
      ),
      this.startCount(),
      mine ? this.myArea(mine) : null,
      mine ? this.shortcuts() : null,
      view.seats.length
        ? h(
            "section",
            { class: "others", "aria-label": t("others") },
            h("h2", {}, mine ? t("others") : t("players")),
            h("ul", { class: "otherlist" }, others.map((s) => this.otherSeat(s))),
          )
        : null,
      this.scores(),
    );
    this.el.dataset.legal = JSON.stringify([...this.moves]);
    this.el.dataset.round = view.round;
    this.el.dataset.counting = state.count ? "true" : "";
    this.tick();
    if (from) this.slide(from);
    this.motion = false; // once per move: a redraw for a click moves nothing
  }

  /** The card the last move put down slides there from its source (≤ 250 ms, none
   * under reduced motion; the table takes the next move at once: motion.js). */
  slide(from) {
    const last = this.lastSpot();
    if (!last) return;
    const seat = this.surface.querySelector(`[data-player='${last[0]}']`);
    const spot = seat && seat.querySelector(`[data-to='${last[1]}'] .card, .card[data-to='${last[1]}']`);
    slideFrom(spot, from);
  }

  myArea(seat) {
    const moves = this.moves;
    const pointsOk = this.sourcePlayable("points");
    const wasteOk = this.sourcePlayable("waste");
    const sourceButton = (source, top, count, label, ok) => {
      const inner = top ? cardFace(top, { "aria-hidden": "true" }) : emptySpot("", { "aria-hidden": "true" });
      const button = h(
        "button",
        {
          type: "button",
          class: `source ${ok ? "playable" : ""} ${this.source === source ? "chosen" : ""} ${this.hinted(source) ? "hinted" : ""} ${this.isLast(seat.player, source) ? "last" : ""}`,
          "data-key": `source-${source}`,
          "data-source": source,
          "data-from": source,
          "data-to": source,
          "aria-pressed": this.source === source ? "true" : "false",
          "aria-label": `${label}: ${top ? cardSpoken(top) : t("empty")}, ${t("cardsLeft", { n: count })}`,
        },
        inner,
        h("span", { class: "count", "aria-hidden": "true" }, count),
        h("span", { class: "label", "aria-hidden": "true" }, label),
      );
      button.addEventListener("click", () => this.pick(source));
      if (ok) draggable(button, source, (where, from) => this.dropped(where, from));
      return button;
    };
    const piles = seat.piles.map((pile, i) => {
      const n = i + 1;
      const targets = this.source
        ? moves.has(`place ${this.source} ${n}`)
        : moves.has(`place points ${n}`) || moves.has(`place waste ${n}`);
      const button = h(
        "button",
        {
          type: "button",
          class: `pile target ${targets ? "choosable" : ""} ${this.hint && this.hint.startsWith("place ") && this.hint.endsWith(` ${n}`) ? "hinted" : ""} ${this.isLast(seat.player, `pile-${n}`) ? "last" : ""}`,
          "data-key": `pile-${n}`,
          "data-pile": n,
          "data-to": `pile-${n}`,
          "data-drop": `pile-${n}`,
          "aria-label": `${t("pile", { n })}: ${cardSpoken(pile.top)}, ${t("cards", { n: pile.size })}`,
        },
        cardFace(pile.top, { "aria-hidden": "true" }),
        h("span", { class: "pileno", "aria-hidden": "true" }, n),
      );
      button.addEventListener("click", () => this.placeOrExplain(n));
      return button;
    });
    if (seat.piles.length < 6) {
      const canOpen = this.source ? moves.has(`open ${this.source}`) : moves.has("open points") || moves.has("open waste");
      const slot = h(
        "button",
        { type: "button", class: `pile newpile ${canOpen ? "choosable" : ""} ${this.hint && this.hint.startsWith("open ") ? "hinted" : ""}`, "data-key": "newpile", "data-drop": "new", "aria-label": t("newPile") },
        h("span", {}, "+"),
        h("span", { class: "pileno" }, t("newPile")),
      );
      slot.addEventListener("click", () => this.openNew());
      piles.push(slot);
    }
    const deck = h(
      "button",
      {
        type: "button",
        class: `deck ${this.hint === "turn" ? "hinted" : ""}`,
        "data-key": "deck",
        "data-from": "deck",
        "aria-label": `${t("turn")} — ${t("deck")}: ${t("cardsLeft", { n: seat.deck_count })}`,
        disabled: !moves.has("turn"),
      },
      seat.deck_count ? cardBack("", { "aria-hidden": "true" }) : emptySpot("", { "aria-hidden": "true" }),
      h("span", { class: "count", "aria-hidden": "true" }, seat.deck_count),
      h("span", { class: "label", "aria-hidden": "true" }, t("deck")),
    );
    deck.addEventListener("click", () => this.send("turn"));
    const call = h("button", { type: "button", class: `primary call ${this.hint === "call" ? "hinted" : ""}`, "data-key": "call", disabled: !moves.has("call") }, t("call"));
    call.addEventListener("click", () => this.send("call"));
    const resign = h("button", { type: "button", class: "small", "data-key": "resign", disabled: !moves.has("resign") }, t("resign"));
    resign.addEventListener("click", () => this.send("resign"));
    // No Hint where the table allows none (a rated one never does): the server refuses it too.
    const hint = this.state.hints
      ? h("button", { type: "button", class: "small", "data-key": "hint", disabled: !moves.size || !this.token }, t("hint"))
      : null;
    if (hint) hint.addEventListener("click", () => this.askHint());
    const hintText = this.hint ? h("p", { class: "hinttext", role: "status" }, t("hintIs", { move: this.moveWords(this.hint) })) : null;
    return h(
      "section",
      { class: "side mine spyseat", "aria-label": seatName(seat), "data-player": seat.player },
      h("h2", {}, seatName(seat), " ", this.flags(seat)),
      h(
        "div",
        { class: "spyrow" },
        sourceButton("points", seat.points_top, seat.points_count, t("pointsPile"), pointsOk),
        deck,
        sourceButton("waste", seat.waste_top, seat.waste_count, t("waste"), wasteOk),
      ),
      h("div", { class: "square", role: "group", "aria-label": t("piles") }, piles),
      h("div", { class: "buttons" }, call, resign, hint),
      hintText,
    );
  }

  /** Is the hinted move one with the card of `source`? */
  hinted(source) {
    return Boolean(this.hint) && (this.hint.startsWith(`place ${source} `) || this.hint === `open ${source}`);
  }

  /** The points or waste card dragged and released over `where` (drag.js): onto a pile
   * as a click on the pile with that card chosen (a card that does not fit says why),
   * onto the new pile's slot as opening one. */
  dropped(where, source) {
    const pile = /^pile-(\d)$/.exec(where);
    if (pile) this.placeOrExplain(Number(pile[1]), source);
    else if (where === "new") this.openNew(source);
  }

  flags(seat) {
    const flags = [];
    if (seat.called) flags.push(t("called"));
    if (seat.blocked) flags.push(t("blocked"));
    if (seat.resigned) flags.push(t("resigned"));
    return flags.length ? h("span", { class: "flags" }, `(${flags.join(", ")})`) : "";
  }

  otherSeat(seat) {
    return h(
      "li",
      { class: `otherseat ${this.shownMove() && this.shownMove().seat === seat.player ? "lastmover" : ""}`, "data-player": seat.player },
      h("h3", {}, seatName(seat), " ", this.flags(seat)),
      h(
        "div",
        { class: "mini" },
        h(
          "span",
          { class: "minipoints", "data-from": "points", "aria-label": `${t("pointsPile")}: ${t("cardsLeft", { n: seat.points_count })}` },
          seat.points_top ? cardFace(seat.points_top) : emptySpot(t("empty")),
          h("span", { class: "count" }, `${t("points")}: ${seat.points_count}`),
        ),
        h(
          "span",
          { class: "minipiles", role: "list", "aria-label": t("piles") },
          seat.piles.map((p, i) =>
            h("span", { role: "listitem", "data-to": `pile-${i + 1}` }, cardFace(p.top, { class: this.isLast(seat.player, `pile-${i + 1}`) ? "last" : "" })),
          ),
        ),
        // The waste top is public (S4-S5 hide only the racing deck and the points cards under the top).
        h(
          "span",
          { class: "miniwaste", "data-from": "waste", "data-to": "waste", "aria-label": `${t("waste")}: ${seat.waste_top ? cardSpoken(seat.waste_top) : t("empty")}, ${t("cards", { n: seat.waste_count })}` },
          seat.waste_top ? cardFace(seat.waste_top, { class: this.isLast(seat.player, "waste") ? "last" : "" }) : emptySpot(t("empty")),
          h("span", { class: "count" }, `${t("waste")}: ${seat.waste_count}`),
        ),
        h("span", { class: "minimeta", "data-from": "deck" }, `${t("deck")}: ${seat.deck_count} · ${t("movesMade", { n: seat.moves })}`),
      ),
    );
  }

  scores() {
    const view = this.state.view;
    if (!view.round_scores.length) return null;
    const names = this.state.seats.map((s) => seatName(s));
    const times = this.state.race ? this.state.race.times : null;
    return h(
      "section",
      { class: "roundscores" },
      h(
        "table",
        {},
        h("caption", {}, t("roundScores")),
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "#"), names.map((n) => h("th", { scope: "col" }, n)), times ? h("th", { scope: "col" }, t("raceTime")) : null),
        ),
        h(
          "tbody",
          {},
          view.round_scores.map((scores, i) =>
            h("tr", {}, h("th", { scope: "row" }, i + 1), scores.map((s) => h("td", {}, s)), times ? h("td", { class: "time" }, times[i] === undefined ? "" : clockText(times[i])) : null),
          ),
          h("tr", { class: "totalrow" }, h("th", { scope: "row" }, t("totals")), view.totals.map((s) => h("td", {}, s)), times ? h("td", {}) : null),
        ),
      ),
      h(
        "ul",
        { class: "endings" },
        (this.state.segments || []).map((s) =>
          h("li", {}, `${s.number}: ${s.ending === "called" ? t("endedCalled", { name: names[s.ended_by] }) : t(`ended_${s.ending}`)}`),
        ),
      ),
    );
  }
}
