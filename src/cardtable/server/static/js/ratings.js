// A signed-in player's rating in one game, as the server shows it: its `label`
// ("1641", or "1562?" while provisional). The server alone computes the number
// (docs/server.md, Ratings); this module only fetches the player's profile once per
// page and remembers the label, so the table's seats and the seek list say the same.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** name → Promise of the profile's ratings by game (null: no such player). */
const profiles = new Map();
/** name → ratings by game, once fetched. */
const known = new Map();
/** The names fetched that are bot accounts (docs/bot-api.md): they carry a BOT mark. */
const bots = new Set();

/** Forget what was fetched (a page that shows ratings starts afresh: games end). */
export function forgetRatings() {
  profiles.clear();
  known.clear();
  bots.clear();
}

/**
 * The rating label of `name` in `game`: a string, "" when the player has no rating in
 * that game, or undefined while it is being fetched — then `loaded` is called once it
 * is known, so the caller can draw again.
 * @param {string} name
 * @param {string} game
 * @param {() => void} loaded
 * @returns {string | undefined}
 */
export function ratingLabel(name, game, loaded) {
  if (known.has(name)) {
    const rating = known.get(name)[game];
    return rating ? rating.label : "";
  }
  if (!profiles.has(name)) {
    const asked = api
      .player(name)
      .then((profile) => {
        if (profile.bot) bots.add(name);
        return Object.fromEntries(profile.ratings.map((r) => [r.game, r]));
      })
      .catch(() => ({}))
      .then((byGame) => {
        known.set(name, byGame);
        return byGame;
      });
    profiles.set(name, asked);
  }
  profiles.get(name).then(() => loaded());
  return undefined;
}

/**
 * A small rating badge for a signed-in player (nothing for a guest, a bot, or a player
 * without a rating in the game yet).
 * @param {{name: string, signed_in?: boolean}} who
 * @param {string} game
 * @param {() => void} loaded
 */
export function ratingBadge(who, game, loaded) {
  if (!who.signed_in || !who.name) return null;
  const label = ratingLabel(who.name, game, loaded);
  if (bots.has(who.name)) return botBadge();
  if (!label) return null;
  return h("span", { class: "ratingbadge", "data-rating": label, title: t("ratingTitle") }, label);
}

/** The BOT mark of a bot account's name (docs/bot-api.md). */
export function botBadge() {
  return h("span", { class: "botbadge", "data-bot": "", title: t("botTitle") }, t("botMark"));
}
