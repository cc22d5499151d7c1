// The lobby: open tables, creating a table, invites, joining by link, finished games.

import { api, saveName, saveSeat, savedName } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { navigate } from "./main.js";

const GAME_SEATS = { candidate: [2, 2], spy: [2, 8] };

export function showLobby(main) {
  const openList = h("div", { class: "tablelist", "aria-live": "polite" }, t("loading"));
  const historyList = h("div", { class: "tablelist" }, t("loading"));
  const created = h("div", { id: "created", class: "created", "aria-live": "polite" });

  async function refresh() {
    try {
      const live = await api.tables();
      openList.replaceChildren(
        live.length ? tableList(live, "live") : h("p", {}, t("noTables")),
      );
      const done = await api.tables("finished");
      historyList.replaceChildren(
        done.length ? tableList(done, "finished") : h("p", {}, t("noHistory")),
      );
    } catch (err) {
      openList.replaceChildren(h("p", { class: "error" }, t("err_network")));
    }
  }

  main.append(
    h(
      "section",
      { class: "panel", "aria-labelledby": "open-h" },
      h("h1", { id: "open-h" }, t("openTables")),
      h("button", { type: "button", onclick: refresh, class: "small" }, t("refresh")),
      openList,
    ),
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
      historyList,
    ),
  );
  refresh();
  const timer = setInterval(refresh, 5000);
  return () => clearInterval(timer);
}

function seatSummary(seat) {
  if (seat.role === "open") return t("open");
  return seatName(seat);
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
            ? h("a", { href: `/watch/${table.id}`, "data-nav": "", class: "button" }, t("watch"))
            : [
                h("a", { href: `/replay/${table.id}`, "data-nav": "", class: "button" }, t("replay")),
                h("a", { href: api.recordUrl(table.id), class: "button", download: "" }, t("record")),
              ],
        ),
      ),
    ),
  );
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
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
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 40, value: savedName(), autocomplete: "nickname" });

  function drawOptions() {
    const isSpy = game.value === "spy";
    const [lo, hi] = GAME_SEATS[game.value];
    count.min = lo;
    count.max = hi;
    count.disabled = lo === hi;
    count.value = Math.min(hi, Math.max(lo, Number(count.value) || lo));
    fill(options,
      h("legend", {}, t("game")),
      isSpy
        ? [
            field(t("rounds"), h("input", { type: "number", name: "rounds", min: 1, max: 99, value: 5 })),
            field(t("bonus"), h("input", { type: "number", name: "bonus", min: 0, max: 1000, value: 20 })),
            h("label", { class: "check" }, h("input", { type: "checkbox", name: "full_decks" }), t("fullDecks")),
            h("label", { class: "check" }, h("input", { type: "checkbox", name: "count_points_pile" }), t("countPoints")),
          ]
        : [
            field(t("decks"), h("select", { name: "decks" }, [1, 2, 3].map((n) => h("option", { value: n }, n)))),
            field(t("deals"), h("input", { type: "number", name: "deals", min: 1, max: 12, value: 12 })),
          ],
    );
    drawSeats();
  }

  function drawSeats() {
    const n = Number(count.value);
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const role = h(
        "select",
        { name: `seat${i}`, "aria-label": t("seat", { n: i + 1 }) },
        h("option", { value: "open" }, t("seatPerson")),
        h("option", { value: "bot", selected: i > 0 }, t("seatBot")),
      );
      const level = h(
        "select",
        { name: `level${i}`, "aria-label": `${t("seat", { n: i + 1 })}: ${t("level")}` },
        ["easy", "medium", "hard"].map((lv) => h("option", { value: lv, selected: lv === "medium" }, t(lv))),
      );
      const sync = () => {
        level.disabled = role.value !== "bot";
      };
      role.addEventListener("change", sync);
      sync();
      rows.push(h("div", { class: "seatrow" }, h("span", {}, t("seat", { n: i + 1 })), role, level));
    }
    fill(seats, h("legend", {}, t("seats")), rows);
  }

  game.addEventListener("change", drawOptions);
  count.addEventListener("change", drawSeats);
  drawOptions();

  form.append(
    field(t("yourName"), name),
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
    h("button", { type: "submit", class: "primary" }, t("create")),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const n = Number(count.value);
    const opts =
      game.value === "spy"
        ? {
            rounds: Number(data.get("rounds")),
            bonus: Number(data.get("bonus")),
            full_decks: data.get("full_decks") === "on",
            count_points_pile: data.get("count_points_pile") === "on",
          }
        : { decks: Number(data.get("decks")), deals: Number(data.get("deals")) };
    const request = {
      game: game.value,
      options: opts,
      seats: Array.from({ length: n }, (_, i) =>
        data.get(`seat${i}`) === "bot" ? { type: "bot", level: data.get(`level${i}`) } : { type: "open" },
      ),
      time_control: clock.checked
        ? { initial: Number(initial.value) * 60, increment: Number(increment.value) }
        : null,
      rated: rated.checked,
    };
    saveName(name.value.trim());
    try {
      const answer = await api.create(request);
      showInvites(created, answer, name.value.trim());
    } catch (err) {
      toast(t("err_create", { detail: err.message }));
    }
  });
  return form;
}

function showInvites(created, answer, myName) {
  const table = answer.table;
  const items = answer.invites.map((invite) => {
    const url = new URL(invite.link, location.origin).href;
    const copy = h("button", { type: "button", class: "small" }, t("copyLink"));
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        const input = copy.parentElement.querySelector("input");
        input.select();
        document.execCommand("copy");
      }
      copy.textContent = t("copied");
    });
    const take = h("button", { type: "button", class: "primary small", "data-seat": invite.seat }, t("takeSeat", { n: invite.seat + 1 }));
    take.addEventListener("click", async () => {
      try {
        const seated = await api.join(table.id, invite.code, myName || "Player");
        saveSeat(table.id, { seat: seated.seat, token: seated.token, name: myName });
        navigate(`/play/${table.id}`);
      } catch (err) {
        toast(t("err_join", { detail: err.message }));
      }
    });
    return h(
      "li",
      { class: "invite" },
      h("span", {}, t("inviteFor", { n: invite.seat + 1 })),
      h("input", { type: "text", readonly: true, value: url, "aria-label": t("inviteFor", { n: invite.seat + 1 }), class: "invite-link" }),
      copy,
      take,
    );
  });
  created.replaceChildren(
    h("h3", {}, `${t(table.game)} ${table.id}: ${t("invites")}`),
    h("ul", { class: "invites" }, items),
    h("a", { href: `/watch/${table.id}`, "data-nav": "", class: "button" }, t("watch")),
  );
  const first = created.querySelector("button[data-seat]");
  if (first) first.focus();
}

function joinByLink() {
  const input = h("input", { type: "text", name: "invite", id: "invite-input" });
  const form = h(
    "form",
    { class: "joinlink" },
    field(t("inviteLink"), input),
    h("button", { type: "submit" }, t("join")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const match = text.match(/\/play\/([\w-]+)\?invite=([\w-]+)/);
    if (!match) {
      toast(t("err_no_invite"));
      return;
    }
    navigate(`/play/${match[1]}?invite=${match[2]}`);
  });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, t("joinByLink")),
    form,
  );
}
