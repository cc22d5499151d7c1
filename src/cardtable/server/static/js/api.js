// The server's HTTP API (see /docs), and the seats this browser holds.

import { chosenLang, lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, messageId = null, params = {}, problems = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.messageId = messageId; // to say it in the player's language (messages.js)
    this.params = params;
    // A request its fields' checks refused (422): [{field, type, ctx, msg}], one a field.
    this.problems = problems;
  }
}

async function call(method, path, body, extra = {}) {
  let response;
  try {
    response = await fetch(path, {
      ...extra, // keepalive: a cancel sent as the page closes still arrives
      method,
      // The custom header is what makes a change signed in by cookie CSRF-safe (the
      // server refuses such a change without it).
      headers: {
        "X-Cardtable-Client": "web",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "network");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && data.detail;
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      throw new ApiError(
        response.status,
        detail.code || "error",
        detail.message || "",
        detail.message_id || null,
        detail.params || {},
      );
    }
    // FastAPI's validation errors: a list naming the fields.
    const text = Array.isArray(detail)
      ? detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
      : String(detail || response.statusText);
    const problems = Array.isArray(detail)
      ? detail.map((d) => ({ field: (d.loc || []).slice(1).join("."), type: d.type || "", ctx: d.ctx || {}, msg: d.msg || "" }))
      : [];
    throw new ApiError(response.status, "bad_request", text, null, {}, problems);
  }
  return data;
}

export const api = {
  // Accounts: the session is an HttpOnly cookie the server sets and clears.
  // Who is signed in: {account: {name} | null}; 200 for guests too, so no page logs an error.
  session: () => call("GET", "/api/session"),
  // The page's language becomes the account's language; signing in on a device that
  // has chosen none sends none, so the account's own comes back (account.js).
  register: (name, password) => call("POST", "/api/account/register", { name, password, lang: lang() }),
  login: (name, password) => call("POST", "/api/account/login", { name, password, lang: chosenLang() ?? undefined }),
  chooseLang: (code) => call("POST", "/api/account/lang", { lang: code }),
  logout: () => call("POST", "/api/account/logout"),
  changePassword: (password, newPassword) =>
    call("POST", "/api/account/password", { password, new_password: newPassword }),
  deleteAccount: (password) => call("POST", "/api/account/delete", { password }),
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  // The account's email address and recovery (recover.js): a link's token comes from
  // the address's fragment (#…) of the page the emailed link opens.
  email: () => call("GET", "/api/account/email"),
  addEmail: (email, password) => call("POST", "/api/account/email", { email, password, lang: lang() }),
  removeEmail: (password) => call("POST", "/api/account/email/remove", { password }),
  verifyEmail: (token) => call("POST", "/api/account/email/verify", { token }),
  recover: (who) => call("POST", "/api/account/recover", { who }),
  resetPassword: (token, newPassword) =>
    call("POST", "/api/account/reset", { token, new_password: newPassword }),
  // Moderation (report.js, moderation.js): a report of a player, and the moderators' own.
  report: (body) => call("POST", "/api/reports", body),
  reports: (status = "open") => call("GET", `/api/moderation/reports?status=${status}`),
  moderate: (body) => call("POST", "/api/moderation/actions", body),
  moderationLog: () => call("GET", "/api/moderation/log"),
  fairplay: (name, game) => call("GET", `/api/moderation/fairplay/${encodeURIComponent(name)}?game=${game}`),
  games: () => call("GET", "/api/games"),
  // The best-rated players of a game (settled first), each with the shown rating.
  leaderboard: (game, limit = 100) => call("GET", `/api/ratings?game=${encodeURIComponent(game)}&limit=${limit}`),
  tables: (status) => call("GET", `/api/tables${status ? `?status=${status}` : ""}`),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (request) => call("POST", "/api/tables", request),
  join: (id, invite, name) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { invite, name }),
  // The next game with the same seats: a rematch, or {game, options} for a new game.
  rematch: (id, token, next = {}) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token, ...next }),
  // The open seats' invites, for the table's creator (its host token) only.
  invites: (id, hostToken) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/invites`, { token: hostToken }),
  // What a code pasted in the lobby is: a table id or an open seat's invite.
  code: (code) => call("GET", `/api/codes/${encodeURIComponent(code)}`),
  hint: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/hint`, { token }),
  summary: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/summary`),
  replay: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  analysis: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`),
  analyse: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/analysis`),
  rules: (game, lang) => call("GET", `/api/rules/${game}?lang=${lang}`),
  // The first-game tutorial (tutorial.js): its lessons, and a move tried in one of them.
  tutorial: (game, lang) => call("GET", `/api/tutorial/${encodeURIComponent(game)}?lang=${lang}`),
  tutorialMove: (game, lesson, move, lang) =>
    call("POST", `/api/tutorial/${encodeURIComponent(game)}/${lesson}?lang=${lang}`, { move }),
  recordUrl: (id) => `/api/tables/${encodeURIComponent(id)}/record`,
  // The "play now" queue (seek.js): the seek's secret alone polls, cancels, calls bots.
  seeks: () => call("GET", "/api/seeks"),
  seek: (request) => call("POST", "/api/seeks", request),
  pollSeek: (id, secret) => call("POST", `/api/seeks/${encodeURIComponent(id)}/poll`, { secret }),
  seekBots: (id, secret, seats) =>
    call("POST", `/api/seeks/${encodeURIComponent(id)}/bots`, { secret, seats }),
  cancelSeek: (id, secret) =>
    call("POST", `/api/seeks/${encodeURIComponent(id)}/cancel`, { secret }, { keepalive: true }),
  // Tournaments (tournaments.js, tournament.js, sendoff.js; docs/server.md).
  tournaments: (status) => call("GET", `/api/tournaments${status ? `?status=${status}` : ""}`),
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (request) => call("POST", "/api/tournaments", request),
  // An action on a tournament: register ({code?}), withdraw, checkin, and the
  // organiser's start, pause, resume, end, remove ({player}).
  tournamentAction: (id, action, body = {}) =>
    call("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`, body),
  // The signed-in player's table to go to now: {next: null | {tournament_id, name, table_id, play_url}}.
  myTournamentTable: () => call("GET", "/api/tournaments/me"),
  // The community (friends.js, notices.js): follows, blocks, challenges, notices.
  tokens: () => call("GET", "/api/account/tokens"),
  makeToken: (name, scopes) => call("POST", "/api/account/tokens", { name, scopes }),
  revokeToken: (id) => call("DELETE", `/api/account/tokens/${encodeURIComponent(id)}`),
  friends: () => call("GET", "/api/friends"),
  follow: (name) => call("POST", `/api/friends/${encodeURIComponent(name)}`),
  unfollow: (name) => call("DELETE", `/api/friends/${encodeURIComponent(name)}`),
  block: (name) => call("POST", `/api/blocks/${encodeURIComponent(name)}`),
  unblock: (name) => call("DELETE", `/api/blocks/${encodeURIComponent(name)}`),
  relation: (name) => call("GET", `/api/players/${encodeURIComponent(name)}/relation`),
  challenge: (request) => call("POST", "/api/challenges", request),
  challenges: () => call("GET", "/api/challenges"),
  challengeOf: (id) => call("GET", `/api/challenges/${encodeURIComponent(id)}`),
  answerChallenge: (id, answer) => call("POST", `/api/challenges/${encodeURIComponent(id)}/${answer}`),
  correspondence: () => call("GET", "/api/correspondence"),
  notices: () => call("GET", "/api/notices"),
  readNotices: (upTo = null) => call("POST", "/api/notices/read", { up_to: upTo }),
  mailChoices: () => call("GET", "/api/notices/mail"),
  setMailChoices: (chosen) => call("PUT", "/api/notices/mail", chosen),
  sendInvite: (name, table, invite) => call("POST", "/api/invites/send", { name, table, invite }),
  tournamentExportUrl: (id, kind) => `/api/tournaments/${encodeURIComponent(id)}/export.${kind}`,
};

// Seats this browser took: {tableId: {seat, token, name}}. A reload finds its seat here.
const SEATS_KEY = "cardtable.seats";

/** A map kept in localStorage under `key` ({} when missing or unreadable). */
function readMap(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}

function allSeats() {
  return readMap(SEATS_KEY);
}

export function savedSeat(tableId) {
  return allSeats()[tableId] || null;
}

export function saveSeat(tableId, seat) {
  const seats = allSeats();
  seats[tableId] = seat;
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

// Tables this browser created: {tableId: hostToken}. The host token alone gets the
// open seats' invites back (the waiting page shows them, a reload too).
const HOSTS_KEY = "cardtable.hosts";

export function hostToken(tableId) {
  return readMap(HOSTS_KEY)[tableId] || null;
}

export function saveHostToken(tableId, token) {
  const hosts = readMap(HOSTS_KEY);
  hosts[tableId] = token;
  localStorage.setItem(HOSTS_KEY, JSON.stringify(hosts));
}

export function savedName() {
  return localStorage.getItem("cardtable.name") || "";
}

export function saveName(name) {
  localStorage.setItem("cardtable.name", name);
}

/** A value kept in localStorage's map `key` under `id` (null when missing). */
function recalled(key, id) {
  return readMap(key)[id] || null;
}

function remember(key, id, value) {
  const map = readMap(key);
  map[id] = value;
  localStorage.setItem(key, JSON.stringify(map));
}

// Tables a tournament sent this browser to: {tableId: tournamentId}, so the table's
// result links back to its tournament.
const TOURNEY_TABLES_KEY = "cardtable.tournamentTables";

export const tableTournament = (tableId) => recalled(TOURNEY_TABLES_KEY, tableId);
export const saveTableTournament = (tableId, tournamentId) => remember(TOURNEY_TABLES_KEY, tableId, tournamentId);

// Invite codes of the tournaments this browser created: {id: code} (the organiser's
// page shows the code and its link to pass on).
const TOURNEY_CODES_KEY = "cardtable.tournamentCodes";

export const tournamentCode = (id) => recalled(TOURNEY_CODES_KEY, id);
export const saveTournamentCode = (id, code) => remember(TOURNEY_CODES_KEY, id, code);
