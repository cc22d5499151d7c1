// The Candidate table. Every choice offered comes from the server's legal moves: a card
// is playable when some legal "play …" move goes on with it after the cards already
// chosen; a pile can be chosen when "deal X" / "lobby X" / "draw X" is legal.

import { api } from "./api.js";
import { cardBack, cardFace, cardRow, emptySpot } from "./cards.js";
import { announce, h, replaceKeepingFocus, toast } from "./dom.js";
import { moveText, suitName, seatName, suitSymbol, t } from "./i18n.js";

export class CandidateBoard {
  constructor({ conn, tableId, token, replay = false }) {
    this.conn = conn;
    this.replay = replay; // a replay: every hand shown (state.hands), no summaries fetched
    this.tableId = tableId;
    this.token = token;
    this.state = null;
    this.selected = []; // indices into the hand, in the order chosen
    this.hint = null;
    this.lastDeal = null;
    this.summary = null; // {deal, captures, scores} of the deal just finished
    this.el = h("div", { class: "board candidate", "aria-label": t("candidate") });
  }

  update(state) {
    const view = state.view;
    const previous = this.state;
    this.state = state;
    const movesChanged = !previous || previous.legal_moves.join("|") !== state.legal_moves.join("|");
    if (movesChanged || (previous && previous.version !== state.version)) {
      this.selected = this.selected.filter((i) => i < (view.hand || []).length);
      if (movesChanged) this.selected = [];
      this.hint = null;
    }
    const finishedNow = view.is_over && previous && !previous.view.is_over;
    if (!this.replay && this.lastDeal !== null && (view.deal_number > this.lastDeal || finishedNow)) {
      this.loadSummary(view.is_over ? view.deal_number : this.lastDeal);
    } else if (!this.replay && this.lastDeal === null && state.pause && view.deal_number > 1) {
      this.loadSummary(view.deal_number - 1); // opened during the pause: the deal just over
    }
    this.lastDeal = view.deal_number;
    this.draw();
  }

  async loadSummary(deal) {
    try {
      const summary = await api.summary(this.tableId);
      const d = summary.deals[deal - 1];
      if (!d) return;
      this.summary = { deal, captures: d.captures, scores: d.scores, captureScores: d.capture_scores };
      this.draw();
      const heading = this.el.querySelector(".dealsummary h2");
      if (heading && !this.state.pause) heading.focus(); // in a pause, Ready keeps the focus
    } catch {
      /* the summary is a courtesy: the scores are on the table anyway */
    }
  }

  /** The deal just over, for the pause before the next one (table.js shows it). */
  lastSegment(state) {
    const view = state.view;
    const k = view.past_deal_scores.length;
    if (!k) return null;
    return {
      heading: t("dealOver", { k }),
      scores: view.past_deal_scores[k - 1],
      totals: view.totals,
      note: null,
      next: (s) => t("nextDealIn", { s }),
    };
  }

  get myMoves() {
    return this.state.legal_moves;
  }

  send(move) {
    if (!this.conn.move(move)) return;
    this.selected = [];
    this.hint = null;
    announce(moveText(move));
  }

  /** Cards that may come next after the chosen ones, and whether the choice is a move. */
  playOptions() {
    const hand = this.state.view.hand || [];
    const chosen = this.selected.map((i) => hand[i]);
    const next = new Set();
    let complete = false;
    for (const move of this.myMoves) {
      if (!move.startsWith("play ")) continue;
      const cards = move.split(" ").slice(1);
      if (!chosen.every((c, i) => cards[i] === c)) continue;
      if (cards.length === chosen.length) complete = true;
      else next.add(cards[chosen.length]);
    }
    return { chosen, next, complete };
  }

  choose(index) {
    const at = this.selected.indexOf(index);
    if (at >= 0) {
      this.selected = this.selected.slice(0, at);
    } else {
      const { next } = this.playOptions();
      const card = this.state.view.hand[index];
      if (!next.has(card)) return;
      this.selected = [...this.selected, index];
    }
    this.draw();
  }

  playSelected() {
    const { chosen, complete } = this.playOptions();
    if (complete && chosen.length) this.send(`play ${chosen.join(" ")}`);
  }

  dropOnLobby(index) {
    const card = this.state.view.hand[index];
    const { chosen, next } = this.playOptions();
    if (this.selected.includes(index)) {
      this.playSelected();
      return;
    }
    if (!next.has(card)) return;
    const move = `play ${[...chosen, card].join(" ")}`;
    if (this.myMoves.includes(move)) this.send(move);
    else this.choose(index);
  }

  async askHint() {
    try {
      const answer = await api.hint(this.tableId, this.token);
      this.hint = answer.move;
      const text = answer.move ? t("hintIs", { move: moveText(answer.move) }) : t("noHint");
      this.draw();
      announce(text);
    } catch (err) {
      toast(t("err_generic", { detail: err.message }));
    }
  }

  names() {
    return this.state.seats.map((s) => seatName(s));
  }

  draw() {
    const state = this.state;
    const view = state.view;
    const me = state.seat;
    const names = this.names();
    const canAct = me !== null && state.to_move === me && this.conn.ready;
    const mySide = me === null ? 0 : me;
    const otherSide = 1 - mySide;

    const info = h(
      "div",
      { class: "dealinfo" },
      h("strong", { class: "dealnum" }, t("dealOf", { k: view.deal_number, n: view.deals })),
      h(
        "span",
        { class: "scores" },
        [0, 1].map((p) =>
          h("span", { class: "scoreline" }, `${names[p]}: ${t("score", { n: view.deal_scores[p] })}, ${t("total", { n: view.totals[p] })}`),
        ),
      ),
    );

    replaceKeepingFocus(
      this.el,
      this.summary ? this.summaryPanel(names) : null,
      info,
      this.playerArea(otherSide, names, false),
      this.centre(canAct),
      this.playerArea(mySide, names, me !== null),
      me !== null ? this.controls(canAct) : null,
    );
    this.el.dataset.legal = JSON.stringify(canAct ? this.myMoves : []);
    this.el.dataset.decision = view.decision || "";
  }

  summaryPanel(names) {
    const { deal, captures, scores, captureScores } = this.summary;
    const close = h("button", { type: "button", class: "small", "data-key": "close-summary" }, t("close"));
    close.addEventListener("click", () => {
      this.summary = null;
      this.draw();
    });
    return h(
      "section",
      { class: "dealsummary", "aria-labelledby": "summary-h" },
      // During the pause the pause panel already says the deal is over: here its captures.
      h("h2", { id: "summary-h", tabindex: "-1" }, t(this.state.pause ? "dealCaptures" : "dealOver", { k: deal })),
      [0, 1].map((p) =>
        h(
          "div",
          { class: "summaryside" },
          h("h3", {}, `${names[p]} — ${t("score", { n: scores[p] })}`),
          h(
            "ul",
            { class: "captures" },
            captures[p].map((seq, i) =>
              h(
                "li",
                { class: "capture" },
                cardRow(seq, t("captures")),
                captureScores ? h("span", { class: "capscore" }, ` = ${captureScores[p][i]}`) : null,
              ),
            ),
          ),
        ),
      ),
      close,
    );
  }

  playerArea(p, names, isMe) {
    const view = this.state.view;
    const captures = view.captures[p].map((seq, i) =>
      h(
        "li",
        { class: "capture" },
        cardRow(seq, t("captures")),
        h("span", { class: "capscore" }, ` = ${view.capture_scores[p][i]}`),
      ),
    );
    let hand;
    const shown = this.state.hands ? this.state.hands[p] : null;
    if (isMe && view.hand) {
      hand = this.handRow();
    } else if (shown) {
      hand = h("div", { class: "hand shown" }, cardRow(shown, t("handOf", { name: names[p] })));
    } else {
      const n = view.hand_sizes[p];
      hand = h(
        "div",
        { class: "hand hidden", "aria-label": `${t("handOf", { name: names[p] })}: ${t("cards", { n })}` },
        Array.from({ length: n }, () => cardBack("", { "aria-hidden": "true" })),
        h("span", { class: "count" }, t("cards", { n })),
      );
    }
    return h(
      "section",
      { class: `side ${isMe ? "mine" : "theirs"} ${this.state.to_move === p ? "tomove" : ""}`, "aria-label": names[p] },
      h("h2", { class: "sidename" }, names[p], this.state.to_move === p ? " ◀" : ""),
      hand,
      h(
        "div",
        { class: "capturesbox" },
        h("h3", {}, `${t("captures")} (${t("score", { n: view.deal_scores[p] })})`),
        captures.length ? h("ul", { class: "captures" }, captures) : h("p", { class: "none" }, "—"),
      ),
    );
  }

  handRow() {
    const view = this.state.view;
    const { next } = this.playOptions();
    const canAct = this.state.to_move === this.state.seat && this.conn.ready;
    const hinted = this.hint && this.hint.startsWith("play ") ? this.hint.split(" ").slice(1) : [];
    const cards = view.hand.map((card, i) => {
      const chosenAt = this.selected.indexOf(i);
      const playable = canAct && (chosenAt >= 0 || next.has(card));
      const el = cardFace(
        card,
        {
          type: "button",
          "data-key": `hand-${i}`,
          "data-card": card,
          class: [playable ? "playable" : "", chosenAt >= 0 ? "chosen" : "", hinted.includes(card) ? "hinted" : ""].join(" "),
          "aria-pressed": chosenAt >= 0 ? "true" : "false",
          "aria-disabled": playable ? "false" : "true",
          draggable: playable ? "true" : "false",
        },
        "button",
      );
      if (chosenAt >= 0) el.append(h("span", { class: "order", "aria-hidden": "true" }, chosenAt + 1));
      el.addEventListener("click", () => {
        if (playable) this.choose(i);
      });
      el.addEventListener("dblclick", () => {
        if (playable) this.dropOnLobby(i);
      });
      el.addEventListener("dragstart", (event) => {
        event.dataTransfer.setData("text/plain", String(i));
        event.dataTransfer.effectAllowed = "move";
      });
      return el;
    });
    return h("div", { class: "hand mine", role: "group", "aria-label": t("hand") }, cards);
  }

  centre(canAct) {
    const view = this.state.view;
    const decision = view.decision;
    const pileMoves = new Set(
      canAct ? this.myMoves.filter((m) => /^(deal|lobby|draw) /.test(m)).map((m) => m.split(" ")[1]) : [],
    );
    const hintPile = this.hint && /^(deal|lobby|draw) /.test(this.hint) ? this.hint.split(" ")[1] : null;
    const piles = view.piles.map(([suit, n]) => {
      const enabled = pileMoves.has(suit);
      const button = h(
        "button",
        {
          type: "button",
          class: `pile suit-${suit} ${enabled ? "choosable" : ""} ${hintPile === suit ? "hinted" : ""}`,
          "data-key": `pile-${suit}`,
          "data-pile": suit,
          "aria-label": t("pileOf", { suit: suitName(suit), n }),
          disabled: !enabled,
        },
        h("span", { class: "pilesuit", "aria-hidden": "true" }, suitSymbol(suit)),
        h("span", { class: "pilecount", "aria-hidden": "true" }, n),
      );
      button.addEventListener("click", () => this.send(`${decision} ${suit}`));
      return button;
    });
    let prompt = "";
    if (canAct && decision === "deal") prompt = t("chooseDeal");
    if (canAct && decision === "lobby") prompt = t("chooseLobby");
    if (canAct && decision === "draw") prompt = t("chooseDraw");

    const lobbyCards = view.lobby.length
      ? view.lobby.map((c) => cardFace(c))
      : [emptySpot(t("lobbyEmpty"))];
    const lobby = h(
      "div",
      { class: "lobby", "aria-label": t("lobby"), role: "group", "data-key": "lobby" },
      h("h3", {}, t("lobby"), view.lobby_shape ? ` (${t(`shape_${view.lobby_shape}`)})` : ""),
      h("div", { class: "cardrow" }, lobbyCards),
    );
    lobby.addEventListener("dragover", (event) => {
      event.preventDefault();
      lobby.classList.add("droptarget");
    });
    lobby.addEventListener("dragleave", () => lobby.classList.remove("droptarget"));
    lobby.addEventListener("drop", (event) => {
      event.preventDefault();
      lobby.classList.remove("droptarget");
      const index = Number(event.dataTransfer.getData("text/plain"));
      if (Number.isInteger(index)) this.dropOnLobby(index);
    });
    return h(
      "section",
      { class: "centre", "aria-label": t("piles") },
      h("div", { class: "piles", role: "group", "aria-label": t("piles") }, piles),
      prompt ? h("p", { class: "prompt" }, prompt) : null,
      lobby,
      view.discards.length
        ? h("div", { class: "discards" }, h("h3", {}, t("discards")), cardRow(view.discards, t("discards")))
        : null,
    );
  }

  controls(canAct) {
    const { chosen, complete } = this.playOptions();
    const canPass = canAct && this.myMoves.includes("pass");
    const play = h("button", { type: "button", class: "primary", "data-key": "play", id: "play-button", disabled: !(canAct && complete && chosen.length) }, t("play"));
    play.addEventListener("click", () => this.playSelected());
    const clear = h("button", { type: "button", "data-key": "clear", disabled: !chosen.length }, t("clear"));
    clear.addEventListener("click", () => {
      this.selected = [];
      this.draw();
    });
    const pass = h("button", { type: "button", "data-key": "pass", id: "pass-button", disabled: !canPass, class: this.hint === "pass" ? "hinted" : "" }, t("pass"));
    pass.addEventListener("click", () => this.send("pass"));
    const hint = h("button", { type: "button", "data-key": "hint", id: "hint-button", disabled: !canAct }, t("hint"));
    hint.addEventListener("click", () => this.askHint());
    const hintText = this.hint
      ? h("p", { class: "hinttext", role: "status" }, t("hintIs", { move: moveText(this.hint) }))
      : null;
    return h(
      "div",
      { class: "controls" },
      chosen.length ? h("p", { class: "selection" }, t("selected", { cards: moveText(chosen.join(" ")) })) : null,
      h("div", { class: "buttons" }, play, clear, pass, hint),
      hintText,
    );
  }
}
