// Friends: the page /friends (whom you follow — online or not, at which table —, your
// challenges, whom you blocked), the challenge form (a game, its options, a clock —
// none, a live one, or days per move for a correspondence game —, rated or casual),
// and the buttons a player's profile shows (follow, challenge, block).

import { signedIn } from "./account.js";
import { api } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { navigate } from "./nav.js";
import { onNotice, signedOut, termsText } from "./notices.js";
import { field, optionFields, readOptions } from "./options.js";

/** Seconds between two looks at who is online while the page is open. */
const POLL_MS = 10000;

/** The clocks a challenge offers: none, live ones (seconds), days per move. */
const CLOCKS = {
  none: null,
  "300+3": { initial: 300, increment: 3 },
  "600+5": { initial: 600, increment: 5 },
  d1: { days: 1 },
  d2: { days: 2 },
  d3: { days: 3 },
  d7: { days: 7 },
};

async function run(action, after) {
  try {
    await action();
    if (after) after();
  } catch (err) {
    toast(await apiErrorText(err));
  }
}

/** The challenge form for the player `name`; `done` runs once the challenge is sent. */
export function challengeForm(name, done = () => {}) {
  const options = h("div", { class: "optionfields" });
  const clock = h("select", { name: "clock" });
  const game = h("select", { name: "game" }, ["candidate", "spy"].map((g) => h("option", { value: g }, t(g))));
  const redraw = () => {
    options.replaceChildren(...optionFields(game.value));
    // Days per move only for a game played by turns (Spy vs Spy is a race).
    const keys = Object.keys(CLOCKS).filter((k) => game.value === "candidate" || !k.startsWith("d"));
    clock.replaceChildren(...keys.map((k) => h("option", { value: k }, clockLabel(k))));
  };
  game.addEventListener("change", redraw);
  redraw();
  const form = h(
    "form",
    { class: "challengeform", "data-challenge-form": name },
    h("h3", {}, t("chTitle", { name })),
    field(t("game"), game),
    options,
    field(t("chClock"), clock),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), t("rated")),
    h("button", { type: "submit", class: "primary" }, t("chSend")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const request = {
      name,
      game: game.value,
      options: readOptions(data, game.value),
      clock: CLOCKS[clock.value],
      rated: data.get("rated") === "on",
    };
    run(async () => {
      await api.challenge(request);
      toast(t("chSent", { name }), "info");
    }, done);
  });
  return form;
}

function clockLabel(key) {
  const clock = CLOCKS[key];
  if (!clock) return t("chNoClock");
  if (clock.days) return t("chDays", { n: clock.days });
  return t("chLive", { min: clock.initial / 60, inc: clock.increment });
}

/** The page /friends. */
export function showFriends(main) {
  document.title = `${t("friendsTitle")} · cardtable`;
  if (!signedIn()) return signedOut(main);
  const following = h("ul", { class: "friends" });
  const challenges = h("ul", { class: "challenges" });
  const blocked = h("ul", { class: "blocked" });
  const nameInput = h("input", { name: "name", required: true, maxlength: 64, autocomplete: "off", "aria-label": t("friendName"), placeholder: t("friendName") });
  const followForm = h("form", { class: "row" }, nameInput, h("button", { type: "submit" }, t("follow")));
  followForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (name) run(() => api.follow(name), () => {
      nameInput.value = "";
      load();
    });
  });
  main.replaceChildren(
    h(
      "section",
      { class: "panel community", "data-page": "friends" },
      h("h1", {}, t("friendsTitle")),
      followForm,
      following,
      h("h2", {}, t("chListTitle")),
      challenges,
      h("h2", {}, t("blockedTitle")),
      blocked,
    ),
  );
  let open = null; // the friend whose challenge form is open
  const load = async () => {
    const [friends, mine] = await Promise.all([api.friends(), api.challenges()]);
    following.replaceChildren(
      ...(friends.following.length ? friends.following.map(friendRow) : [h("li", { class: "hint" }, t("friendsNone"))]),
    );
    const shown = mine.filter((c) => c.status === "pending" || (c.status === "accepted" && c.play_url));
    challenges.replaceChildren(...(shown.length ? shown.map(challengeRow) : [h("li", { class: "hint" }, t("chNone"))]));
    blocked.replaceChildren(
      ...(friends.blocked.length
        ? friends.blocked.map((name) =>
            h("li", { "data-blocked": name }, name, " ", h("button", { type: "button", onclick: () => run(() => api.unblock(name), load) }, t("unblock"))),
          )
        : [h("li", { class: "hint" }, t("blockedNone"))]),
    );
  };
  const friendRow = (f) =>
    h(
      "li",
      { "data-friend": f.name, "data-online": f.online ? "yes" : "no" },
      h("span", { class: f.online ? "dot online" : "dot", "aria-hidden": "true" }),
      h("a", { href: `/player/${encodeURIComponent(f.name)}`, "data-nav": "" }, f.name),
      " ",
      h("span", { class: "hint" }, f.online ? t("online") : t("offline")),
      f.follows_you ? h("span", { class: "hint" }, ` · ${t("followsYou")}`) : null,
      ...f.tables.map((id) => [" · ", h("a", { href: `/watch/${id}`, "data-nav": "", "data-at-table": id }, t("atTable"))]).flat(),
      h(
        "span",
        { class: "actions" },
        h("button", { type: "button", "data-action": "challenge", onclick: () => { open = open === f.name ? null : f.name; load(); } }, t("chButton")),
        h("button", { type: "button", onclick: () => run(() => api.unfollow(f.name), load) }, t("unfollow")),
      ),
      open === f.name ? challengeForm(f.name, () => { open = null; load(); }) : null,
    );
  const challengeRow = (c) =>
    h(
      "li",
      { "data-challenge": c.id, "data-status": c.status },
      c.incoming ? t("chFrom", { name: c.from }) : t("chTo", { name: c.to }),
      h("span", { class: "hint" }, ` · ${termsText(c)}`),
      h(
        "span",
        { class: "actions" },
        c.status === "accepted"
          ? h("a", { href: c.play_url, "data-nav": "", class: "button" }, t("gamePlay"))
          : c.incoming
            ? [
                h("button", { type: "button", class: "primary", "data-action": "accept", onclick: () => run(async () => navigate((await api.answerChallenge(c.id, "accept")).play_url)) }, t("chAccept")),
                h("button", { type: "button", onclick: () => run(() => api.answerChallenge(c.id, "decline"), load) }, t("chDecline")),
              ]
            : h("button", { type: "button", onclick: () => run(() => api.answerChallenge(c.id, "cancel"), load) }, t("chCancel")),
      ),
    );
  load().catch(async (err) => toast(await apiErrorText(err)));
  const timer = setInterval(() => load().catch(() => {}), POLL_MS);
  const stop = onNotice(() => load().catch(() => {}));
  return () => {
    clearInterval(timer);
    stop();
  };
}

/** The buttons of a player's profile: follow or unfollow, challenge, block or unblock. */
export function profileActions(name) {
  const box = h("div", { class: "profileactions", "data-relation": "" });
  if (!signedIn()) return box;
  const draw = async () => {
    const r = await api.relation(name);
    if (r.me) return;
    box.dataset.relation = r.blocked ? "blocked" : r.following ? "following" : "none";
    let form = null;
    const challenge = h("button", {
      type: "button",
      "data-action": "challenge",
      disabled: r.blocked || r.blocked_you,
      onclick: () => {
        form = form ? (form.remove(), null) : box.appendChild(challengeForm(name, () => form && form.remove()));
      },
    }, t("chButton"));
    fill(
      box,
      h(
        "div",
        { class: "actions" },
        r.blocked
          ? null
          : h("button", { type: "button", "data-action": r.following ? "unfollow" : "follow", onclick: () => run(() => (r.following ? api.unfollow(name) : api.follow(name)), draw) }, r.following ? t("unfollow") : t("follow")),
        challenge,
        h("button", { type: "button", "data-action": r.blocked ? "unblock" : "block", onclick: () => run(() => (r.blocked ? api.unblock(name) : api.block(name)), draw) }, r.blocked ? t("unblock") : t("block")),
      ),
      r.blocked_you ? h("p", { class: "hint" }, t("blockedYou")) : null,
    );
  };
  draw().catch(() => {});
  return box;
}
