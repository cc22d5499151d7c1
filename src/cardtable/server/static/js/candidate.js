// The Candidate table. Every choice offered comes from the server's legal moves: a card
// is playable when some legal "play …" move goes on with it after the cards already
// chosen; a pile can be chosen when "deal X" / "lobby X" / "draw X" is legal.

import { api } from "./api.js";
import { cardBack, cardFace, cardRow, emptySpot } from "./cards.js";
import { announce, h, replaceKeepingFocus, toast } from "./dom.js";
import { draggable } from "./drag.js";
import { cardText, moveText, seatName, suitName, suitSymbol, t } from "./i18n.js";
import { rectOf, slideFrom } from "./motion.js";
import { MoveList, describeMove } from "./movelist.js";
import { playSound } from "./sound.js";

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
    this.summaryInPause = false; // the summary came with a pause: it goes when the pause ends
    this.lastMove = null; // {seat, move, source, events} of the move on the table now
    this.why = ""; // why the card just clicked cannot be played (the engine's reason)
    this.probing = null; // the card whose refusal is awaited
    this.confirmResign = false; // Resign was clicked once: the confirmation is on screen
    this.motion = false; // the next draw slides the cards that moved
    this.moveList = new MoveList({ game: "candidate", names: [] });
    this.el = h("div", { class: "board candidate", "aria-label": t("candidate") });
  }

  /** A new state; `message` is the protocol message it came in (welcome, update, …) or,
   * in the replay, {type: "step", event} with the move just stepped over. */
  update(state, message = null) {
    const view = state.view;
    const previous = this.state;
    this.state = state;
    this.moveList.setNames(this.names());
    this.motion = false;
    if (message && message.type === "welcome") {
      this.moveList.reset(message.history || []);
      this.lastMove = (message.history || []).at(-1) || null;
    } else if (message && (message.type === "update" || message.type === "step") && message.event?.type === "move") {
      this.lastMove = message.event;
      this.motion = message.type === "update" || Boolean(message.forward);
      if (message.type === "update") {
        this.moveList.add(message.event);
        this.sounds(message.event, previous);
      }
    } else if (message && message.type === "step") {
      this.lastMove = null;
    }
    const movesChanged = !previous || previous.legal_moves.join("|") !== state.legal_moves.join("|");
    if (movesChanged || (previous && previous.version !== state.version)) {
      this.selected = this.selected.filter((i) => i < (view.hand || []).length);
      if (movesChanged) this.selected = [];
      this.hint = null;
      if (previous && previous.version !== state.version) this.why = "";
    }
    if (previous && previous.pause && !state.pause && this.summaryInPause) {
      // Everyone continued: the summary has been read, the next deal takes the table.
      this.summary = null;
      this.summaryInPause = false;
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
      this.summaryInPause = Boolean(this.state.pause);
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

  /** The sounds of a move: a card played, a capture, your turn. */
  sounds(event, previous) {
    const me = this.state.seat;
    if ((event.events || []).some((e) => e.type === "trick_taken")) playSound("capture");
    else if (event.seat !== me && /^(play|lobby|draw|deal) /.test(event.move)) playSound("card");
    const mine = me !== null && this.state.to_move === me && this.state.legal_moves.length > 0;
    const wasMine = previous && previous.to_move === me && previous.legal_moves.length > 0;
    if (mine && !wasMine) playSound("turn");
  }

  /** A card that cannot be played was clicked: say why. Not your turn is the table's
   * to say; otherwise the server is asked with the move and the engine's refusal (its
   * message id, said in the player's language) comes back through refused(). */
  explainCard(index) {
    const card = this.state.view.hand[index];
    const state = this.state;
    if (state.to_move !== state.seat || state.pause || !state.legal_moves.length) {
      this.showWhy(t("notYourTurnCard", { card: cardText(card) }));
      return;
    }
    const chosen = this.selected.map((i) => state.view.hand[i]);
    if (this.conn.move(`play ${[...chosen, card].join(" ")}`)) this.probing = card;
  }

  /** The table's refusal of a move (already in the player's language); true when it
   * answered a card clicked to learn why it cannot be played. */
  refused(text) {
    if (this.probing === null) return false;
    const card = this.probing;
    this.probing = null;
    this.showWhy(t("cannotPlay", { card: cardText(card), why: text }));
    return true;
  }

  showWhy(text) {
    this.why = text;
    this.draw();
    announce(text);
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

  /** A hand card dragged and released over `where` (drag.js): onto the lobby it goes
   * as a double-click sends it; the hand may have changed meanwhile, so the card is
   * checked to be still there. */
  dropped(where, { index, card }) {
    if (where === "lobby" && this.state.view.hand?.[index] === card) this.dropOnLobby(index);
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
    const canAct = me !== null && state.to_move === me && this.conn.ready && state.legal_moves.length > 0;
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

    const before = this.motion ? this.positions() : null;
    this.motion = false; // once per move: a redraw for a click moves nothing
    replaceKeepingFocus(
      this.el,
      h(
        "div",
        { class: "tablemain" },
        this.summary ? this.summaryPanel(names) : null,
        info,
        this.playerArea(otherSide, names, false),
        this.centre(canAct),
        this.playerArea(mySide, names, me !== null),
        // No dock once the match is over: an empty hand and disabled buttons would
        // only cover the last deal's summary on a phone.
        me !== null && view.hand && !view.is_over && this.state.status !== "finished" ? this.dock(canAct) : null,
      ),
      this.moveList.el,
    );
    this.el.dataset.legal = JSON.stringify(canAct ? this.myMoves : []);
    this.el.dataset.decision = view.decision || "";
    if (before) this.slide(before);
  }

  /** Where things are before a redraw: piles, lobby, hands, for the cards that move. */
  positions() {
    const at = (selector) => rectOf(this.el.querySelector(selector));
    const piles = {};
    for (const pile of this.el.querySelectorAll("button.pile[data-pile]")) piles[pile.dataset.pile] = rectOf(pile);
    return { piles, lobby: at(".lobby .cardrow"), hands: [0, 1].map((p) => at(`.hand[data-side='${p}']`)) };
  }

  /** After a move: dealt cards slide in from their pile, played cards from the
   * player's hand to the lobby, a turned card from its pile, a capture from the lobby,
   * a drawn card from its pile. Nothing waits for it (motion.js). */
  slide(before) {
    const move = this.lastMove;
    if (!move) return;
    const [word, pile] = move.move.split(" ");
    const events = move.events || [];
    if (word === "deal") {
      this.el.querySelectorAll(".hand[data-side] .card").forEach((card, i) => slideFrom(card, before.piles[pile], i * 6));
    } else if (word === "play") {
      const from = before.hands[move.seat];
      const played = move.move.split(" ").slice(1);
      for (const card of this.el.querySelectorAll(".lobby .card[data-card]")) {
        if (played.includes(card.dataset.card)) slideFrom(card, from);
      }
    } else if (word === "lobby") {
      this.el.querySelectorAll(".lobby .card[data-card]").forEach((card) => slideFrom(card, before.piles[pile]));
    } else if (word === "draw") {
      const hand = this.el.querySelector(`.hand[data-side='${move.seat}']`);
      const cards = hand ? hand.querySelectorAll(".card") : [];
      const drawn = events.find((e) => e.type === "drew" && e.cards && e.cards.length);
      const card = drawn ? hand?.querySelector(`[data-card='${drawn.cards[0]}']`) : cards[cards.length - 1];
      slideFrom(card, before.piles[pile]);
    }
    const taken = events.find((e) => e.type === "trick_taken");
    if (taken) {
      const captures = this.el.querySelectorAll(`.side[data-side='${taken.player}'] .capture`);
      slideFrom(captures[captures.length - 1], before.lobby);
    }
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
    const justTaken = (this.lastMove?.events || []).some((e) => e.type === "trick_taken" && e.player === p);
    const captures = view.captures[p].map((seq, i) =>
      h(
        "li",
        { class: `capture ${justTaken && i === view.captures[p].length - 1 ? "last" : ""}` },
        cardRow(seq, t("captures")),
        h("span", { class: "capscore" }, ` = ${view.capture_scores[p][i]}`),
      ),
    );
    let hand = null; // my own hand is in the dock (see dock())
    const shown = this.state.hands ? this.state.hands[p] : null;
    if (isMe && view.hand && this.state.status !== "finished") {
      hand = null;
    } else if (shown || (isMe && view.hand)) {
      // A match resigned or aborted has no dock: your hand stays in view here.
      hand = h("div", { class: "hand shown", "data-side": p }, cardRow(shown || view.hand, t("handOf", { name: names[p] })));
    } else {
      const n = view.hand_sizes[p];
      hand = h(
        "div",
        { class: "hand hidden", "data-side": p, "aria-label": `${t("handOf", { name: names[p] })}: ${t("cards", { n })}` },
        Array.from({ length: n }, () => cardBack("", { "aria-hidden": "true" })),
        h("span", { class: "count" }, t("cards", { n })),
      );
    }
    const moves = this.state.to_move === p && !this.state.pause; // nobody moves in a pause
    const clock = this.state.clocks ? h("span", { class: "clock sideclock", "data-seat": p, role: "timer", "aria-label": t("clock") }) : null;
    return h(
      "section",
      { class: `side ${isMe ? "mine" : "theirs"} ${moves ? "tomove" : ""}`, "aria-label": names[p], "data-side": p },
      h("h2", { class: "sidename" }, names[p], moves ? " ◀" : "", clock),
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
    const canAct = this.state.to_move === this.state.seat && this.conn.ready && this.state.legal_moves.length > 0;
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
        },
        "button",
      );
      if (chosenAt >= 0) el.append(h("span", { class: "order", "aria-hidden": "true" }, chosenAt + 1));
      el.addEventListener("click", () => {
        if (playable) this.choose(i);
        else this.explainCard(i);
      });
      el.addEventListener("dblclick", () => {
        if (playable) this.dropOnLobby(i);
      });
      if (playable) draggable(el, { index: i, card }, (where, what) => this.dropped(where, what));
      return el;
    });
    return h("div", { class: "hand mine", "data-side": this.state.seat, role: "group", "aria-label": t("hand") }, cards);
  }

  centre(canAct) {
    const view = this.state.view;
    const decision = view.decision;
    const pileMoves = new Set(
      canAct ? this.myMoves.filter((m) => /^(deal|lobby|draw) /.test(m)).map((m) => m.split(" ")[1]) : [],
    );
    const hintPile = this.hint && /^(deal|lobby|draw) /.test(this.hint) ? this.hint.split(" ")[1] : null;
    const last = this.lastMove ? this.lastMove.move.split(" ") : [];
    const lastPile = /^(deal|lobby|draw)$/.test(last[0]) ? last[1] : null;
    const lastPlayed = last[0] === "play" || last[0] === "lobby" ? new Set(last[0] === "play" ? last.slice(1) : view.lobby.slice(-1)) : new Set();
    const piles = view.piles.map(([suit, n]) => {
      const enabled = pileMoves.has(suit);
      const button = h(
        "button",
        {
          type: "button",
          class: `pile suit-${suit} ${enabled ? "choosable" : ""} ${hintPile === suit ? "hinted" : ""} ${lastPile === suit ? "last" : ""}`,
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
      ? view.lobby.map((c) => cardFace(c, { "data-card": c, class: lastPlayed.has(c) ? "last" : "" }))
      : [emptySpot(t("lobbyEmpty"))];
    const lobby = h(
      "div",
      { class: "lobby", "aria-label": t("lobby"), role: "group", "data-key": "lobby", "data-drop": "lobby" },
      h("h3", {}, t("lobby"), view.lobby_shape ? ` (${t(`shape_${view.lobby_shape}`)})` : ""),
      h("div", { class: "cardrow" }, lobbyCards),
    );
    return h(
      "section",
      { class: "centre", "aria-label": t("piles") },
      h("div", { class: "piles", role: "group", "aria-label": t("piles") }, piles),
      prompt ? h("p", { class: "prompt" }, prompt) : null,
      this.lastMove ? h("p", { class: "lastmove" }, t("lastMove", { move: describeMove("candidate", this.lastMove, this.names()) })) : null,
      lobby,
      view.discards.length
        ? h("div", { class: "discards" }, h("h3", {}, t("discards")), cardRow(view.discards, t("discards")))
        : null,
    );
  }

  /** Your hand and the actions together: on a phone a bar fixed at the bottom of the
   * screen, so on your turn both are in view without scrolling. */
  dock(canAct) {
    return h(
      "section",
      { class: `dock ${canAct ? "myturn" : ""}`, "aria-label": t("hand") },
      this.handRow(),
      this.why ? h("p", { class: "why", role: "status" }, this.why) : null,
      this.controls(canAct),
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
    // No Hint where the table allows none (a rated one never does): the server refuses it too.
    const hint = this.state.hints ? h("button", { type: "button", "data-key": "hint", id: "hint-button", disabled: !canAct }, t("hint")) : null;
    if (hint) hint.addEventListener("click", () => this.askHint());
    const hintText = this.hint
      ? h("p", { class: "hinttext", role: "status" }, t("hintIs", { move: moveText(this.hint) }))
      : null;
    return h(
      "div",
      { class: "controls" },
      chosen.length ? h("p", { class: "selection" }, t("selected", { cards: moveText(chosen.join(" ")) })) : null,
      h("div", { class: "buttons" }, play, clear, pass, hint),
      hintText,
      this.matchButtons(),
    );
  }

  /** Resign (confirmed first), Abort (before the first move) and Take back (a casual
   * game against bots): each only where the server says this seat may (state.may). */
  matchButtons() {
    const may = this.state.may || {};
    if (!may.resign && !may.abort && !may.takeback) return null;
    const ask = (kind) => () => {
      this.confirmResign = false;
      if (this.conn.request(kind)) this.draw();
    };
    if (this.confirmResign && may.resign) {
      const yes = h("button", { type: "button", class: "danger", "data-key": "resign-yes", id: "resign-yes" }, t("resignYes"));
      yes.addEventListener("click", ask("resign"));
      const no = h("button", { type: "button", "data-key": "resign-no" }, t("cancel"));
      no.addEventListener("click", () => {
        this.confirmResign = false;
        this.draw();
      });
      return h("div", { class: "matchbuttons confirm", role: "alertdialog", "aria-label": t("resign") }, h("p", {}, t("resignAsk")), yes, no);
    }
    const button = (kind, id, help, action) => {
      const el = h("button", { type: "button", class: "small", "data-key": kind, id, title: help || false }, t(kind));
      el.addEventListener("click", action);
      return el;
    };
    return h(
      "div",
      { class: "matchbuttons" },
      may.takeback ? button("takeback", "takeback-button", t("takebackHelp"), ask("takeback")) : null,
      may.abort ? button("abort", "abort-button", t("abortHelp"), ask("abort")) : null,
      may.resign
        ? button("resign", "resign-button", null, () => {
            this.confirmResign = true;
            this.draw();
            this.el.querySelector("#resign-yes")?.focus();
          })
        : null,
    );
  }
}
