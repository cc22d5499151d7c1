// The games' options as forms show them: the create form of the lobby, the next game
// with the same seats (nextgame.js), the rounds of a tournament (tournaments.js) and
// Play now (seek.js). A module of its own, so none of those imports another page.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Seats each game takes: [fewest, most]. */
export const GAME_SEATS = { candidate: [2, 2], spy: [2, 8] };

/** The option fields of `game`, as the create form shows them (values: `options`). */
export function optionFields(game, options = {}) {
  const value = (name, fallback) => options[name] ?? fallback;
  if (game === "spy") {
    return [
      field(t("rounds"), h("input", { type: "number", name: "rounds", min: 1, max: 99, value: value("rounds", 5) })),
      field(t("bonus"), h("input", { type: "number", name: "bonus", min: -1000, max: 1000, value: value("bonus", 20) })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "full_decks", checked: value("full_decks", false) }), t("fullDecks")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "count_points_pile", checked: value("count_points_pile", false) }), t("countPoints")),
    ];
  }
  return [
    field(t("decks"), h("select", { name: "decks" }, [1, 2, 3].map((n) => h("option", { value: n, selected: n === value("decks", 1) }, n)))),
    field(t("deals"), h("input", { type: "number", name: "deals", min: 1, max: 12, value: value("deals", 12) })),
  ];
}

/** The options of `game` read back from a form's data (FormData) of optionFields. */
export function readOptions(data, game) {
  return game === "spy"
    ? {
        rounds: Number(data.get("rounds")),
        bonus: Number(data.get("bonus")),
        full_decks: data.get("full_decks") === "on",
        count_points_pile: data.get("count_points_pile") === "on",
      }
    : { decks: Number(data.get("decks")), deals: Number(data.get("deals")) };
}

/** A game's options in a few words: "Candidate · Deals 12 · Decks 1". */
export function optionsText(game, options) {
  const parts = [t(game)];
  if (game === "spy") parts.push(`${t("rounds")} ${options.rounds}`);
  else parts.push(`${t("deals")} ${options.deals}`, `${t("decks")} ${options.decks}`);
  return parts.join(" · ");
}

/** A labelled form field: `label` above `control`. */
export function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}
