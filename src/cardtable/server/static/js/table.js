// A table page: take the seat (invite) or come back to it (saved token), or watch;
// then the seats, clocks, whose decision it is, the game itself, and the result.

import { signedIn } from "./account.js";
import { ApiError, api, saveName, saveSeat, savedName, savedSeat, saveTableTournament, tableTournament } from "./api.js";
import { CandidateBoard } from "./candidate.js";
import { ChatPanel } from "./chat.js";
import { TableConnection } from "./conn.js";
import { announce, fill, h, hideToast, toast } from "./dom.js";
import { moveText, seatName, t } from "./i18n.js";
import { apiErrorText, waitingInvites, waitingLine } from "./invites.js";
import { showMissing } from "./missing.js";
import { nextGame } from "./nextgame.js";
import { optionsText } from "./options.js";
import { loadMessages, refusalText } from "./messages.js";
import { clockText } from "./movelist.js";
import { forgetRatings, ratingBadge } from "./ratings.js";
import { timeControlText } from "./seek.js";
import { playSound, soundSwitch } from "./sound.js";
import { SpyBoard } from "./spy.js";

/** Below this many seconds a clock turns red (and your own beeps once). */
const LOW_SECONDS = 10;

const BOARDS = { candidate: CandidateBoard, spy: SpyBoard };

export function showTable(main, tableId, { invite, watch }) {
  let stop = () => {};
  let gone = false;
  // A table that does not exist is one page saying so (not a form, a toast and a banner).
  const missing = () => {
    if (gone) return;
    gone = true;
    stop();
    tableGone(main, tableId);
  };
  // Settles true when the server has no such table: that page wins over the invite's own.
  const tableMissing = api.table(tableId).then(
    () => false,
    (err) => err.status === 404,
  );
  tableMissing.then((yes) => {
    if (yes) missing();
  });
  const mine = watch ? null : savedSeat(tableId);
  if (!watch && !mine && invite) {
    joinForm(main, tableId, invite, tableMissing, (seat) => {
      history.replaceState(null, "", `/play/${tableId}`);
      stop = play(main, tableId, seat, missing);
    });
  } else {
    stop = play(main, tableId, mine, missing);
  }
  return () => stop();
}

/** The page of a table that is not live: a finished one offers its replay. */
async function tableGone(main, tableId) {
  const info = await api.table(tableId).catch(() => null);
  if (info && info.status === "finished") {
    showMissing(main, t("matchOver"), t("gameOverText"), { href: `/replay/${tableId}`, label: t("replay") });
  } else {
    showMissing(main, t("noTable"), t("noTableText", { id: tableId }));
  }
}

function joinForm(main, tableId, invite, tableMissing, done) {
  // A signed-in player sits under the account's name (the server uses it anyway).
  const me = signedIn();
  const about = h("div", { class: "invitecontext", id: "join-context", "aria-live": "polite" });
  const terms = h("p", { class: "note", id: "join-terms" });
  const name = h("input", { type: "text", id: "join-name", required: true, maxlength: 32, value: me ? me.name : savedName(), readonly: Boolean(me), autocomplete: "nickname" });
  const form = h(
    "form",
    { class: "panel joinform" },
    h("h1", {}, t("inviteTitle")),
    about,
    h("label", { class: "field" }, h("span", {}, t("yourName")), name),
    terms,
    h("button", { type: "submit", class: "primary" }, t("join")),
  );
  // What the invite is for, before the form: the game, who is at the table, the options
  // and the clock, and what taking the seat agrees to (rated or casual, hints or none).
  // An invite that is used or unknown says so instead of the form.
  api
    .code(invite)
    .then(async (found) => {
      const info = found.table;
      if (found.target !== "invite" || info.id !== tableId) {
        if (await tableMissing) return;
        showMissing(main, t("inviteUnknown"), t("inviteOtherTable"));
        return;
      }
      const seated = info.seats.filter((s) => s.role !== "open").map((s) => seatName(s));
      fill(
        about,
        h("p", { class: "invitegame", "data-game": info.game }, optionsText(info.game, info.options)),
        h(
          "p",
          { class: "invitewho" },
          seated.length ? t("inviteAtTable", { names: seated.join(", ") }) : t("inviteNobodyYet"),
          " ",
          t("inviteYourSeat", { n: found.seat + 1, of: info.seats.length }),
        ),
        h("p", { class: "inviteclock" }, `${t("clock")}: ${timeControlText(info.time_control)}`),
      );
      fill(
        terms,
        `${t(info.rated ? "ratedTable" : "casualTable")} · ${t(info.hints ? "hintsAllowed" : "hintsOff")}. `,
        t("joinAgrees"),
      );
    })
    .catch(async (err) => {
      const used = err instanceof ApiError && err.status === 409;
      if (!used && (await tableMissing)) return;
      showMissing(main, t(used ? "inviteUsed" : "inviteUnknown"), used ? t("inviteUsedText") : await apiErrorText(err));
    });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim() || "Player";
    saveName(who);
    try {
      const seated = await api.join(tableId, invite, who);
      const seat = { seat: seated.seat, token: seated.token, name: who };
      saveSeat(tableId, seat);
      main.replaceChildren();
      done(seat);
    } catch (err) {
      toast(t("err_join", { detail: await apiErrorText(err) }));
    }
  });
  main.replaceChildren(form);
  name.focus();
}

function play(main, tableId, mine, missing) {
  const title = h("h1", { class: "tabletitle" });
  // Said plainly: rated or casual, and whether hints are allowed (docs/server.md, Fair play).
  const tags = h("p", { class: "tabletags", id: "table-tags" });
  forgetRatings();
  // The connection's state: kept in view wherever the player has scrolled (app.css).
  const banner = h("div", { class: "banner connbanner", role: "status", hidden: true });
  const seatsBar = h("ul", { class: "seatsbar", "aria-label": t("seats") });
  const status = h("p", { class: "turn", id: "turn-status" });
  const boardHolder = h("div", { class: "boardholder" });
  const result = h("section", { class: "result", hidden: true, "aria-live": "polite" });
  const pausePanel = h("section", { class: "pausepanel", hidden: true, "aria-labelledby": "pause-h" });
  const waiting = waitingInvites(tableId, mine, Boolean(signedIn()));
  const next = nextGame(tableId, mine);
  // Said plainly when a run-out clock made a move: whose, which, and what happens next.
  const clockNote = h("p", { class: "banner warn clocknote", role: "alert", hidden: true });
  // The result of a match comes above the board: the first thing seen when it ends.
  main.append(h("div", { class: "titlebar" }, title, tags, soundSwitch()), banner, seatsBar, status, clockNote, result, waiting.el, pausePanel, boardHolder);

  let board = null;
  let clocksAt = 0;
  let clockTimer = null;
  let lastAnnounced = "";
  let pauseTimer = null;
  let pausedAt = null; // the version whose pause is on screen
  let online = true; // this page's own connection is open
  let lastState = null;
  let lowWarned = false; // the "time running low" beep of this stretch was played
  let timeControl = null; // {initial, increment} in seconds, for the run-out clock's note
  api
    .table(tableId)
    .then((info) => {
      timeControl = info.time_control;
      const tournament = info.tournament_id || (info.tournament && info.tournament.id);
      if (tournament) saveTableTournament(tableId, tournament);
    })
    .catch(() => {});

  let options = null; // the table's rule options (Spy's scoring note says its bonus)
  api
    .table(tableId)
    .then((info) => (options = info.options))
    .catch(() => {});

  const chat = new ChatPanel(tableId, (text) => conn.chat(text));
  main.append(chat.el);
  const conn = new TableConnection(tableId, mine ? mine.token : null, {
    onState: (state, message) => {
      if (message && message.type === "welcome") chat.reset(message.chat, state.seat);
      render(state, message);
    },
    onChat: (line) => chat.add(line),
    onError: (code, message, reply) => (code.startsWith("chat_") ? chat.refused(reply) : showRefusal(code, message, reply)),
    onStatus: (status, seconds, again) => {
      online = status === "open";
      if (lastState) renderSeats(lastState); // your own seat says the connection is lost
      if (status === "lost") {
        banner.hidden = false;
        banner.className = "banner connbanner warn";
        banner.textContent = t("err_lost", { s: seconds });
      } else if (status === "gone") {
        missing();
      } else {
        banner.hidden = true;
        if (again) toast(t("err_reconnected"), "info", 2500);
      }
    },
  });
  // For tests and for the curious: the live connection of this page.
  window.cardtableConnection = conn;

  // The engines' refusals are said in the player's language (messages.js).
  loadMessages().catch(() => {});

  async function showRefusal(code, message, reply) {
    if (code === "no_table") return; // the page says it once (missing)
    const key = `err_${code}`;
    let text;
    if (code === "illegal") {
      const said = reply ? await refusalText(reply.message_id, reply.params) : null;
      if (board && board.refused && board.refused(said ?? message)) return; // said at the card
      text = t("err_illegal", { detail: said ?? message });
    } else if (code === "paused") text = t("err_paused", { s: reply?.params?.seconds ?? "" });
    else if (t(key) !== key) text = t(key);
    else if (reply?.message_id?.startsWith("table.")) {
      // The table's other refusals (a resign, abort or takeback refused): its catalog says why.
      text = (await refusalText(reply.message_id, reply.params)) ?? t("err_generic", { detail: message });
    } else text = t("err_generic", { detail: message });
    toast(text, "error");
    announce(text);
  }

  function names(state) {
    return state.seats.map((s) => seatName(s));
  }

  function render(state, message) {
    hideToastIfStale(message);
    title.textContent = t("tableOf", { game: t(state.game), id: state.table });
    fill(
      tags,
      h("span", { class: `tag ${state.rated ? "rated" : "casual"}`, "data-rated": String(Boolean(state.rated)) }, t(state.rated ? "ratedTable" : "casualTable")),
      h("span", { class: "tag", "data-hints": String(Boolean(state.hints)) }, t(state.hints ? "hintsAllowed" : "hintsOff")),
    );
    document.title = `${t(state.game)} · cardtable`;
    renderSeats(state);
    waiting.update(state);
    if (!board && state.view) {
      board = new BOARDS[state.game]({ conn, tableId, token: mine ? mine.token : null });
      boardHolder.replaceChildren(board.el);
    }
    if (board && state.view) board.update(state, message);
    noteEnding(state, message);
    lastState = state;
    tickClocks(state); // the board's own clocks too
    noteClock(state, message);
    if (message && message.type === "update" && message.event.type === "move" && /(^|\s)call$/.test(message.event.move)) {
      playSound("call");
    }
    status.textContent = statusLine(state);
    renderPause(state);
    if (status.textContent !== lastAnnounced && state.game === "candidate") {
      lastAnnounced = status.textContent;
      announce(status.textContent);
    }
    renderResult(state, message);
    main.dataset.version = state.version;
    main.dataset.status = state.status;
  }

  function hideToastIfStale(message) {
    if (message && message.type === "welcome") hideToast();
  }

  function statusLine(state) {
    if (state.status === "waiting") return waitingLine(state);
    if (state.status === "finished") return t("matchOver");
    if (state.pause) return t(state.pause.holds ? "pausedHolds" : "pausedLine"); // nobody moves now
    if (state.game === "candidate" && state.view && state.view.decision) {
      const decision = t(`decision_${state.view.decision}`);
      if (state.to_move === state.seat) return t("yourTurn", { decision });
      return t("toMove", { name: names(state)[state.to_move], decision });
    }
    if (state.game === "spy" && state.view) {
      return t("roundOf", { k: state.view.round, n: state.view.rounds });
    }
    return "";
  }

  /** A move a run-out clock made: for your own seat a note that stays until you move
   * again, saying what was played and what the time control does next. */
  function noteClock(state, message) {
    const event = message && message.type === "update" ? message.event : null;
    if (!event || event.type !== "move") return;
    if (event.source !== "clock") {
      if (event.seat === state.seat) clockNote.hidden = true;
      return;
    }
    const move = moveText(event.move.replace(/^\d+ /, ""));
    if (event.seat === state.seat) {
      const s = state.clocks ? Math.round(state.clocks[state.seat]) : 0;
      const inc = timeControl ? timeControl.increment : null;
      clockNote.textContent = inc ? t("clockOutMine", { move, s, inc }) : t("clockOutMineNoInc", { move, s });
      clockNote.hidden = false;
      announce(clockNote.textContent);
    } else {
      toast(t("clockOutOther", { name: names(state)[event.seat] }), "info", 5000);
    }
  }

  /** Someone resigned, aborted or took back: say it; after a takeback the move list is
   * asked for again (a hello's welcome brings it whole). */
  function noteEnding(state, message) {
    const event = message && message.type === "update" ? message.event : null;
    if (!event || !["resign", "abort", "takeback"].includes(event.type)) return;
    if (event.type === "takeback") {
      conn.refresh();
      if (event.seat !== state.seat) toast(t("tookBack", { name: names(state)[event.seat] }), "info", 4000);
    }
    announce(endingLine(state) || t("tookBack", { name: names(state)[event.seat] }));
  }

  /** How a resigned or aborted match ended, in a sentence ("" for one played out). */
  function endingLine(state) {
    const result = state.result;
    if (!result || !["resigned", "aborted"].includes(result.ending)) return "";
    const who = names(state);
    const name = who[result.ended_by];
    if (result.ending === "aborted") return t("abortedBy", { name });
    return t("resignedBy", { name, names: result.winners.map((i) => who[i]).join(", ") });
  }

  /** Spy's scoring in two sentences, with the table's own bonus (S14-S16). */
  function spyScoring() {
    const bonus = options && Number.isInteger(options.bonus) ? options.bonus : 20;
    const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
    const pile = options && options.count_points_pile ? ` ${t("spyScoringPile")}` : "";
    return h("p", { class: "note scoring", "data-key": "spy-scoring" }, t("spyScoring", { first: signed(-bonus), others: signed(bonus) }) + pile);
  }

  function renderSeats(state) {
    clocksAt = performance.now();
    const items = state.seats.map((s) => {
      const flags = [];
      if (s.role === "human") {
        if (s.index === state.seat && !online) flags.push(t("youOffline"));
        else flags.push(s.connected ? t("connected") : t("away"));
      }
      if (s.substituted) flags.push(t("botFor"));
      if (s.signed_in) flags.push(t("seatAccount"));
      if (s.guest) flags.push(t("seatGuest"));
      const clock = state.clocks ? h("span", { class: "clock", "data-seat": s.index, "aria-label": t("clock") }) : null;
      return h(
        "li",
        {
          class: `seatchip ${s.index === state.seat ? "me" : ""} ${state.to_move === s.index ? "tomove" : ""} ${s.index === state.seat && !online ? "offline" : ""}`,
          "aria-current": state.to_move === s.index ? "true" : false,
        },
        h("strong", {}, s.role === "open" ? t("open") : seatName(s)),
        ratingBadge(s, state.game, () => lastState && renderSeats(lastState)),
        s.index === state.seat ? ` (${t("you")})` : "",
        flags.length ? h("span", { class: "flags" }, ` · ${flags.join(" · ")}`) : "",
        clock,
      );
    });
    seatsBar.replaceChildren(...items);
    tickClocks(state);
    clearInterval(clockTimer);
    if (state.clocks && state.status === "playing") {
      clockTimer = setInterval(() => tickClocks(state), 250);
    }
  }

  /** Whose clock runs: the seat to move (everyone in a race), never a seat a bot plays,
   * never during a pause, and none while this page has lost its connection (what the
   * server counts is unknown until it answers again). */
  function clockRuns(state, seat) {
    const s = state.seats[seat];
    if (!online || state.status !== "playing" || state.pause) return false;
    if (!s || s.role === "bot" || s.substituted) return false;
    return state.to_move === seat || state.to_move === "anyone";
  }

  function tickClocks(state) {
    if (!state.clocks) return;
    const spent = (performance.now() - clocksAt) / 1000;
    for (const el of main.querySelectorAll(".clock[data-seat]")) {
      const seat = Number(el.dataset.seat);
      const running = clockRuns(state, seat);
      const left = Math.max(0, state.clocks[seat] - (running ? spent : 0));
      el.textContent = el.classList.contains("sideclock") ? clockText(left) : ` · ${clockText(left)}`;
      el.classList.toggle("low", left < LOW_SECONDS);
      el.classList.toggle("running", running);
      if (seat === state.seat && running) {
        if (left < LOW_SECONDS && !lowWarned) playSound("low");
        lowWarned = left < LOW_SECONDS;
      }
    }
  }

  /** Between two deals or rounds: the one just over, a countdown, and "Ready". */
  function renderPause(state) {
    const segment = state.pause && board && board.lastSegment ? board.lastSegment(state) : null;
    if (!segment || state.status !== "playing") {
      pausePanel.hidden = true;
      pausedAt = null;
      clearInterval(pauseTimer);
      main.dataset.paused = "";
      return;
    }
    const ends = performance.now() + state.pause.seconds * 1000;
    const who = names(state);
    const countdown = h("p", { class: "countdown", role: "timer", "aria-live": "off" });
    const waiting = state.seats.filter((s) => s.role === "human" && s.connected && !s.substituted && !state.pause.ready.includes(s.index));
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      if (state.pause.holds) {
        // A turn-based game waits for every person present: no countdown to race.
        countdown.textContent = t("waitContinue", { names: waiting.map((s) => names(state)[s.index]).join(", ") });
      } else countdown.textContent = left > 0 ? segment.next(left) : t("starting");
    };
    const rows = who.map((name, i) =>
      h(
        "tr",
        { class: i === state.seat ? "me" : "" },
        h("th", { scope: "row" }, name, state.pause.ready.includes(i) ? ` ✓` : ""),
        h("td", {}, segment.scores[i]),
        h("td", {}, segment.totals[i]),
      ),
    );
    const person = state.seat !== null && mine && state.seats[state.seat].role === "human";
    const done = state.seat !== null && state.pause.ready.includes(state.seat);
    const readyButton = person
      ? h("button", { type: "button", class: "primary", "data-key": "ready", disabled: done }, done ? t("waitingOthers") : t(state.pause.holds ? "continueDeal" : "ready"))
      : null;
    if (readyButton) {
      readyButton.addEventListener("click", () => {
        if (conn.sayReady()) {
          readyButton.disabled = true;
          readyButton.textContent = t("waitingOthers");
        }
      });
    }
    const readyNames = state.pause.ready.map((i) => who[i]);
    const hadFocus = pausePanel.contains(document.activeElement);
    fill(
      pausePanel,
      h("h2", { id: "pause-h", tabindex: "-1" }, segment.heading),
      h(
        "table",
        { class: "totals" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players")), h("th", { scope: "col" }, t("scored")), h("th", { scope: "col" }, t("totals")))),
        h("tbody", {}, rows),
      ),
      segment.note ? h("p", { class: "note" }, segment.note) : null,
      state.game === "spy" ? spyScoring() : null,
      countdown,
      h("div", { class: "actions" }, readyButton, readyNames.length ? h("span", { class: "readylist" }, t("readyAre", { names: readyNames.join(", ") })) : null),
    );
    pausePanel.hidden = false;
    main.dataset.paused = "true";
    tick();
    clearInterval(pauseTimer);
    pauseTimer = setInterval(tick, 250);
    if (pausedAt === null) {
      // The pause has just begun: say what happened and when the game goes on.
      announce(`${segment.heading}. ${countdown.textContent}`);
      if (readyButton && !done) readyButton.focus();
    } else if (hadFocus && readyButton && !done) {
      readyButton.focus();
    }
    pausedAt = state.version;
  }

  function renderResult(state, message) {
    if (state.status !== "finished" || !state.result) {
      result.hidden = true;
      return;
    }
    const who = names(state);
    const winners = state.result.winners.map((i) => who[i]);
    const rows = state.seats.map((s, i) =>
      h("tr", {}, h("th", { scope: "row" }, who[i]), h("td", {}, state.result.totals[i])),
    );
    next.update(state, message);
    // A tournament's table leads back to its tournament first (the next round is there);
    // its players meet again there, not in a rematch here.
    const tournament = tableTournament(tableId);
    const actions = [
      tournament ? h("a", { href: `/tournament/${tournament}`, "data-nav": "", class: "button primary", "data-action": "to-tournament" }, t("tnBack")) : null,
      h("a", { href: `/replay/${tableId}`, "data-nav": "", class: "button" }, t("replay")),
      h("a", { href: api.recordUrl(tableId), class: "button", download: "" }, t("record")),
      h("a", { href: "/", "data-nav": "", class: "button" }, t("toLobby")),
    ];
    const ending = endingLine(state);
    const aborted = state.result.ending === "aborted";
    const outcome = ending || (winners.length === state.seats.length && winners.length > 1 ? t("draw") : t("won", { names: winners.join(", ") }));
    fill(
      result,
      h("h2", {}, t(aborted ? "gameAborted" : "matchOver")),
      h("p", { class: "winners", "data-ending": state.result.ending || "played" }, outcome),
      h("table", { class: "totals" }, h("caption", {}, t("totals")), h("tbody", {}, rows)),
      state.game === "spy" ? spyScoring() : null,
      tournament ? null : next.el,
      h("div", { class: "actions" }, actions),
    );
    const shown = !result.hidden;
    result.hidden = false;
    // When the match ends, the page goes to its result (not on every later update).
    if (!shown) result.scrollIntoView({ block: "start", behavior: "instant" });
  }

  return () => {
    clearInterval(clockTimer);
    clearInterval(pauseTimer);
    if (board && board.destroy) board.destroy();
    conn.stop();
  };
}
