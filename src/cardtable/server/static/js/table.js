// A table page: take the seat (invite) or come back to it (saved token), or watch;
// then the seats, clocks, whose decision it is, the game itself, and the result.

import { api, saveName, saveSeat, savedName, savedSeat } from "./api.js";
import { CandidateBoard } from "./candidate.js";
import { TableConnection } from "./conn.js";
import { announce, fill, h, hideToast, toast } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { navigate } from "./main.js";
import { loadMessages, refusalText } from "./messages.js";
import { SpyBoard } from "./spy.js";

const BOARDS = { candidate: CandidateBoard, spy: SpyBoard };

export function showTable(main, tableId, { invite, watch }) {
  let stop = () => {};
  const mine = watch ? null : savedSeat(tableId);
  if (!watch && !mine && invite) {
    joinForm(main, tableId, invite, (seat) => {
      history.replaceState(null, "", `/play/${tableId}`);
      stop = play(main, tableId, seat);
    });
  } else {
    stop = play(main, tableId, mine);
  }
  return () => stop();
}

function joinForm(main, tableId, invite, done) {
  const name = h("input", { type: "text", id: "join-name", required: true, maxlength: 40, value: savedName(), autocomplete: "nickname" });
  const form = h(
    "form",
    { class: "panel joinform" },
    h("h1", {}, t("join")),
    h("label", { class: "field" }, h("span", {}, t("yourName")), name),
    h("button", { type: "submit", class: "primary" }, t("join")),
  );
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
      toast(t("err_join", { detail: err.message }));
    }
  });
  main.replaceChildren(form);
  name.focus();
}

function play(main, tableId, mine) {
  const title = h("h1", { class: "tabletitle" });
  const banner = h("div", { class: "banner", role: "status", hidden: true });
  const seatsBar = h("ul", { class: "seatsbar", "aria-label": t("seats") });
  const status = h("p", { class: "turn", id: "turn-status" });
  const boardHolder = h("div", { class: "boardholder" });
  const result = h("section", { class: "result", hidden: true, "aria-live": "polite" });
  const pausePanel = h("section", { class: "pausepanel", hidden: true, "aria-labelledby": "pause-h" });
  const invites = h("p", { class: "waiting", hidden: true }, t("waitingFor"));
  main.append(title, banner, seatsBar, status, invites, pausePanel, boardHolder, result);

  let board = null;
  let clocksAt = 0;
  let clockTimer = null;
  let lastAnnounced = "";
  let pauseTimer = null;
  let pausedAt = null; // the version whose pause is on screen

  const conn = new TableConnection(tableId, mine ? mine.token : null, {
    onState: (state, message) => render(state, message),
    onError: (code, message, reply) => showRefusal(code, message, reply),
    onStatus: (status, seconds, again) => {
      if (status === "lost") {
        banner.hidden = false;
        banner.className = "banner warn";
        banner.textContent = t("err_lost", { s: seconds });
      } else if (status === "gone") {
        banner.hidden = false;
        banner.className = "banner error";
        banner.textContent = t("err_no_table");
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
    const key = `err_${code}`;
    let text;
    if (code === "illegal") {
      const said = reply ? await refusalText(reply.message_id, reply.params) : null;
      text = t("err_illegal", { detail: said ?? message });
    } else if (code === "paused") text = t("err_paused", { s: reply?.params?.seconds ?? "" });
    else if (t(key) !== key) text = t(key);
    else text = t("err_generic", { detail: message });
    toast(text, "error");
    announce(text);
  }

  function names(state) {
    return state.seats.map((s) => seatName(s));
  }

  function render(state, message) {
    hideToastIfStale(message);
    title.textContent = t("tableOf", { game: t(state.game), id: state.table });
    document.title = `${t(state.game)} · cardtable`;
    renderSeats(state);
    invites.hidden = state.status !== "waiting";
    if (!board && state.view) {
      board = new BOARDS[state.game]({ conn, tableId, token: mine ? mine.token : null });
      boardHolder.replaceChildren(board.el);
    }
    if (board && state.view) board.update(state, message);
    status.textContent = statusLine(state);
    renderPause(state);
    if (status.textContent !== lastAnnounced && state.game === "candidate") {
      lastAnnounced = status.textContent;
      announce(status.textContent);
    }
    renderResult(state);
    main.dataset.version = state.version;
    main.dataset.status = state.status;
  }

  function hideToastIfStale(message) {
    if (message && message.type === "welcome") hideToast();
  }

  function statusLine(state) {
    if (state.status === "waiting") return t("waitingFor");
    if (state.status === "finished") return t("matchOver");
    if (state.pause) return t("pausedLine"); // nobody moves until the next deal or round
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

  function renderSeats(state) {
    clocksAt = performance.now();
    const items = state.seats.map((s) => {
      const flags = [];
      if (s.role === "human") flags.push(s.connected ? t("connected") : t("away"));
      if (s.substituted) flags.push(t("botFor"));
      const clock = state.clocks ? h("span", { class: "clock", "data-seat": s.index, "aria-label": t("clock") }) : null;
      return h(
        "li",
        {
          class: `seatchip ${s.index === state.seat ? "me" : ""} ${state.to_move === s.index ? "tomove" : ""}`,
          "aria-current": state.to_move === s.index ? "true" : false,
        },
        h("strong", {}, s.role === "open" ? t("open") : seatName(s)),
        s.index === state.seat ? ` (${t("you")})` : "",
        flags.length ? h("span", { class: "flags" }, ` · ${flags.join(" · ")}`) : "",
        clock,
      );
    });
    seatsBar.replaceChildren(...items);
    tickClocks(state);
    clearInterval(clockTimer);
    if (state.clocks && state.status === "playing") {
      clockTimer = setInterval(() => tickClocks(state), 500);
    }
  }

  function tickClocks(state) {
    if (!state.clocks) return;
    const spent = (performance.now() - clocksAt) / 1000;
    for (const el of seatsBar.querySelectorAll(".clock")) {
      const seat = Number(el.dataset.seat);
      const running =
        state.status === "playing" && (state.to_move === seat || state.to_move === "anyone");
      const left = Math.max(0, state.clocks[seat] - (running ? spent : 0));
      const m = Math.floor(left / 60);
      const s = Math.floor(left % 60);
      el.textContent = ` · ${m}:${String(s).padStart(2, "0")}`;
      el.classList.toggle("low", left < 15);
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
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      countdown.textContent = left > 0 ? segment.next(left) : t("starting");
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
      ? h("button", { type: "button", class: "primary", "data-key": "ready", disabled: done }, done ? t("waitingOthers") : t("ready"))
      : null;
    if (readyButton) {
      readyButton.addEventListener("click", () => {
        if (conn.ready()) {
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

  function renderResult(state) {
    if (state.status !== "finished" || !state.result) {
      result.hidden = true;
      return;
    }
    const who = names(state);
    const winners = state.result.winners.map((i) => who[i]);
    const rows = state.seats.map((s, i) =>
      h("tr", {}, h("th", { scope: "row" }, who[i]), h("td", {}, state.result.totals[i])),
    );
    const actions = [];
    if (mine && state.seat !== null) {
      const rematch = h("button", { type: "button", class: "primary" }, t("rematch"));
      rematch.addEventListener("click", async () => {
        try {
          const seated = await api.rematch(tableId, mine.token);
          saveSeat(seated.table.id, { seat: seated.seat, token: seated.token, name: mine.name });
          navigate(`/play/${seated.table.id}`);
        } catch (err) {
          toast(t("err_generic", { detail: err.message }));
        }
      });
      actions.push(rematch);
    }
    actions.push(
      h("a", { href: `/replay/${tableId}`, "data-nav": "", class: "button" }, t("replay")),
      h("a", { href: api.recordUrl(tableId), class: "button", download: "" }, t("record")),
      h("a", { href: "/", "data-nav": "", class: "button" }, t("toLobby")),
    );
    result.replaceChildren(
      h("h2", {}, t("matchOver")),
      h("p", { class: "winners" }, winners.length === state.seats.length && winners.length > 1 ? t("draw") : t("won", { names: winners.join(", ") })),
      h("table", { class: "totals" }, h("caption", {}, t("totals")), h("tbody", {}, rows)),
      h("div", { class: "actions" }, actions),
    );
    result.hidden = false;
  }

  return () => {
    clearInterval(clockTimer);
    clearInterval(pauseTimer);
    if (board && board.destroy) board.destroy();
    conn.stop();
  };
}
