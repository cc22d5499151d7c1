// A tournament's page, /tournament/ID: what it is, a countdown to its start (or the
// end of an arena), registering, withdrawing and checking in (with the invite code of
// an invite-only one), the organiser's controls, your table, the live standings, every
// round's tables with their results (watch or replay), the players, and once it is
// over the final standings to download as JSON or CSV.
//
// Live: the server sends the whole tournament over /ws/tournament/ID on every change,
// and "seated" when the player's table opens (sendoff.js takes them there). While the
// socket is closed the page asks GET /api/tournaments/ID every few seconds and tries
// the socket again.

import { signedIn } from "./account.js";
import { api, tournamentCode } from "./api.js";
import { append, fill, h, toast } from "./dom.js";
import { playerName, t } from "./i18n.js";
import { showMissing } from "./missing.js";
import { timeControlText } from "./seek.js";
import { goToTable, offerTable } from "./sendoff.js";
import { badges, durationText, roundCount, tournamentErrorText } from "./tournaments.js";

const POLL_MS = 3000;
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/** A number of points as people write it: 1, 1.5, 0.25. */
function points(value) {
  return typeof value === "number" ? String(Math.round(value * 100) / 100) : String(value ?? "");
}

export function showTournament(main, id, { code = null } = {}) {
  let data = null; // the last tournament the server sent
  let offset = 0; // server time minus this browser's time, in ms
  let stopped = false;
  let ws = null;
  let attempt = 0;
  let pollTimer = null;
  let retryTimer = null;
  let actionsKey = null;
  let organiserKey = null;
  let lastLoad = 0; // when the page last asked for the tournament (Date.now())

  const title = h("h1", { class: "tournamenttitle" }, t("loading"));
  const meta = h("p", { class: "tmeta" });
  const countdown = h("p", { class: "countdown", role: "timer", "aria-live": "off", "data-part": "countdown" });
  const live = h("span", { class: "livemark", "data-live": "" });
  const yours = h("section", { class: "panel yourtable", hidden: true, "aria-live": "polite", "data-part": "yours" });
  const actions = h("div", { class: "tactions", "data-part": "actions" });
  const organiser = h("section", { class: "panel organiser", hidden: true, "aria-labelledby": "org-h", "data-part": "organiser" });
  const standings = h("section", { class: "panel standings", "aria-labelledby": "standings-h", "data-part": "standings" });
  const rounds = h("section", { class: "panel rounds", "aria-labelledby": "rounds-h", "data-part": "rounds" });
  const players = h("section", { class: "panel players", "aria-labelledby": "players-h", "data-part": "players" });

  main.append(
    h("section", { class: "panel thead", "data-part": "head" }, h("div", { class: "titlebar" }, title, live), meta, countdown, actions),
    yours,
    organiser,
    standings,
    rounds,
    players,
  );

  /** Seconds from the server's now until `iso` (negative once past). */
  const secondsUntil = (iso) => (Date.parse(iso) - (Date.now() + offset)) / 1000;

  function shown(next) {
    if (stopped) return;
    if (next.you === undefined && data) next = { ...next, you: data.you }; // a broadcast without "you"
    data = next;
    if (next.now) offset = Date.parse(next.now) - Date.now();
    document.title = `${next.name} · cardtable`;
    main.dataset.tournamentStatus = next.status;
    title.textContent = next.name;
    fill(
      meta,
      h("span", { class: "badge status", "data-status": next.status }, next.paused ? t("tnPaused") : t(`tnStatus_${next.status}`)),
      badges(next),
      h("span", {}, [roundGameText(next), timeControlText(next.clock || null), t("tnOrganiser", { name: next.organiser })].join(" · ")),
    );
    if (next.status === "finished") settle();
    tick();
    drawActions();
    drawYours();
    drawOrganiser();
    drawStandings();
    drawRounds();
    drawPlayers();
  }

  function tick() {
    if (!data) return;
    let text;
    if (data.paused) text = t("tnPausedLong");
    else if (data.status === "upcoming") {
      const left = secondsUntil(data.starts_at);
      text = left > 0 ? t("tnStartsIn", { time: durationText(left) }) : t("tnStarting");
      // Past its start time: ask until the server says it runs, whatever the socket says.
      if (left <= 0 && Date.now() - lastLoad > POLL_MS) load();
    } else if (data.status === "running") {
      const round = data.format === "arena" ? null : t("tnRoundOf", { round: data.round, rounds: roundCount(data) });
      const end = data.format !== "arena" ? null : data.ends_at ? Date.parse(data.ends_at) : Date.parse(data.starts_at) + data.minutes * 60000;
      const nextAt = data.next_round_at ? secondsUntil(data.next_round_at) : null;
      const endsIn = end === null ? null : (end - Date.now() - offset) / 1000;
      // An arena past its end: the games in play finish, no new one starts.
      if (endsIn !== null) text = endsIn > 0 ? t("tnEndsIn", { time: durationText(endsIn) }) : t("tnArenaEnding");
      else if (nextAt !== null && nextAt > 0) text = `${round} · ${t("tnNextRoundIn", { time: durationText(nextAt) })}`;
      else text = round;
    } else text = t("tnOver");
    countdown.textContent = text;
    countdown.dataset.status = data.status;
  }

  async function act(action, body = {}) {
    try {
      shown(await api.tournamentAction(id, action, body));
    } catch (err) {
      toast(t("tnRefused", { detail: await tournamentErrorText(err) }));
    }
  }

  function drawActions() {
    const me = signedIn();
    const you = data.you;
    // Registering stays open while a round is still to come (late joiners play from the
    // next one), unless the organiser closed late joining.
    const lastRound = data.format !== "arena" && data.round >= roundCount(data);
    const open = data.status === "upcoming" || (data.status === "running" && data.late_join !== false && !lastRound);
    const key = JSON.stringify([open, data.status, Boolean(me), you && you.registered, you && you.checked_in, data.access]);
    if (key === actionsKey) return; // keep a half-typed invite code
    actionsKey = key;
    if (data.status === "finished") {
      fill(actions);
      return;
    }
    if (!me) {
      fill(actions, open ? h("p", { class: "hint" }, t("tnSignInToPlay"), " ", h("a", { href: "/signin", "data-nav": "" }, t("signIn"))) : null);
      return;
    }
    if ((!you || !you.registered) && !open) {
      fill(actions, h("p", { class: "note", "data-closed": "" }, t("tnClosed")));
      return;
    }
    if (!you || !you.registered) {
      const form = h("form", { class: "register" });
      const input = data.access === "invite" ? h("input", { type: "text", name: "code", value: code || "", autocomplete: "off", spellcheck: "false", required: true }) : null;
      append(form,
        input ? h("label", { class: "field inline" }, h("span", {}, t("tnInviteCode")), input) : null,
        h("button", { type: "submit", class: "primary", "data-action": "register" }, t("tnRegister")),
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        act("register", input ? { code: input.value.trim() } : {});
      });
      fill(actions, data.status === "running" ? h("p", { class: "note" }, t("tnLateJoin")) : null, form);
      return;
    }
    fill(
      actions,
      h("p", { class: "registered", "data-registered": "" }, data.status === "running" ? t("tnPlaying") : you.checked_in ? t("tnCheckedIn") : t("tnRegistered")),
      h(
        "div",
        { class: "buttons" },
        you.checked_in || data.status !== "upcoming" ? null : h("button", { type: "button", class: "primary", "data-action": "checkin", onclick: () => act("checkin") }, t("tnCheckIn")),
        h("button", { type: "button", "data-action": "withdraw", onclick: () => window.confirm(t("tnWithdrawConfirm")) && act("withdraw") }, t("tnWithdraw")),
      ),
      you.checked_in || data.status !== "upcoming" ? null : h("p", { class: "note" }, t("tnCheckInHelp", { s: Math.round(data.forfeit_seconds ?? 60) })),
    );
  }

  function drawYours() {
    const you = data.you;
    if (!you || !you.registered || data.status === "finished") {
      yours.hidden = true;
      return;
    }
    yours.hidden = false;
    if (you.table_id) {
      const next = { tournament_id: id, name: data.name, table_id: you.table_id, play_url: you.play_url };
      fill(
        yours,
        h("h2", {}, t("tnYourTable")),
        h("p", {}, t("tnYourTableOpen")),
        h("a", { href: you.play_url || `/play/${you.table_id}`, class: "button primary big", "data-action": "play-table", onclick: (event) => {
          event.preventDefault();
          goToTable(next);
        } }, t("tnPlay")),
      );
      offerTable(next);
    } else {
      fill(yours, h("h2", {}, t("tnYourTable")), h("p", { class: "note" }, data.status === "upcoming" ? t("tnYourTableLater") : data.format === "arena" ? t("tnWaitArena") : t("tnWaitNextRound")));
    }
  }

  function drawOrganiser() {
    const me = signedIn();
    const mine = data.you && data.you.organiser !== undefined ? data.you.organiser : Boolean(me) && me.name === data.organiser;
    if (!me || !mine || data.status === "finished") {
      organiser.hidden = true;
      return;
    }
    const active = (data.players || []).filter((p) => p.status !== "withdrawn" && p.status !== "removed" && p.name !== me.name);
    const key = JSON.stringify([data.status, data.paused, active.map((p) => p.name)]);
    organiser.hidden = false;
    if (key === organiserKey) return;
    organiserKey = key;
    const who = h("select", { name: "remove", "aria-label": t("tnRemoveWho") }, active.map((p) => h("option", { value: p.name }, playerName(p.name))));
    const invite = (data.you && data.you.invite_code) || tournamentCode(id);
    fill(
      organiser,
      h("h2", { id: "org-h" }, t("tnOrganiserControls")),
      invite
        ? h("p", { class: "invitecode" }, t("tnInviteToPass"), " ", h("code", {}, invite), " · ", h("a", { href: `/tournament/${id}?code=${encodeURIComponent(invite)}` }, t("tnInviteLink")))
        : null,
      h(
        "div",
        { class: "buttons" },
        data.status === "upcoming" ? h("button", { type: "button", class: "primary", "data-action": "start", onclick: () => act("start") }, t("tnStartNow")) : null,
        data.status === "running" && !data.paused ? h("button", { type: "button", "data-action": "pause", onclick: () => act("pause") }, t("tnPause")) : null,
        data.paused ? h("button", { type: "button", class: "primary", "data-action": "resume", onclick: () => act("resume") }, t("tnResume")) : null,
        h("button", { type: "button", class: "danger", "data-action": "end", onclick: () => window.confirm(t("tnEndConfirm")) && act("end") }, t("tnEnd")),
      ),
      active.length
        ? h("div", { class: "buttons removerow" }, who, h("button", { type: "button", "data-action": "remove", onclick: () => who.value && window.confirm(t("tnRemoveConfirm", { name: who.value })) && act("remove", { player: who.value }) }, t("tnRemove")))
        : null,
    );
  }

  /** A player's name as shown: a bot's in the player's language with a BOT mark. */
  function nameCell(name) {
    const bot = (data.players || []).some((p) => p.name === name && p.bot);
    const me = signedIn();
    return [
      playerName(name),
      bot ? h("span", { class: "botmark", title: t("tnBotHelp") }, t("tnBot")) : null,
      me && me.name === name ? h("span", { class: "youmark" }, t("tnYou")) : null,
    ];
  }

  function drawStandings() {
    const lines = data.standings || [];
    const breaks = lines.length ? Object.keys(lines[0].tiebreaks || {}) : [];
    const finished = data.status === "finished";
    const me = signedIn();
    fill(
      standings,
      h("h2", { id: "standings-h" }, t(finished ? "tnFinalStandings" : "tnStandings")),
      lines.length
        ? h(
            "div",
            { class: "scroller" },
            h(
              "table",
              { class: "standingtable", "data-standings": "" },
              h(
                "thead",
                {},
                h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("tnPlayer")), h("th", { scope: "col" }, pointsName(data)), breaks.map((b, i) => h("th", { scope: "col", class: `tb tb${i}`, title: said(`tnTbHelp_${b}`) }, said(`tnTb_${b}`) ?? b)), h("th", { scope: "col" }, t("tnGames"))),
              ),
              h(
                "tbody",
                {},
                lines.map((line) =>
                  h(
                    "tr",
                    { class: me && me.name === line.player ? "me" : null, "data-player": line.player },
                    h("td", {}, line.rank),
                    h("th", { scope: "row" }, nameCell(line.player)),
                    h("td", { "data-points": "" }, points(line.points)),
                    breaks.map((b, i) => h("td", { class: `tb tb${i}` }, points(line.tiebreaks[b]))),
                    h("td", { "data-games": "" }, line.games),
                  ),
                ),
              ),
            ),
          )
        : h("p", { class: "note" }, t("tnNoStandings")),
      finished
        ? h(
            "p",
            { class: "actions downloads" },
            h("a", { href: api.tournamentExportUrl(id, "json"), class: "button", download: "", "data-export": "json" }, t("tnDownloadJson")),
            h("a", { href: api.tournamentExportUrl(id, "csv"), class: "button", download: "", "data-export": "csv" }, t("tnDownloadCsv")),
          )
        : null,
    );
  }

  function tableLine(table, n) {
    const me = signedIn();
    const mine = me && table.seats.includes(me.name);
    const playing = table.status !== "finished";
    const seats = table.seats.map((name, i) =>
      h(
        "span",
        { class: `tseat${(table.forfeited || []).includes(name) ? " forfeit" : ""}` },
        nameCell(name),
        table.totals ? h("span", { class: "total" }, ` ${points(table.totals[i])}`) : null,
        (table.forfeited || []).includes(name) ? h("span", { class: "note" }, ` (${t("tnForfeit")})`) : null,
      ),
    );
    let link;
    if (playing && mine && data.you && data.you.table_id === table.table_id) {
      link = h("a", { href: data.you.play_url || `/play/${table.table_id}`, "data-nav": "", class: "button small primary" }, t("tnPlay"));
    } else if (playing) {
      link = h("a", { href: table.watch_url || `/watch/${table.table_id}`, "data-nav": "", class: "button small" }, t("watch"));
    } else {
      link = h("a", { href: table.replay_url || `/replay/${table.table_id}`, "data-nav": "", class: "button small" }, t("replay"));
    }
    return h(
      "li",
      { class: `tablerow ttable${mine ? " mine" : ""}`, "data-table": table.table_id, "data-status": table.status },
      h("strong", {}, t("tnTableN", { n })),
      h("span", { class: "who" }, seats.flatMap((s, i) => (i ? [h("span", { class: "vs" }, data.game === "candidate" ? " – " : " · "), s] : [s]))),
      h("span", { class: `status ${playing ? "playing" : "finished"}` }, t(playing ? "status_playing" : "status_finished")),
      h("span", { class: "rowactions" }, link),
    );
  }

  function drawRounds() {
    const list = [...(data.rounds || [])].reverse();
    fill(
      rounds,
      h("h2", { id: "rounds-h" }, data.format === "arena" ? t("tnGamesTitle") : t("tnRounds")),
      list.length
        ? list.map((round, i) => {
            const body = [
              h("ul", { class: "tables" }, (round.tables || []).map((table, n) => tableLine(table, n + 1))),
              round.byes && round.byes.length ? h("p", { class: "note byes" }, t("tnByes", { names: round.byes.map(playerName).join(", ") })) : null,
            ];
            const heading = data.format === "arena" ? t("tnWaveN", { n: round.round }) : t("tnRoundN", { n: round.round });
            const state = round.finished ? t("tnRoundDone") : t("tnRoundPlaying");
            return i === 0
              ? h("div", { class: "round", "data-round": round.round }, h("h3", {}, `${heading} · ${state}`), body)
              : h("details", { class: "round", "data-round": round.round }, h("summary", {}, `${heading} · ${state}`), body);
          })
        : h("p", { class: "note" }, t("tnNoRounds")),
    );
  }

  function drawPlayers() {
    const list = data.players || [];
    fill(
      players,
      h("h2", { id: "players-h" }, t("tnPlayersN", { n: list.length })),
      list.length
        ? h(
            "ul",
            { class: "playerlist" },
            list.map((p) =>
              h(
                "li",
                { "data-player": p.name, "data-status": p.status },
                nameCell(p.name),
                // Once it is over only who left is worth saying.
                data.status !== "finished" || p.status === "withdrawn" || p.status === "removed" ? h("span", { class: "note" }, ` · ${t(`tnPlayer_${p.status}`)}`) : null,
              ),
            ),
          )
        : h("p", { class: "note" }, t("tnNoPlayers")),
    );
  }

  async function load() {
    lastLoad = Date.now();
    try {
      shown(await api.tournament(id));
    } catch (err) {
      if (err.status === 404) {
        stop();
        showMissing(main, t("tnMissing"), t("tnMissingText", { id }), { href: "/tournaments", label: t("tnTitle") });
      }
    }
  }

  /** A finished tournament changes no more: no socket, no polling. */
  function settle() {
    stopped = true;
    clearInterval(pollTimer);
    clearTimeout(retryTimer);
    if (ws) ws.close();
    live.hidden = true;
  }

  function polling(on) {
    clearInterval(pollTimer);
    pollTimer = on ? setInterval(load, POLL_MS) : null;
    live.textContent = on ? t("tnLiveOff") : t("tnLiveOn");
    live.dataset.live = on ? "poll" : "socket";
  }

  function connect() {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tournament/${encodeURIComponent(id)}`);
    ws = socket;
    socket.addEventListener("open", () => {
      attempt = 0;
      polling(false);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "tournament") {
        shown(message);
        if (message.you === undefined) load(); // a broadcast: this player's part from GET
      } else if (message.type === "seated") {
        offerTable({ tournament_id: id, name: data ? data.name : null, table_id: message.table_id, play_url: message.play_url });
        load();
      }
    });
    socket.addEventListener("close", () => {
      if (stopped || ws !== socket) return;
      polling(true);
      load();
      retryTimer = setTimeout(connect, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      attempt += 1;
    });
  }

  const ticker = setInterval(tick, 1000);
  load();
  connect();

  function stop() {
    stopped = true;
    clearInterval(ticker);
    clearInterval(pollTimer);
    clearTimeout(retryTimer);
    if (ws) ws.close();
  }
  return stop;
}

/** The tournament and each round's game in a few words: "3 rounds · Spy vs Spy
 * (Rounds 2) · Players a table 4" (only the options the organiser set; the others are
 * the game's own defaults). */
function roundGameText(data) {
  const options = (data.spec && data.spec.options) || {};
  const set = (data.game === "spy" ? ["rounds", "bonus"] : ["deals", "decks"]).filter((key) => options[key] !== undefined);
  const parts = [];
  if (data.format !== "arena") parts.push(t("tnRoundsN", { n: roundCount(data) }));
  parts.push(set.length ? `${t(data.game)} (${set.map((key) => `${t(key)} ${options[key]}`).join(", ")})` : t(data.game));
  if (data.format === "race" && data.spec) parts.push(`${t("tnTableSize")} ${data.spec.table_size}`);
  return parts.join(" · ");
}

/** What the standings' points are: a race's total (lowest best), duplicate
 * matchpoints, or points. */
function pointsName(data) {
  if (data.duplicate) return t("tnPoints_duplicate");
  return data.format === "race" ? t("tnPoints_race") : t("tnPoints");
}

/** The client's word for `key`, or null when it has none (a tie-break the server
 * names that this client does not know keeps the server's key). */
function said(key) {
  const text = t(key);
  return text === key ? null : text;
}
