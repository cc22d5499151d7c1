// The Spy vs Spy table: your square and piles 5–6, points pile and racing deck, the
// other players' progress live. What may go where comes only from the legal moves.

import { cardBack, cardFace, emptySpot } from "./cards.js";
import { announce, h, replaceKeepingFocus } from "./dom.js";
import { cardSpoken, moveText, seatName, t } from "./i18n.js";

export class SpyBoard {
  constructor({ conn }) {
    this.conn = conn;
    this.state = null;
    this.source = null; // "points" | "waste" | null
    this.round = null;
    this.roundStarted = performance.now();
    this.el = h("div", { class: "board spy", "aria-label": t("spy") });
    this.timer = setInterval(() => this.tick(), 250);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }

  update(state) {
    this.state = state;
    if (state.view.round !== this.round || state.pause) {
      // A new round's race time starts when the pause before it ends.
      this.round = state.view.round;
      this.roundStarted = performance.now();
      this.source = null;
    }
    if (this.source && !this.sourcePlayable(this.source)) this.source = null;
    this.draw();
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
      announce(moveText(move));
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

  key(event) {
    if (!this.state || this.state.seat === null) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const k = event.key.toLowerCase();
    let done = true;
    if (k === "p") this.pick("points");
    else if (k === "w") this.pick("waste");
    else if (/^[1-6]$/.test(k)) this.placeOn(Number(k));
    else if (k === "n" || k === "o") this.openNew();
    else if (k === " " || k === "t") {
      if (target && target.tagName === "BUTTON" && k === " ") return; // let Space press the focused button
      if (this.moves.has("turn")) this.send("turn");
    } else if (k === "c") {
      if (this.moves.has("call")) this.send("call");
    } else if (k === "escape") {
      this.source = null;
      this.draw();
    } else done = false;
    if (done) event.preventDefault();
  }

  /** The round just over, for the pause before the next one (table.js shows it). */
  lastSegment(state) {
    const view = state.view;
    const k = view.round_scores.length;
    if (!k) return null;
    const names = state.seats.map((s) => seatName(s));
    const finisher = view.finishers[k - 1];
    return {
      heading: t("roundOver", { k }),
      scores: view.round_scores[k - 1],
      totals: view.totals,
      note: finisher === null || finisher === undefined ? t("noFinisher") : t("finisher", { name: names[finisher] }),
      next: (s) => t("nextRoundIn", { s }),
    };
  }

  tick() {
    const el = this.el.querySelector(".racetime");
    if (!el || !this.state) return;
    const playing = this.state.status === "playing" && this.state.view.phase === "playing" && !this.state.pause;
    if (!playing) return;
    const s = Math.floor((performance.now() - this.roundStarted) / 1000);
    el.textContent = `${t("raceTime")}: ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  draw() {
    const state = this.state;
    const view = state.view;
    const mine = view.seats.find((s) => s.player === state.seat) || null;
    const others = view.seats.filter((s) => s.player !== state.seat);
    replaceKeepingFocus(
      this.el,
      h(
        "div",
        { class: "dealinfo" },
        h("strong", {}, t("roundOf", { k: view.round, n: view.rounds })),
        h("span", { class: "racetime", role: "timer", "aria-live": "off" }, `${t("raceTime")}: 0:00`),
      ),
      mine ? this.myArea(mine) : null,
      mine ? h("p", { class: "shortcuts" }, t("shortcuts")) : null,
      h(
        "section",
        { class: "others", "aria-label": t("others") },
        h("h2", {}, mine ? t("others") : t("players")),
        h("ul", { class: "otherlist" }, others.map((s) => this.otherSeat(s))),
      ),
      this.scores(),
    );
    this.el.dataset.legal = JSON.stringify([...this.moves]);
    this.el.dataset.round = view.round;
    this.tick();
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
          class: `source ${ok ? "playable" : ""} ${this.source === source ? "chosen" : ""}`,
          "data-key": `source-${source}`,
          "data-source": source,
          "aria-pressed": this.source === source ? "true" : "false",
          "aria-label": `${label}: ${top ? cardSpoken(top) : t("empty")}, ${t("cardsLeft", { n: count })}`,
          draggable: ok ? "true" : "false",
        },
        inner,
        h("span", { class: "count", "aria-hidden": "true" }, count),
        h("span", { class: "label", "aria-hidden": "true" }, label),
      );
      button.addEventListener("click", () => this.pick(source));
      button.addEventListener("dragstart", (event) => {
        event.dataTransfer.setData("text/plain", source);
      });
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
          class: `pile target ${targets ? "choosable" : ""}`,
          "data-key": `pile-${n}`,
          "data-pile": n,
          "aria-label": `${t("pile", { n })}: ${cardSpoken(pile.top)}, ${t("cards", { n: pile.size })}`,
        },
        cardFace(pile.top, { "aria-hidden": "true" }),
        h("span", { class: "pileno", "aria-hidden": "true" }, n),
      );
      button.addEventListener("click", () => this.placeOn(n));
      this.dropTarget(button, (source) => this.placeOn(n, source));
      return button;
    });
    if (seat.piles.length < 6) {
      const canOpen = this.source ? moves.has(`open ${this.source}`) : moves.has("open points") || moves.has("open waste");
      const slot = h(
        "button",
        { type: "button", class: `pile newpile ${canOpen ? "choosable" : ""}`, "data-key": "newpile", "aria-label": t("newPile") },
        h("span", {}, "+"),
        h("span", { class: "pileno" }, t("newPile")),
      );
      slot.addEventListener("click", () => this.openNew());
      this.dropTarget(slot, (source) => this.openNew(source));
      piles.push(slot);
    }
    const deck = h(
      "button",
      {
        type: "button",
        class: "deck",
        "data-key": "deck",
        "aria-label": `${t("turn")} — ${t("deck")}: ${t("cardsLeft", { n: seat.deck_count })}`,
        disabled: !moves.has("turn"),
      },
      seat.deck_count ? cardBack("", { "aria-hidden": "true" }) : emptySpot("", { "aria-hidden": "true" }),
      h("span", { class: "count", "aria-hidden": "true" }, seat.deck_count),
      h("span", { class: "label", "aria-hidden": "true" }, t("deck")),
    );
    deck.addEventListener("click", () => this.send("turn"));
    const call = h("button", { type: "button", class: "primary call", "data-key": "call", disabled: !moves.has("call") }, t("call"));
    call.addEventListener("click", () => this.send("call"));
    const resign = h("button", { type: "button", class: "small", "data-key": "resign", disabled: !moves.has("resign") }, t("resign"));
    resign.addEventListener("click", () => this.send("resign"));
    return h(
      "section",
      { class: "side mine spyseat", "aria-label": seatName(seat) },
      h("h2", {}, seatName(seat), " ", this.flags(seat)),
      h(
        "div",
        { class: "spyrow" },
        sourceButton("points", seat.points_top, seat.points_count, t("pointsPile"), pointsOk),
        deck,
        sourceButton("waste", seat.waste_top, seat.waste_count, t("waste"), wasteOk),
      ),
      h("div", { class: "square", role: "group", "aria-label": t("piles") }, piles),
      h("div", { class: "buttons" }, call, resign),
    );
  }

  dropTarget(el, act) {
    el.addEventListener("dragover", (event) => {
      event.preventDefault();
      el.classList.add("droptarget");
    });
    el.addEventListener("dragleave", () => el.classList.remove("droptarget"));
    el.addEventListener("drop", (event) => {
      event.preventDefault();
      el.classList.remove("droptarget");
      const source = event.dataTransfer.getData("text/plain");
      if (source === "points" || source === "waste") act(source);
    });
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
      { class: "otherseat", "data-player": seat.player },
      h("h3", {}, seatName(seat), " ", this.flags(seat)),
      h(
        "div",
        { class: "mini" },
        h(
          "span",
          { class: "minipoints", "aria-label": `${t("pointsPile")}: ${t("cardsLeft", { n: seat.points_count })}` },
          seat.points_top ? cardFace(seat.points_top) : emptySpot(t("empty")),
          h("span", { class: "count" }, `${t("points")}: ${seat.points_count}`),
        ),
        h("span", { class: "minipiles", role: "list", "aria-label": t("piles") }, seat.piles.map((p) => h("span", { role: "listitem" }, cardFace(p.top)))),
        h("span", { class: "minimeta" }, `${t("deck")}: ${seat.deck_count} · ${t("waste")}: ${seat.waste_count} · ${t("movesMade", { n: seat.moves })}`),
      ),
    );
  }

  scores() {
    const view = this.state.view;
    if (!view.round_scores.length) return null;
    const names = this.state.seats.map((s) => seatName(s));
    return h(
      "section",
      { class: "roundscores" },
      h(
        "table",
        {},
        h("caption", {}, t("roundScores")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), names.map((n) => h("th", { scope: "col" }, n)))),
        h(
          "tbody",
          {},
          view.round_scores.map((scores, i) =>
            h("tr", {}, h("th", { scope: "row" }, i + 1), scores.map((s) => h("td", {}, s))),
          ),
          h("tr", { class: "totalrow" }, h("th", { scope: "row" }, t("totals")), view.totals.map((s) => h("td", {}, s))),
        ),
      ),
      h(
        "p",
        {},
        view.finishers
          .map((f, i) => `${i + 1}: ${f === null ? t("noFinisher") : t("finisher", { name: names[f] })}`)
          .join(" · "),
      ),
    );
  }
}
