// The account page's personal API tokens (docs/bot-api.md): list, make, revoke. A token
// lets a program play as this account through the Bot API once the account is a bot;
// the server shows a new token once and keeps only its digest.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";

/** The section of the account page. */
export function tokensSection() {
  const list = h("ul", { class: "tokens", "data-tokens": "" }, h("li", {}, t("loading")));
  const shown = h("p", { class: "hint", "data-new-token": "", hidden: true });
  const name = h("input", { type: "text", id: "token-name", required: true, maxlength: 64, value: "bot" });
  const play = h("input", { type: "checkbox", id: "scope-play", checked: true });
  const read = h("input", { type: "checkbox", id: "scope-read" });
  const draw = (tokens) => {
    list.replaceChildren(
      ...(tokens.length
        ? tokens.map((token) =>
            h(
              "li",
              { "data-token": token.id },
              h("strong", {}, token.name),
              ` · ${token.scopes.join(", ")} · `,
              token.last_used_at
                ? t("tokenUsed", { date: new Date(token.last_used_at * 1000).toLocaleString() })
                : t("tokenUnused"),
              " ",
              h("button", { type: "button", class: "small", "data-revoke": token.id, onclick: () => revoke(token.id) }, t("tokenRevoke")),
            ),
          )
        : [h("li", {}, t("tokenNone"))]),
    );
  };
  const load = () =>
    api
      .tokens()
      .then(draw)
      .catch(async (err) => toast(await apiErrorText(err)));
  const revoke = async (id) => {
    try {
      await api.revokeToken(id);
      shown.hidden = true;
      await load();
    } catch (err) {
      toast(await apiErrorText(err));
    }
  };
  const form = h(
    "form",
    { class: "accountform", "data-api-tokens": "" },
    h("h2", {}, t("tokensTitle")),
    h("p", { class: "hint" }, t("tokensHelp")),
    list,
    shown,
    h("label", { class: "field" }, h("span", {}, t("tokenName")), name),
    h("label", {}, play, " ", t("scopePlay")),
    h("label", {}, read, " ", t("scopeRead")),
    h("p", { class: "actions" }, h("button", { type: "submit" }, t("tokenMake"))),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const scopes = [...(play.checked ? ["bot:play"] : []), ...(read.checked ? ["games:read"] : [])];
    try {
      const made = await api.makeToken(name.value.trim(), scopes);
      shown.textContent = t("tokenShownOnce", { token: made.token });
      shown.hidden = false;
      await load();
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  load();
  return form;
}
