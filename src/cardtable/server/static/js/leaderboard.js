// The leaderboard page (/leaderboard?game=candidate|spy): the best-rated players of one
// game as the server ranks and shows them (GET /api/ratings): settled ratings first,
// then provisional ones ("1562?"). The numbers come from the server as they are shown.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

const GAMES = ["candidate", "spy"];

/**
 * Show the leaderboard of `game` (Candidate when it is not one of the games).
 * @param {HTMLElement} main
 * @param {string | null} game
 */
export function showLeaderboard(main, game) {
  const chosen = GAMES.includes(game ?? "") ? game : GAMES[0];
  document.title = `${t("leaderboardOf", { game: t(chosen) })} · cardtable`;
  const body = h("div", { class: "lbbody", "aria-live": "polite" });
  const tabs = h(
    "nav",
    { class: "lbtabs", "aria-label": t("navLeaderboard") },
    GAMES.map((g) =>
      h("a", { href: `/leaderboard?game=${g}`, "data-nav": "", "data-game": g, class: "button", "aria-current": g === chosen ? "page" : false }, t(g)),
    ),
  );
  main.replaceChildren(
    h("section", { class: "panel leaderboard", "data-leaderboard": chosen }, h("h1", {}, t("leaderboardOf", { game: t(chosen) })), tabs, body),
  );
  let alive = true;
  api
    .leaderboard(chosen)
    .then((board) => {
      if (alive) fill(body, h("p", { class: "note" }, t("leaderboardHelp", { n: board.provisional_games })), rows(board, chosen));
    })
    .catch(() => {
      // Only the network can fail here: the page asks for one of the offered games.
      if (alive) fill(body, h("p", { class: "banner warn", role: "alert" }, t("err_network")));
    });
  return () => {
    alive = false;
  };
}

/** The board's table, or a line saying nobody is rated yet. */
function rows(board, game) {
  if (!board.entries.length) return h("p", { "data-empty": "" }, t("leaderboardEmpty", { game: t(game) }));
  return h(
    "table",
    { class: "lbtable" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("lbRank")), h("th", { scope: "col" }, t("lbPlayer")), h("th", { scope: "col" }, t("lbRating")), h("th", { scope: "col" }, t("lbGames")), h("th", { scope: "col", class: "wl" }, t("lbWonLost"))),
    ),
    h(
      "tbody",
      {},
      board.entries.map((e, i) =>
        h(
          "tr",
          { "data-player": e.name, class: e.provisional ? "provisional" : "" },
          h("td", {}, String(i + 1)),
          h("td", {}, h("a", { href: `/player/${encodeURIComponent(e.name)}`, "data-nav": "" }, e.name)),
          h("td", { class: "lbrating", title: t("ratingTitle") }, e.label),
          h("td", {}, String(e.games)),
          h("td", { class: "wl" }, `${e.wins} · ${e.losses}`),
        ),
      ),
    ),
  );
}
