// Tournaments in the lobby and at /tournaments: the lists (upcoming, running, finished)
// and, for a signed-in player, the form that creates one (docs/server.md, "Tournaments").
// The server checks every field; its refusals are shown in the player's language by
// their message id (messages.js), and the field it names is marked.

import { signedIn } from "./account.js";
import { api, saveTournamentCode } from "./api.js";
import { fill, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { refusalText } from "./messages.js";
import { optionFields, readOptions } from "./options.js";
import { navigate } from "./nav.js";
import { CLOCKS, timeControlText } from "./seek.js";

/** The formats each game is played in, the first one the default. */
export const GAME_FORMATS = { candidate: ["swiss", "arena"], spy: ["race", "arena"] };

/** Game options a tournament's round starts from: short matches. */
const ROUND_OPTIONS = { candidate: { deals: 2, decks: 1 }, spy: { rounds: 3, bonus: 20 } };

const STATUSES = ["running", "upcoming", "finished"];
const REFRESH_MS = 5000;

/** A date and time in the player's language and time zone. */
export function whenText(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(lang() === "en" ? "en-GB" : lang(), { dateStyle: "medium", timeStyle: "short" });
}

/** "1:02:03" or "4:05" for a number of seconds (none below zero). */
export function durationText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The small marks of a tournament: its format, duplicate, rated, invite only. */
export function badges(summary) {
  return [
    h("span", { class: "badge format" }, t(`tnFormat_${summary.format}`)),
    summary.duplicate ? h("span", { class: "badge duplicate", title: t("tnDuplicateHelp") }, t("tnDuplicate")) : null,
    summary.rated ? h("span", { class: "badge rated" }, t("rated")) : null,
    summary.access === "invite" ? h("span", { class: "badge invite" }, t("tnInviteOnly")) : null,
  ];
}

/** Where a tournament is: its start, its round, or its end. */
export function progressText(summary) {
  if (summary.status === "upcoming") return t("tnStartsAt", { when: whenText(summary.starts_at) });
  if (summary.status === "finished") return t("tnFinished");
  if (summary.format === "arena") return t("tnArenaRunning", { minutes: summary.minutes });
  return t("tnRoundOf", { round: summary.round, rounds: roundCount(summary) });
}

function tournamentRow(summary) {
  return h(
    "li",
    { class: "tablerow tournamentrow", "data-tournament": summary.id, "data-status": summary.status },
    h("a", { href: `/tournament/${summary.id}`, "data-nav": "", class: "tname" }, summary.name),
    h("span", {}, t(summary.game)),
    badges(summary),
    h("span", { class: "who" }, progressText(summary), " · ", t("tnPlayersN", { n: summary.players })),
    h(
      "span",
      { class: "rowactions" },
      h("a", { href: `/tournament/${summary.id}`, "data-nav": "", class: "button small" }, t(summary.status === "finished" ? "tnResults" : "tnOpen")),
    ),
  );
}

/**
 * The tournaments' lists: an element and `refresh()`. `compact` (the lobby) leaves out
 * all but the last few finished ones.
 */
export function tournamentLists({ compact = false } = {}) {
  const lists = Object.fromEntries(
    STATUSES.map((status) => [status, h("div", { class: "tablelist", "data-list": status, "aria-live": "polite" }, t("loading"))]),
  );
  const element = h(
    "div",
    { class: "tournamentlists" },
    STATUSES.map((status) => [h("h3", {}, t(`tnList_${status}`)), lists[status]]),
  );
  async function refresh() {
    try {
      const answers = await Promise.all(STATUSES.map((status) => api.tournaments(status)));
      STATUSES.forEach((status, i) => {
        let found = answers[i].tournaments || [];
        if (compact && status === "finished") found = found.slice(0, 5);
        fill(lists[status], found.length ? h("ul", { class: "tables" }, found.map(tournamentRow)) : h("p", { class: "note" }, t(`tnNone_${status}`)));
      });
    } catch {
      for (const status of STATUSES) fill(lists[status], h("p", { class: "error" }, t("err_network")));
    }
  }
  return { element, refresh };
}

/** The lobby's section: the lists and the way to all tournaments and the create form. */
export function lobbyTournaments() {
  const lists = tournamentLists({ compact: true });
  const element = h(
    "section",
    { class: "panel", id: "tournaments", "aria-labelledby": "tournaments-h" },
    h("h2", { id: "tournaments-h" }, t("tnTitle")),
    h("p", { class: "note" }, t("tnLobbyHelp")),
    h("p", { class: "actions" }, h("a", { href: "/tournaments", "data-nav": "", class: "button", "data-action": "all-tournaments" }, signedIn() ? t("tnAllAndCreate") : t("tnAll"))),
    lists.element,
  );
  return { element, refresh: lists.refresh };
}

/** The /tournaments page: every list, and the create form for a signed-in player. */
export function showTournaments(main) {
  document.title = `${t("tnTitle")} · cardtable`;
  const lists = tournamentLists();
  const me = signedIn();
  main.append(
    h(
      "section",
      { class: "panel", "aria-labelledby": "tlist-h" },
      h("h1", { id: "tlist-h" }, t("tnTitle")),
      h("p", { class: "note" }, t("tnLobbyHelp")),
      lists.element,
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "tcreate-h" },
      h("h2", { id: "tcreate-h" }, t("tnCreate")),
      me ? createForm() : h("p", { class: "hint", "data-signin-hint": "" }, t("tnSignInToCreate"), " ", h("a", { href: "/signin", "data-nav": "" }, t("signIn"))),
    ),
  );
  lists.refresh();
  const timer = setInterval(lists.refresh, REFRESH_MS);
  return () => clearInterval(timer);
}

function field(label, control, extra = {}) {
  return h("label", { class: "field", ...extra }, h("span", {}, label), control);
}

/** Minutes from now as the value of a datetime-local input (the player's own time). */
function localInputValue(minutes) {
  const at = new Date(Date.now() + minutes * 60000);
  at.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

function createForm() {
  const form = h("form", { class: "create tournamentform", novalidate: true, "aria-labelledby": "tcreate-h" });
  const name = h("input", { type: "text", name: "name", maxlength: 60, autocomplete: "off" });
  const game = h("select", { name: "game" }, ["candidate", "spy"].map((g) => h("option", { value: g }, t(g))));
  const format = h("select", { name: "format" });
  const rounds = h("input", { type: "number", name: "rounds", min: 1, max: 20, value: 3 });
  const minutes = h("input", { type: "number", name: "minutes", min: 1, max: 1440, value: 30 });
  const tableSize = h("input", { type: "number", name: "table_size", min: 2, max: 8, value: 4 });
  const breakSeconds = h("input", { type: "number", name: "break_seconds", min: 0, max: 3600, value: 30 });
  const duplicate = h("input", { type: "checkbox", name: "duplicate" });
  const options = h("fieldset", { class: "options" });
  const clock = h("select", { name: "clock" }, Object.entries(CLOCKS).map(([key, tc]) => h("option", { value: key, selected: key === "5+5" }, timeControlText(tc))));
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const access = h("select", { name: "access" }, h("option", { value: "open" }, t("tnAccessOpen")), h("option", { value: "invite" }, t("tnAccessInvite")));
  const bots = h("input", { type: "checkbox", name: "bots_allowed" });
  const botAccounts = h("input", { type: "checkbox", name: "bots" });
  const startIn = h("input", { type: "number", name: "start_in", min: 0, max: 10080, value: 10 });
  const startsAt = h("input", { type: "datetime-local", name: "starts_at", value: localInputValue(60) });
  const whenIn = h("input", { type: "radio", name: "when", value: "in", checked: true });
  const whenAt = h("input", { type: "radio", name: "when", value: "at" });
  const error = h("p", { class: "banner error", role: "alert", hidden: true, "data-create-error": "" });

  const roundsField = field(t("tnRoundsField"), rounds);
  const minutesField = field(t("tnMinutes"), minutes);
  const sizeField = field(t("tnTableSize"), tableSize);
  const breakField = field(t("tnBreak"), breakSeconds);
  const duplicateField = h(
    "div",
    { class: "duplicatefield" },
    h("label", { class: "check" }, duplicate, t("tnDuplicate")),
    h("p", { class: "note" }, t("tnDuplicateHelpLong")),
  );

  function drawFormat() {
    const kept = format.value;
    fill(format, GAME_FORMATS[game.value].map((f) => h("option", { value: f, selected: f === kept }, t(`tnFormat_${f}`))));
    drawFields();
  }
  function drawFields() {
    const arena = format.value === "arena";
    roundsField.hidden = arena;
    minutesField.hidden = !arena;
    breakField.hidden = arena;
    // Spy races are seated at tables of this size, in race rounds and in an arena.
    sizeField.hidden = game.value !== "spy";
    duplicateField.hidden = arena;
    fill(options, h("legend", {}, t("tnGameOptions")), optionFields(game.value, ROUND_OPTIONS[game.value]));
  }
  const syncWhen = () => {
    startIn.disabled = !whenIn.checked;
    startsAt.disabled = !whenAt.checked;
  };
  game.addEventListener("change", drawFormat);
  format.addEventListener("change", drawFields);
  whenIn.addEventListener("change", syncWhen);
  whenAt.addEventListener("change", syncWhen);
  drawFormat();
  syncWhen();

  form.append(
    field(t("tnName"), name),
    h("div", { class: "formrow" }, field(t("game"), game), field(t("tnFormat"), format)),
    h("p", { class: "note", "data-format-help": "" }, t("tnFormatHelp")),
    h("div", { class: "formrow" }, roundsField, minutesField, sizeField, breakField),
    duplicateField,
    options,
    field(t("timeControl"), clock),
    h("label", { class: "check" }, rated, t("rated")),
    h("div", { class: "formrow" }, field(t("tnAccess"), access)),
    h("label", { class: "check" }, bots, t("tnBotsAllowed")),
    h("label", { class: "check" }, botAccounts, t("tnBotAccounts")),
    h(
      "fieldset",
      { class: "when" },
      h("legend", {}, t("tnStart")),
      h("label", { class: "check" }, whenIn, t("tnStartIn"), startIn, t("tnMinutesShort")),
      h("label", { class: "check" }, whenAt, t("tnStartAt"), startsAt),
    ),
    error,
    h("button", { type: "submit", class: "primary", "data-action": "create-tournament" }, t("tnCreateButton")),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const data = new FormData(form);
    const arena = format.value === "arena";
    const request = {
      name: name.value.trim(),
      game: game.value,
      format: format.value,
      duplicate: !arena && duplicate.checked,
      options: readOptions(data, game.value),
      clock: CLOCKS[clock.value],
      rated: rated.checked,
      access: access.value,
      bots_allowed: bots.checked,
      bots: botAccounts.checked,
    };
    if (arena) request.minutes = Number(minutes.value);
    else {
      request.rounds = Number(rounds.value);
      request.break_seconds = Number(breakSeconds.value);
    }
    if (game.value === "spy") request.table_size = Number(tableSize.value);
    if (whenIn.checked) request.start_in = Math.round(Number(startIn.value) * 60);
    else {
      const at = new Date(startsAt.value);
      request.starts_at = Number.isNaN(at.getTime()) ? startsAt.value : at.toISOString();
    }
    try {
      const made = await api.createTournament(request);
      if (made.invite_code) saveTournamentCode(made.id, made.invite_code);
      navigate(`/tournament/${made.id}`);
    } catch (err) {
      error.textContent = t("tnCreateRefused", { detail: await tournamentErrorText(err) });
      error.hidden = false;
      const named = (err.params && err.params.field) || (err.problems && err.problems.length ? FIELD_INPUT[err.problems[0].field.split(".")[0]] : null);
      const bad = named ? form.querySelector(`[name="${CSS.escape(named)}"]`) : null;
      if (bad) {
        bad.setAttribute("aria-invalid", "true");
        bad.focus();
      } else {
        error.scrollIntoView({ block: "center" });
      }
    }
  });
  return form;
}

/** The form's label of each request field (its input is named alike, but for the start). */
const FIELD_LABEL = {
  name: "tnName",
  game: "game",
  format: "tnFormat",
  rounds: "tnRoundsField",
  minutes: "tnMinutes",
  table_size: "tnTableSize",
  break_seconds: "tnBreak",
  options: "tnGameOptions",
  clock: "timeControl",
  access: "tnAccess",
  start_in: "tnStart",
  starts_at: "tnStart",
};
const FIELD_INPUT = { name: "name", rounds: "rounds", minutes: "minutes", table_size: "table_size", break_seconds: "break_seconds", start_in: "start_in", starts_at: "starts_at" };

/** One refused field in the player's language: "Rounds: at least 1." (the server's
 * English sentence for a check this client has no words for). */
function problemText(problem) {
  const top = problem.field.split(".")[0];
  const label = FIELD_LABEL[top] ? t(FIELD_LABEL[top]) : problem.field;
  const ctx = problem.ctx || {};
  const said = {
    greater_than_equal: () => t("tnCheckAtLeast", { n: ctx.ge }),
    greater_than: () => t("tnCheckAbove", { n: ctx.gt }),
    less_than_equal: () => t("tnCheckAtMost", { n: ctx.le }),
    less_than: () => t("tnCheckBelow", { n: ctx.lt }),
    string_too_short: () => t("tnCheckEmpty"),
    string_too_long: () => t("tnCheckTooLong", { n: ctx.max_length }),
    string_pattern_mismatch: () => t("tnCheckCharacters"),
    missing: () => t("tnCheckMissing"),
    int_parsing: () => t("tnCheckWhole"),
    int_from_float: () => t("tnCheckWhole"),
    float_parsing: () => t("tnCheckNumber"),
  }[problem.type];
  return `${label}: ${said ? said() : problem.msg}.`;
}

/**
 * A refused tournament request in the player's language: each refused field; else the
 * server's catalog message for its id; else this client's words for the code
 * ("tournament.started" → tnErr_started); else the server's English sentence.
 */
export async function tournamentErrorText(err) {
  if (err && err.problems && err.problems.length) return err.problems.map(problemText).join(" ");
  const fromServer = err && err.messageId ? await refusalText(err.messageId, err.params) : null;
  if (fromServer) return fromServer;
  const code = err && err.messageId && err.messageId.startsWith("tournament.") ? err.messageId.slice("tournament.".length) : err && err.code;
  const params = { ...((err && err.params) || {}) };
  if (params.opens_at) params.when = whenText(params.opens_at);
  if (params.format) params.format = t(`tnFormat_${params.format}`);
  if (params.game) params.game = t(params.game);
  const key = `tnErr_${code}`;
  const said = t(key, params);
  return said === key ? apiErrorText(err) : said;
}

/** How many rounds the tournament has (its detail's "rounds" lists them; the spec and
 * the summary count them). */
export function roundCount(data) {
  if (typeof data.rounds === "number") return data.rounds;
  return (data.spec && data.spec.rounds) || (data.rounds || []).length;
}
