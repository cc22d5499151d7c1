// The lobby: open tables, creating a table, invites, joining by link or code, finished
// games. The games' option fields live here too (the next game with the same seats asks
// for them again, nextgame.js).

import { signedIn } from "./account.js";
import { api, hostToken, saveHostToken, saveName, saveSeat, savedName, savedSeat } from "./api.js";
import { append, fill, h, toast } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { apiErrorText, inviteList } from "./invites.js";
import { navigate } from "./nav.js";
import { GAME_SEATS, field, optionFields, readOptions } from "./options.js";
import { playNow } from "./seek.js";
import { lobbyTournaments } from "./tournaments.js";
import { tutorialOffer } from "./tutorial.js";

export function showLobby(main) {
  const openList = h("div", { class: "tablelist", "aria-live": "polite" }, t("loading"));
  const historyList = h("div", { class: "tablelist" }, t("loading"));
  const created = h("div", { id: "created", class: "created", "aria-live": "polite" });
  const seeking = playNow();
  const tournaments = lobbyTournaments();

  async function refresh() {
    try {
      tournaments.refresh();
      seeking.show(await api.seeks());
      const live = await api.tables();
      openList.replaceChildren(
        live.length ? tableList(live, "live") : h("p", {}, t("noTables")),
      );
      const done = await api.tables("finished");
      historyList.replaceChildren(
        done.length ? tableList(done, "finished") : h("p", {}, t("noHistory")),
      );
    } catch {
      openList.replaceChildren(h("p", { class: "error" }, t("err_network")));
    }
  }

  // Play now first: the quickest way to a game, in view on a phone without scrolling.
  append(
    main,
    seeking.element,
    tutorialOffer(), // a first-time visitor's way in (null once finished or hidden)
    h(
      "section",
      { class: "panel", "aria-labelledby": "open-h" },
      h("h1", { id: "open-h" }, t("openTables")),
      h("button", { type: "button", onclick: refresh, class: "small" }, t("refresh")),
      openList,
    ),
    tournaments.element,
    h(
      "section",
      { class: "panel", "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, t("createTable")),
      createForm(created),
      created,
    ),
    joinByLink(),
    h(
      "section",
      { class: "panel", id: "history", "aria-labelledby": "history-h" },
      h("h2", { id: "history-h" }, t("history")),
      h("p", {}, h("a", { href: "/leaderboard", "data-nav": "", class: "button", id: "leaderboard-link" }, t("navLeaderboard"))),
      historyList,
    ),
  );
  refresh();
  const timer = setInterval(refresh, 5000);
  return () => {
    clearInterval(timer);
    seeking.stop();
  };
}

function seatSummary(seat) {
  if (seat.role === "open") return t("open");
  return seat.guest ? `${seatName(seat)} (${t("seatGuest")})` : seatName(seat);
}

function tableList(tables, which) {
  return h(
    "ul",
    { class: "tables" },
    tables.map((table) =>
      h(
        "li",
        { class: "tablerow", "data-table": table.id },
        h("strong", {}, t(table.game)),
        " ",
        h("span", { class: "tid" }, table.id),
        " · ",
        h("span", { class: `status ${table.status}` }, t(`status_${table.status}`)),
        h("span", { class: "who" }, table.seats.map(seatSummary).join(", ")),
        h(
          "span",
          { class: "rowactions" },
          which === "live"
            ? [
                // A table this browser sits at or created: back to its page (the
                // creator finds the open seats' invites there).
                savedSeat(table.id) || hostToken(table.id)
                  ? h("a", { href: `/play/${table.id}`, "data-nav": "", class: "button primary", "data-action": "mine" }, t("yourTable"))
                  : null,
                h("a", { href: `/watch/${table.id}`, "data-nav": "", class: "button" }, t("watch")),
              ]
            : [
                h("a", { href: `/replay/${table.id}`, "data-nav": "", class: "button" }, t("replay")),
                h("a", { href: api.recordUrl(table.id), class: "button", download: "" }, t("record")),
              ],
        ),
      ),
    ),
  );
}


function createForm(created) {
  const form = h("form", { class: "create", "aria-labelledby": "create-h" });
  const game = h(
    "select",
    { name: "game", id: "game" },
    h("option", { value: "candidate" }, t("candidate")),
    h("option", { value: "spy" }, t("spy")),
  );
  const count = h("input", { type: "number", name: "players", min: 2, max: 8, value: 2 });
  const options = h("fieldset", { class: "options" });
  const seats = h("fieldset", { class: "seats" });
  const clock = h("input", { type: "checkbox", name: "clock" });
  const initial = h("input", { type: "number", name: "initial", min: 0.5, step: 0.5, value: 5 });
  const increment = h("input", { type: "number", name: "increment", min: 0, value: 5 });
  // Rated tables are for signed-in players (the server refuses a guest's).
  const me = signedIn();
  const rated = h("input", { type: "checkbox", name: "rated", checked: Boolean(me), disabled: !me });
  // Hints are the creator's choice and every player's by taking a seat; never rated.
  const hints = h("input", { type: "checkbox", name: "hints", checked: !me, disabled: Boolean(me) });
  const botsUnrated = h("p", { class: "hint", "data-bots-unrated": "", hidden: true }, t("botsUnrated"));
  let ratedWish = Boolean(me); // the player's own choice, back once the bots are gone
  /** Only games between people are rated: a bot seat unticks Rated (and allows Hint). */
  function syncFairPlay() {
    const bots = choices.slice(0, Number(count.value)).some((c) => c.role === "bot");
    rated.disabled = !me || bots;
    rated.checked = Boolean(me) && !bots && ratedWish;
    botsUnrated.hidden = !me || !bots;
    if (rated.checked) hints.checked = false;
    else if (hints.disabled) hints.checked = true;
    hints.disabled = rated.checked;
  }
  rated.addEventListener("change", () => {
    ratedWish = rated.checked;
    syncFairPlay();
  });
  // A signed-in player sits under the account's name: no name to type.
  const name = me ? null : h("input", { type: "text", name: "name", required: true, maxlength: 32, value: savedName(), autocomplete: "nickname" });

  function drawOptions() {
    const [lo, hi] = GAME_SEATS[game.value];
    count.min = lo;
    count.max = hi;
    count.disabled = lo === hi;
    count.value = Math.min(hi, Math.max(lo, Number(count.value) || lo));
    fill(options, h("legend", {}, t("gameOptions")), optionFields(game.value));
    drawSeats();
  }

  // Each seat's choice, kept when the player count or the game changes: a seat the
  // form has not shown yet is a medium bot (the first one, the creator, a person).
  const choices = [];

  function drawSeats() {
    const n = Number(count.value);
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const chosen = choices[i] || (choices[i] = { role: i > 0 ? "bot" : "open", level: "medium" });
      const role = h(
        "select",
        { name: `seat${i}`, "aria-label": t("seat", { n: i + 1 }) },
        h("option", { value: "open", selected: chosen.role === "open" }, t("seatPerson")),
        h("option", { value: "bot", selected: chosen.role === "bot" }, t("seatBot")),
      );
      const level = h(
        "select",
        { name: `level${i}`, "aria-label": `${t("seat", { n: i + 1 })}: ${t("level")}` },
        ["easy", "medium", "hard"].map((lv) => h("option", { value: lv, selected: lv === chosen.level }, t(lv))),
      );
      const sync = () => {
        chosen.role = role.value;
        chosen.level = level.value;
        level.disabled = role.value !== "bot";
      };
      role.addEventListener("change", () => {
        sync();
        syncFairPlay();
      });
      level.addEventListener("change", sync);
      sync();
      rows.push(h("div", { class: "seatrow" }, h("span", {}, t("seat", { n: i + 1 })), role, level));
    }
    fill(seats, h("legend", {}, t("seats")), rows);
    syncFairPlay();
  }

  game.addEventListener("change", drawOptions);
  count.addEventListener("change", drawSeats);
  count.addEventListener("input", () => {
    if (Number(count.value) >= Number(count.min) && Number(count.value) <= Number(count.max)) drawSeats();
  });
  drawOptions();

  append(form,
    name ? field(t("yourName"), name) : null,
    field(t("game"), game),
    field(t("players"), count),
    options,
    seats,
    h(
      "fieldset",
      { class: "clock" },
      h("legend", {}, t("timeControl")),
      h("label", { class: "check" }, clock, t("clock")),
      field(t("initial"), initial),
      field(t("increment"), increment),
    ),
    h("label", { class: "check" }, rated, t("rated")),
    botsUnrated,
    h("label", { class: "check" }, hints, t("allowHints")),
    me
      ? null
      : h("p", { class: "hint", "data-rated-hint": "" }, t("ratedSignIn"), " ", h("a", { href: "/signin", "data-nav": "" }, t("signIn"))),
    h("button", { type: "submit", class: "primary" }, t("create")),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const n = Number(count.value);
    const request = {
      game: game.value,
      options: readOptions(data, game.value),
      seats: Array.from({ length: n }, (_, i) =>
        data.get(`seat${i}`) === "bot" ? { type: "bot", level: data.get(`level${i}`) } : { type: "open" },
      ),
      time_control: clock.checked
        ? { initial: Number(initial.value) * 60, increment: Number(increment.value) }
        : null,
      rated: rated.checked,
      hints: hints.checked && !rated.checked,
      // With one open seat (a game against bots) the server seats the creator there
      // at once under this name, the same join as the seat's invite; with several it
      // ignores it and the invites go out.
      sit: me ? me.name : name.value.trim() || "Player",
    };
    if (!me) saveName(request.sit);
    try {
      const answer = await api.create(request);
      saveHostToken(answer.table.id, answer.host_token);
      if (answer.seated) {
        const mine = answer.seated;
        saveSeat(mine.table.id, { seat: mine.seat, token: mine.token, name: mine.table.seats[mine.seat].name });
        navigate(`/play/${mine.table.id}`);
        return;
      }
      showInvites(created, answer);
    } catch (err) {
      toast(t("err_create", { detail: await apiErrorText(err) }));
    }
  });
  return form;
}

function showInvites(created, answer) {
  const table = answer.table;
  created.replaceChildren(
    h("h3", {}, `${t(table.game)} ${table.id}: ${t("invites")}`),
    answer.invites.length ? h("p", { class: "note" }, t("inviteHelp")) : null,
    inviteList(table.id, table.game, answer.invites, { friends: Boolean(signedIn()) }),
    h("a", { href: `/watch/${table.id}`, "data-nav": "", class: "button" }, t("watch")),
  );
  const first = created.querySelector("button[data-seat]");
  if (first) first.focus();
}

// What the join field takes: an address of this app (an invite link, or a table's play,
// watch or replay page), or a bare code — a table's id or an open seat's invite code,
// both made of URL-safe letters (A–Z a–z 0–9 - _). The server says which it is.
const CODE = /^[A-Za-z0-9_-]{4,64}$/;
const ADDRESS = /^\/(play|watch|replay)\/([A-Za-z0-9_-]+)\/?$/;

/** Where a pasted link or code leads (a path), or null with the reason toasted. */
async function destination(text) {
  let url = null;
  if (/^https?:\/\//i.test(text) || text.startsWith("/")) {
    try {
      url = new URL(text, location.origin);
    } catch {
      url = null;
    }
  }
  if (url) {
    const page = url.pathname.match(ADDRESS);
    const invite = url.searchParams.get("invite");
    if (!page || (invite !== null && !CODE.test(invite))) {
      toast(t("err_bad_link"));
      return null;
    }
    return invite && page[1] === "play" ? `/play/${page[2]}?invite=${encodeURIComponent(invite)}` : `/${page[1]}/${page[2]}`;
  }
  if (!CODE.test(text)) {
    toast(t("err_bad_code", { code: text }));
    return null;
  }
  try {
    const found = await api.code(text);
    const id = found.table.id;
    if (found.target === "invite") return `/play/${id}?invite=${encodeURIComponent(text)}`;
    if (found.table.status === "finished") return `/replay/${id}`;
    return savedSeat(id) ? `/play/${id}` : `/watch/${id}`;
  } catch (err) {
    toast(t("err_code", { detail: await apiErrorText(err) }));
    return null;
  }
}

function joinByLink() {
  const input = h("input", {
    type: "text",
    name: "invite",
    id: "invite-input",
    required: true,
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "invite-help",
  });
  const form = h(
    "form",
    { class: "joinlink" },
    field(t("inviteLink"), input),
    h("button", { type: "submit" }, t("join")),
    h("p", { class: "note", id: "invite-help" }, t("codeHelp")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const path = await destination(input.value.trim());
    if (path) navigate(path);
  });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, t("joinByLink")),
    form,
  );
}
