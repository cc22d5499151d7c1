// The rules page: docs/rules/GAME.LANG.md, rendered to HTML by the server (CommonMark
// with tables: nested lists stay lists; raw HTML in a page is escaped there, so nothing
// in a page becomes markup), with a link to the game's tutorial above it.

import { api } from "./api.js";
import { append, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { tutorialLink } from "./tutorial.js";

export function showRules(main, game) {
  const article = h("article", { class: "rules panel", lang: lang() }, t("loading"));
  append(main, h("h1", { class: "visually-hidden" }, t("rulesOf")), tutorialLink(game), article);
  api
    .rules(game, lang())
    .then((data) => {
      article.innerHTML = data.html;
    })
    .catch((err) => {
      article.textContent = t("err_generic", { detail: err.message });
    });
  return () => {};
}
