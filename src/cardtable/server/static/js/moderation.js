// The moderators' pages (docs/server.md, "Moderation"):
//   /moderation       open reports: who reports whom and why, the reported player's
//                     chat lines and games (their replays), their fair-play signals
//                     (asked for per game: figures beside their levels, never a
//                     verdict), and the actions
//   /moderation/log   every action: when, who, to whom, what and why
// The server refuses all of it to anyone else (403); the pages say so.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

function tabs(current) {
  const link = (href, label) =>
    h("a", { href, "data-nav": "", "aria-current": current === href ? "page" : false }, label);
  return h("p", { class: "modtabs" }, link("/moderation", t("modTitle")), " · ", link("/moderation/log", t("modLog")));
}

async function refused(main, title, err) {
  const text = err && err.status === 403 ? t("modNotAllowed") : await apiErrorText(err);
  main.replaceChildren(h("section", { class: "panel missing", "data-missing": "" }, h("h1", {}, title), h("p", {}, text)));
}

/** The open reports, each with what a moderator needs to judge it and act. */
export function showModeration(main) {
  document.title = `${t("navModeration")} · cardtable`;
  main.replaceChildren(h("p", {}, t("loading")));
  const load = () =>
    api
      .reports()
      .then((reports) => {
        main.replaceChildren(
          h(
            "section",
            { class: "panel moderation", "data-moderation": "" },
            h("h1", {}, t("modTitle")),
            tabs("/moderation"),
            reports.length ? reports.map((r) => reportCard(r, load)) : h("p", { "data-none": "" }, t("modNone")),
          ),
        );
      })
      .catch((err) => refused(main, t("navModeration"), err));
  load();
}

function reportCard(report, reload) {
  const target = report.target;
  const state = [
    target.banned ? h("span", { class: "badge warn" }, t("modBanned")) : null,
    target.muted_until ? h("span", { class: "badge" }, t("modMuted", { until: when(target.muted_until) })) : null,
  ];
  return h(
    "article",
    { class: "report", "data-report-id": report.id, "data-target": target.name },
    h(
      "h2",
      {},
      t("modReport", { reporter: report.reporter, name: "" }),
      h("a", { href: `/player/${encodeURIComponent(target.name)}`, "data-nav": "" }, target.name),
      " · ",
      t(`category_${report.category}`),
    ),
    h("p", { class: "hint" }, when(report.at), " ", state),
    h("p", { class: "reason" }, t("modReason", { reason: report.reason })),
    h("h3", {}, t("modChat")),
    report.chat.length
      ? h(
          "ol",
          { class: "modchat" },
          report.chat.map((line) =>
            h(
              "li",
              { class: line.reported ? "reported" : "", "data-line": line.number },
              h("strong", {}, line.name),
              " ",
              h("span", { class: "chattext" }, line.text),
              line.reported ? [" ", h("span", { class: "badge warn" }, t("modReportedLine"))] : null,
            ),
          ),
        )
      : h("p", { class: "hint" }, t("modNoChat")),
    h("h3", {}, t("modGames")),
    h(
      "ul",
      { class: "modgames" },
      report.games.map((g) =>
        h(
          "li",
          { "data-table": g.table },
          t(g.game),
          " · ",
          g.players.map((p) => p || "?").join(", "),
          " · ",
          g.status === "finished"
            ? h("a", { href: `/replay/${encodeURIComponent(g.table)}`, "data-nav": "" }, t("replay"))
            : h("a", { href: `/watch/${encodeURIComponent(g.table)}`, "data-nav": "" }, t("watch")),
        ),
      ),
    ),
    fairplaySection(target.name),
    actionForm(report, reload),
  );
}

const pct = (x) => (x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)} %`);
const num = (x, digits = 2) => (x === null || x === undefined ? "—" : Number(x).toFixed(digits));

/** The reported player's fair-play signals in a game, asked for with its button. */
function fairplaySection(name) {
  const out = h("div", { class: "fairplay" });
  const ask = async (game) => {
    out.replaceChildren(h("p", { class: "hint" }, t("fpWorking")));
    try {
      out.replaceChildren(fairplayFigures(await api.fairplay(name, game)));
    } catch (err) {
      out.replaceChildren(h("p", { class: "banner warn" }, await apiErrorText(err)));
    }
  };
  return h(
    "section",
    { "data-fairplay": "" },
    h("h3", {}, t("fpTitle")),
    h("p", { class: "hint" }, t("fpHelp")),
    h(
      "p",
      { class: "actions" },
      ["candidate", "spy"].map((game) => h("button", { type: "button", "data-fairplay-game": game, onclick: () => ask(game) }, t(game))),
    ),
    out,
  );
}

/** One answer of /api/moderation/fairplay: the pooled figures beside their levels. */
function fairplayFigures(answer) {
  const s = answer.signals;
  if (!s) return h("p", { "data-fairplay-figures": "", "data-attention": "" }, t("fpNoGames", { game: t(answer.game) }));
  const unit = t(answer.game === "spy" ? "fpRounds" : "fpDeals");
  const summary = (a) => t("fpRate", { rate: pct(a.rate), low: pct(a.low), high: pct(a.high), n: a.decisions, units: a.games, unit });
  const rows = [
    [t("fpGames"), t("fpGamesValue", { n: answer.games.length, skipped: answer.skipped })],
    [t("fpAgreement"), summary(s.agreement)],
    [t("fpRecent", { n: s.levels.recent, unit }), `${summary(s.recent)} · ${t("fpLevel", { level: pct(s.levels.agreement) })}`],
    [
      t("fpHistory"),
      s.history ? `z = ${num(s.history.z)} · ${t("fpLevel", { level: num(s.levels.history_z, 1) })}` : t("fpNoHistory"),
    ],
  ];
  if (s.speed) {
    rows.push([
      t("fpSpeed"),
      t("fpSpeedValue", {
        median: num(s.speed.median_peak),
        max: num(s.speed.max_peak),
        flagged: s.speed.flagged,
        rounds: s.speed.rounds,
        limit: num(s.speed.limit, 1),
      }),
    ]);
  }
  const attention = s.attention.length ? s.attention.map((a) => t(`fpAttention_${a}`)).join(", ") : t("fpNothing");
  return h(
    "div",
    { "data-fairplay-figures": answer.game, "data-attention": s.attention.join(",") },
    h(
      "table",
      { class: "games fpfigures" },
      h(
        "tbody",
        {},
        rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))),
      ),
    ),
    h("p", { class: s.attention.length ? "banner warn" : "hint" }, t("fpPast", { what: attention })),
  );
}

function actionForm(report, reload) {
  const target = report.target;
  const reason = h("input", { type: "text", name: "reason", required: true, maxlength: 500 });
  const minutes = h("input", { type: "number", name: "minutes", min: 1, max: 525600, value: 60, inputmode: "numeric" });
  const newName = h("input", { type: "text", name: "new_name", maxlength: 24, autocomplete: "off" });
  const actions = ["warn", "mute", target.muted_until ? "unmute" : null, target.banned ? "unban" : "ban", "rename", "close"].filter(Boolean);
  const form = h(
    "form",
    { class: "modactions" },
    h("label", { class: "field" }, h("span", {}, t("modActionReason")), reason),
    h(
      "div",
      { class: "modfields" },
      h("label", { class: "field" }, h("span", {}, t("modMinutes")), minutes),
      h("label", { class: "field" }, h("span", {}, t("modNewName")), newName),
    ),
    h(
      "div",
      { class: "actions" },
      actions.map((action) =>
        h("button", { type: "submit", value: action, "data-act": action, class: action === "ban" ? "danger" : "" }, t(`act_${action}`)),
      ),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const action = /** @type {HTMLButtonElement} */ (event.submitter).value;
    const body = { action, reason: reason.value.trim(), report: report.id };
    if (action !== "close") body.name = target.name;
    if (action === "mute") body.minutes = Number(minutes.value);
    if (action === "rename") body.new_name = newName.value.trim();
    try {
      const done = await api.moderate(body);
      toast(t("modDone", { action: t(`act_${action}`), name: done.name }), "info", 4000);
      reload();
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  return form;
}

/** Every moderator's action, newest first. */
export function showModerationLog(main) {
  document.title = `${t("modLog")} · cardtable`;
  main.replaceChildren(h("p", {}, t("loading")));
  api
    .moderationLog()
    .then((lines) => {
      main.replaceChildren(
        h(
          "section",
          { class: "panel moderation", "data-modlog": "" },
          h("h1", {}, t("modLog")),
          tabs("/moderation/log"),
          lines.length
            ? h(
                "table",
                { class: "games modlog" },
                h("thead", {}, h("tr", {}, [t("modWhen"), t("modWho"), t("modWhom"), t("modWhat"), t("modWhy")].map((c) => h("th", {}, c)))),
                h(
                  "tbody",
                  {},
                  lines.map((line) =>
                    h(
                      "tr",
                      { "data-action": line.action },
                      h("td", {}, when(line.at)),
                      h("td", {}, line.moderator),
                      h("td", {}, line.target),
                      h("td", {}, t(`act_${line.action}`), detail(line)),
                      h("td", {}, line.reason),
                    ),
                  ),
                ),
              )
            : h("p", {}, t("modLogEmpty")),
        ),
      );
    })
    .catch((err) => refused(main, t("modLog"), err));
}

function detail(line) {
  if (line.action === "mute") return ` (${line.details.minutes} ${t("modMinutes").toLowerCase()})`;
  if (line.action === "rename") return ` → ${line.details.to}`;
  return "";
}
