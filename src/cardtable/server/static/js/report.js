// Reporting a player to the moderators: a dialog with what about (chat, name, play)
// and why, opened from a player's profile or from a line of a table's chat (which
// sends the table and the line's number along, so the moderator sees that line).

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";

const CATEGORIES = ["chat", "name", "play"];

/**
 * Open the report dialog for the player `name`.
 * @param {string} name
 * @param {{category?: string, table?: string, line?: number, text?: string}} about
 */
export function openReport(name, about = {}) {
  const choice = h(
    "select",
    { id: "report-category", name: "category" },
    CATEGORIES.map((c) => h("option", { value: c, selected: c === (about.category || "chat") }, t(`category_${c}`))),
  );
  const reason = h("textarea", { id: "report-reason", required: true, maxlength: 500, rows: 3 });
  const error = h("p", { class: "banner warn", role: "alert", hidden: true });
  const cancel = h("button", { type: "button" }, t("cancel"));
  const form = h(
    "form",
    { class: "reportform", method: "dialog", "data-report": name },
    h("h2", { id: "report-title" }, t("reportTitle", { name })),
    about.text ? h("p", { class: "hint" }, t("reportLine", { text: about.text })) : null,
    h("label", { class: "field" }, h("span", {}, t("reportWhat")), choice),
    h("label", { class: "field" }, h("span", {}, t("reportReason")), reason),
    error,
    h("div", { class: "actions" }, cancel, h("button", { type: "submit", class: "primary" }, t("reportSend"))),
  );
  const box = h("dialog", { class: "modal", "aria-labelledby": "report-title" }, form);
  cancel.addEventListener("click", () => box.close());
  box.addEventListener("close", () => box.remove());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      await api.report({
        name,
        category: choice.value,
        reason: reason.value.trim(),
        ...(about.table ? { table: about.table } : {}),
        ...(about.line ? { line: about.line } : {}),
      });
      box.close();
      toast(t("reportSent"), "info", 4000);
    } catch (err) {
      error.textContent = await apiErrorText(err);
      error.hidden = false;
    }
  });
  document.body.append(box);
  box.showModal();
  reason.focus();
  return box;
}
