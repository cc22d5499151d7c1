// The page that says something is not there (a table, a game, an address), in the
// app's style, with the way back to the lobby.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Show that ``title`` is missing, saying ``text``, with a link to the lobby and an
 * optional ``other`` link ({href, label}) as the first choice. */
export function showMissing(main, title, text, other = null) {
  document.title = `${title} · cardtable`;
  main.replaceChildren(
    h(
      "section",
      { class: "panel missing", "data-missing": "" },
      h("h1", {}, title),
      h("p", {}, text),
      h(
        "p",
        { class: "actions" },
        other ? h("a", { href: other.href, "data-nav": "", class: "button primary" }, other.label) : null,
        h("a", { href: "/", "data-nav": "", class: other ? "button" : "button primary" }, t("toLobby")),
      ),
    ),
  );
}
