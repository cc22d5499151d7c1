// "Play now": wait in the queue of a game, rating and clock until the server seats
// everyone at a new table (docs/protocol.md, "Play now"), and the lobby's list of the
// players waiting. While it waits the page polls its seek every second: that poll is
// the heartbeat, so a closed page's seek vanishes by itself; leaving the lobby or
// closing the page also cancels it at once.

import { signedIn } from "./account.js";
import { api, saveName, saveSeat, savedName } from "./api.js";
import { announce, append, fill, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { GAME_SEATS } from "./options.js";
import { navigate } from "./nav.js";
import { ratingBadge } from "./ratings.js";

/** The clocks offered, by key: minutes each and seconds added per move. */
export const CLOCKS = {
  none: null,
  "3+2": { initial: 180, increment: 2 },
  "5+5": { initial: 300, increment: 5 },
  "15+10": { initial: 900, increment: 10 },
};

/** Days per move a signed-in player may wait for (a correspondence game of Candidate). */
const DAYS = { d1: 1, d2: 2, d3: 3, d7: 7 };

const POLL_MS = 1000;

/** A clock in a few words: "5+5" (minutes + seconds per move), days per move, or
 * "no clock". */
export function timeControlText(tc, days = null) {
  if (days) return t("chDays", { n: days });
  return tc ? `${tc.initial / 60}+${tc.increment}` : t("seekNoClock");
}

/** The "Play now" panel: its element, `show(seeks)` for the lobby's list of waiting
 * players, and `stop()` (cancels a waiting seek) for when the lobby is left. */
export function playNow() {
  const me = signedIn();
  const game = h(
    "select",
    { name: "seek-game", id: "seek-game" },
    h("option", { value: "candidate" }, t("candidate")),
    h("option", { value: "spy" }, t("spy")),
  );
  const clock = h(
    "select",
    { name: "seek-clock", id: "seek-clock" },
    Object.entries(CLOCKS).map(([key, tc]) => h("option", { value: key }, timeControlText(tc))),
    // A correspondence game: signed-in players, a game played by turns.
    me ? Object.entries(DAYS).map(([key, n]) => h("option", { value: key, "data-days": n }, timeControlText(null, n))) : [],
  );
  const daysFit = () => {
    for (const option of /** @type {HTMLSelectElement} */ (clock).options) {
      if (option.dataset.days) option.disabled = game.value === "spy";
    }
    if (/** @type {HTMLSelectElement} */ (clock).selectedOptions[0]?.disabled) clock.value = "none";
  };
  game.addEventListener("change", daysFit);
  daysFit();
  const rated = h("input", { type: "checkbox", name: "seek-rated", disabled: !me });
  const name = me
    ? null
    : h("input", { type: "text", name: "seek-name", required: true, maxlength: 32, value: savedName(), autocomplete: "nickname" });
  const form = h("form", { class: "seekform" });
  const status = h("div", { class: "seekstatus", "aria-live": "polite" });
  const list = h("div", { class: "tablelist seeklist" });
  let mine = null; // {id, secret} while waiting
  let timer = null;
  let lastBotsReady = false;
  let chosenSeats = null; // the player's choice of seats with bots, kept across polls

  append(form,
    me ? h("p", { class: "note" }, t("seekAs", { name: me.name })) : label(t("yourName"), name),
    label(t("game"), game),
    label(t("clock"), clock),
    h("label", { class: "check" }, rated, t("rated")),
    me ? null : h("p", { class: "hint" }, t("ratedSignIn"), " ", h("a", { href: "/signin", "data-nav": "" }, t("signIn"))),
    h("button", { type: "submit", class: "primary", "data-action": "play-now" }, t("seekPlay")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const days = DAYS[clock.value] || null;
    start({ game: game.value, rated: rated.checked, time_control: days ? null : CLOCKS[clock.value], days });
  });

  async function start(request) {
    if (mine) return;
    const who = name ? name.value.trim() : null;
    if (name && !who) {
      name.focus();
      return;
    }
    if (who) saveName(who);
    try {
      const made = await api.seek({ ...request, name: who });
      mine = { id: made.seek.id, secret: made.secret };
      lastBotsReady = false;
      chosenSeats = null;
      announce(t("seekWaiting"));
      shown(made);
    } catch (err) {
      toast(t("seekRefused", { detail: await apiErrorText(err) }));
    }
  }

  /** Draw the owner's seek as the server said (and sit down once seated). */
  function shown(answer) {
    clearTimeout(timer);
    if (answer.status === "seated" && answer.seated) {
      const seated = answer.seated;
      mine = null;
      saveSeat(seated.table.id, { seat: seated.seat, token: seated.token, name: answer.seek.name });
      navigate(`/play/${seated.table.id}`);
      return;
    }
    const seek = answer.seek;
    const botsReady = answer.bots_in <= 0;
    if (botsReady && !lastBotsReady) announce(t("seekBotsOffer"));
    lastBotsReady = botsReady;
    const [lo, hi] = GAME_SEATS[seek.game] || [2, 2];
    // Redrawn at every poll: the player's choice stays (not the default again).
    const fallback = Math.max(answer.in_queue, Math.min(hi, 4));
    const seatsShown = chosenSeats !== null && chosenSeats >= Math.max(lo, answer.in_queue) && chosenSeats <= hi ? chosenSeats : fallback;
    const size = h(
      "select",
      { name: "seek-seats", "aria-label": t("players") },
      Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((n) =>
        h("option", { value: n, selected: n === seatsShown }, n),
      ),
    );
    size.addEventListener("change", () => {
      chosenSeats = Number(size.value);
    });
    fill(
      status,
      h(
        "p",
        { class: "seekline", "data-seek": seek.id },
        h("strong", {}, `${t(seek.game)} · ${timeControlText(seek.time_control, seek.days)}${seek.rated ? ` · ${t("rated")}` : ""}`),
        " ",
        answer.starts_in !== null
          ? t("seekStarting", { n: answer.in_queue, s: Math.ceil(answer.starts_in) })
          : t("seekWaitingN", { n: answer.in_queue }),
      ),
      h(
        "p",
        { class: "actions" },
        botsReady
          ? [
              lo === hi ? null : h("label", { class: "field inline" }, h("span", {}, t("players")), size),
              h("button", { type: "button", class: "primary", "data-action": "seek-bots", onclick: () => bots(lo === hi ? null : Number(size.value)) }, t("seekBots")),
            ]
          : // One countdown at a time: once enough people wait, the game's start is it.
            answer.starts_in !== null
            ? null
            : h("span", { class: "note" }, t("seekBotsIn", { s: Math.ceil(answer.bots_in) })),
        h("button", { type: "button", "data-action": "seek-cancel", onclick: cancel }, t("cancel")),
      ),
    );
    form.hidden = true;
    timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    const polled = mine;
    if (!polled) return;
    try {
      const answer = await api.pollSeek(polled.id, polled.secret);
      // Cancelled while the answer was on its way: a late answer draws nothing, unless
      // the server had seated the player already (the cancel came too late: the game
      // waits for them).
      if (mine === polled || answer.status === "seated") shown(answer);
    } catch (err) {
      if (mine !== polled) return;
      if (err.status === 404) {
        reset();
        toast(t("seekGone"));
      } else {
        timer = setTimeout(poll, POLL_MS); // a network blip: try again
      }
    }
  }

  async function bots(seats) {
    const asked = mine;
    if (!asked) return;
    try {
      const answer = await api.seekBots(asked.id, asked.secret, seats);
      if (mine === asked || answer.status === "seated") shown(answer);
    } catch (err) {
      toast(t("seekRefused", { detail: await apiErrorText(err) }));
    }
  }

  function reset() {
    clearTimeout(timer);
    mine = null;
    status.replaceChildren();
    form.hidden = false;
  }

  function cancel() {
    if (mine) api.cancelSeek(mine.id, mine.secret).catch(() => {});
    reset();
    announce(t("seekCancelled"));
  }

  // Closing or reloading the page cancels too (the missing heartbeat would, later).
  const onHide = () => {
    if (mine) api.cancelSeek(mine.id, mine.secret).catch(() => {});
  };
  window.addEventListener("pagehide", onHide);

  let shownSeeks = []; // the list last drawn: drawn again once a rating arrives
  function show(seeks) {
    shownSeeks = seeks;
    const others = seeks.filter((s) => !mine || s.id !== mine.id);
    fill(
      list,
      h("h3", {}, t("seekList")),
      others.length
        ? h(
            "ul",
            { class: "tables" },
            others.map((s) =>
              h(
                "li",
                { class: "tablerow", "data-seek": s.id },
                h("strong", {}, t(s.game)),
                " ",
                h("span", {}, timeControlText(s.time_control, s.days)),
                s.rated ? h("span", { class: "status playing" }, t("rated")) : null,
                h("span", { class: "who" }, s.name, s.signed_in ? ` (${t("seatAccount")})` : s.guest ? ` (${t("seatGuest")})` : "", " ", ratingBadge(s, s.game, () => show(shownSeeks))),
                h(
                  "span",
                  { class: "rowactions" },
                  h(
                    "button",
                    {
                      type: "button",
                      disabled: Boolean(mine) || ((s.rated || Boolean(s.days)) && !me),
                      onclick: () => start({ game: s.game, rated: s.rated, time_control: s.time_control, days: s.days }),
                    },
                    t("seekJoin"),
                  ),
                ),
              ),
            ),
          )
        : h("p", {}, t("seekNone")),
    );
  }

  const element = h(
    "section",
    { class: "panel", id: "playnow", "aria-labelledby": "playnow-h" },
    h("h2", { id: "playnow-h" }, t("seekTitle")),
    h("p", { class: "note" }, t("seekHelp")),
    form,
    status,
    list,
  );
  return {
    element,
    show,
    stop() {
      window.removeEventListener("pagehide", onHide);
      if (mine) cancel();
      clearTimeout(timer);
    },
  };
}

function label(text, control) {
  return h("label", { class: "field" }, h("span", {}, text), control);
}
