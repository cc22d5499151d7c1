// After a match: the next game with the same seats, for everyone at the table. A seated
// player asks for a rematch (the same game and options) or a new game (chosen here);
// the server deals it and tells the old table over its WebSocket (state.rematch), and
// every player is offered it: one click takes their seat there (bots keep their levels).

import { api, saveSeat, savedSeat } from "./api.js";
import { announce, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { GAME_SEATS, optionFields, optionsText, readOptions } from "./options.js";
import { navigate } from "./nav.js";

/**
 * The "next game" part of a finished table's result: `update(state, message)` after every
 * state; `el` goes into the result's actions (kept across re-renders, so a half-filled
 * form survives an update).
 */
export function nextGame(tableId, mine) {
  const el = h("div", { class: "nextgame", "data-part": "next" });
  let shown = null; // the state.rematch on screen ("" for none)
  let asker = null; // who asked for it, when this page heard the announcement
  let formOpen = false;
  let last = null;

  async function go(next) {
    try {
      const seated = await api.rematch(tableId, mine.token, next);
      saveSeat(seated.table.id, { seat: seated.seat, token: seated.token, name: mine.name });
      navigate(`/play/${seated.table.id}`);
    } catch (err) {
      toast(t("err_generic", { detail: await apiErrorText(err) }));
    }
  }

  function offers(state) {
    const rematch = h("button", { type: "button", class: "primary", "data-action": "rematch" }, t("rematch"));
    rematch.addEventListener("click", () => go({}));
    const other = h("button", { type: "button", "data-action": "newgame", "aria-expanded": "false" }, t("newGame"));
    other.addEventListener("click", () => {
      formOpen = true;
      draw(state);
      el.querySelector("select[name=nextgame]").focus();
    });
    return [rematch, other, formOpen ? newGameForm(state) : null];
  }

  function newGameForm(state) {
    const seats = state.seats.length;
    const fitting = Object.keys(GAME_SEATS).filter((g) => GAME_SEATS[g][0] <= seats && seats <= GAME_SEATS[g][1]);
    const game = h("select", { name: "nextgame" }, fitting.map((g) => h("option", { value: g, selected: g === state.game }, t(g))));
    const fields = h("fieldset", { class: "options" });
    const drawFields = () => fields.replaceChildren(...optionFields(game.value));
    game.addEventListener("change", drawFields);
    drawFields();
    const cancel = h("button", { type: "button" }, t("cancel"));
    cancel.addEventListener("click", () => {
      formOpen = false;
      draw(state);
    });
    const form = h(
      "form",
      { class: "newgame", "aria-label": t("newGame") },
      h("label", { class: "field" }, h("span", {}, t("game")), game),
      fields,
      h("p", { class: "note" }, t("newGameHelp")),
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, t("startNew")), cancel),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      go({ game: game.value, options: readOptions(new FormData(form), game.value) });
    });
    return form;
  }

  async function offered(state) {
    const id = state.rematch;
    let what = t("nextReady");
    try {
      const next = await api.table(id);
      const by = asker !== null ? state.seats[asker] : null;
      const game = optionsText(next.game, next.options);
      what = by && by.name ? t("nextBy", { name: by.name, game }) : t("nextIs", { game });
    } catch {
      // the offer stands without its details
    }
    if (shown !== id) return; // a newer state replaced it meanwhile
    let action;
    if (savedSeat(id)) {
      action = h("a", { href: `/play/${id}`, "data-nav": "", class: "button primary", "data-action": "join-next" }, t("goNext"));
    } else if (mine && state.seat !== null) {
      action = h("button", { type: "button", class: "primary", "data-action": "join-next" }, t("joinNext"));
      action.addEventListener("click", () => go({}));
    } else {
      action = h("a", { href: `/watch/${id}`, "data-nav": "", class: "button", "data-action": "watch-next" }, t("watchNext"));
    }
    el.replaceChildren(h("p", { class: "nextoffer", role: "status" }, what), action);
    announce(what);
    // Announced just now (not found on a reload): bring the offer into view.
    if (asker !== null) el.scrollIntoView({ block: "center" });
  }

  function draw(state) {
    if (state.rematch) {
      el.replaceChildren();
      offered(state);
      return;
    }
    el.replaceChildren(...(mine && state.seat !== null ? offers(state).filter(Boolean) : [])); // no "null" for a closed form
    const toggle = el.querySelector("[data-action=newgame]");
    if (toggle) toggle.setAttribute("aria-expanded", String(formOpen));
  }

  return {
    el,
    update(state, message) {
      if (message && message.type === "update" && message.event && message.event.type === "rematch") {
        asker = message.event.seat ?? null;
      }
      const key = state.rematch || "";
      const first = last === null;
      last = state;
      if (!first && shown === key) return; // nothing new to offer: keep the form as it is
      shown = key;
      draw(state);
    },
  };
}
