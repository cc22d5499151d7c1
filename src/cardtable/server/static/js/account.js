// Accounts in the browser: who is signed in, the sign-up and log-in forms, the account
// page (change the password, delete the account, log out) and a player's profile.
// The session itself is an HttpOnly cookie: this page never sees its token.
//   /signup, /signin     create an account / sign in
//   /account             the signed-in player's account
//   /player/NAME         a player's profile: ratings with their history, finished games

import { api } from "./api.js";
import { tokensSection } from "./apitokens.js";
import { h, toast } from "./dom.js";
import { chosenLang, setLang, t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { navigate } from "./nav.js";
import { emailSection, mailChoices } from "./recover.js";
import { botBadge } from "./ratings.js";
import { openReport } from "./report.js";

let current = null; // {name, moderator} of the signed-in account, or null
let loaded = null; // the Promise of the first look-up
const listeners = new Set();

/** Ask the server who is signed in (once; later calls share the answer). */
export function loadSession() {
  if (!loaded) {
    loaded = api
      .session()
      .then((answer) => setSession(answer.account))
      .catch(() => setSession(null));
  }
  return loaded;
}

/** The signed-in account ({name, moderator}) or null. */
export function signedIn() {
  return current;
}

/** Call `fn` whenever someone signs in or out. */
export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function setSession(me) {
  current = me ? { name: me.name, moderator: Boolean(me.moderator) } : null;
  // A device that has chosen no language takes the account's.
  if (me?.lang && !chosenLang()) setLang(me.lang);
  for (const fn of listeners) fn(current);
  return current;
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

/** The sign-up (`mode` "signup") or log-in ("signin") form. */
export function showSignIn(main, mode) {
  const signup = mode === "signup";
  document.title = `${t(signup ? "signUp" : "signIn")} · cardtable`;
  const name = h("input", {
    type: "text",
    id: "account-name",
    name: "username",
    required: true,
    maxlength: 24,
    autocomplete: "username",
  });
  const password = h("input", {
    type: "password",
    id: "account-password",
    name: "password",
    required: true,
    minlength: signup ? 8 : 1,
    maxlength: 256,
    autocomplete: signup ? "new-password" : "current-password",
  });
  const error = h("p", { class: "banner warn", role: "alert", hidden: true });
  const form = h(
    "form",
    { class: "panel accountform", "data-account": mode },
    h("h1", {}, t(signup ? "signUp" : "signIn")),
    signup ? h("p", { class: "hint" }, t("signUpHelp")) : null,
    field(t("userName"), name),
    field(t("password"), password),
    signup ? h("p", { class: "hint" }, t("passwordHelp")) : null,
    error,
    h("button", { type: "submit", class: "primary" }, t(signup ? "signUp" : "signIn")),
    h(
      "p",
      {},
      h(
        "a",
        { href: signup ? "/signin" : "/signup", "data-nav": "" },
        t(signup ? "haveAccount" : "noAccount"),
      ),
    ),
    signup ? null : h("p", {}, h("a", { href: "/forgot", "data-nav": "", "data-forgot-link": "" }, t("forgotLink"))),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const me = await (signup ? api.register : api.login)(name.value, password.value);
      setSession(me);
      toast(t("signedInAs", { name: me.name }), "info", 3000);
      navigate("/");
    } catch (err) {
      error.textContent = await apiErrorText(err);
      error.hidden = false;
      password.value = "";
      password.focus();
    }
  });
  main.replaceChildren(form);
  name.focus();
}

/** The account page: log out, change the password, delete the account. */
export function showAccount(main) {
  document.title = `${t("account")} · cardtable`;
  main.replaceChildren(h("p", {}, t("loading")));
  loadSession().then(() => {
    const me = signedIn();
    if (!me) {
      navigate("/signin");
      return;
    }
    const logout = h("button", { type: "button", "data-logout": "" }, t("signOut"));
    logout.addEventListener("click", async () => {
      await api.logout().catch(() => null);
      setSession(null);
      navigate("/");
    });
    main.replaceChildren(
      h(
        "section",
        { class: "panel accountpage" },
        h("h1", {}, t("account")),
        h(
          "p",
          {},
          t("signedInAs", { name: me.name }),
          " · ",
          h("a", { href: `/player/${encodeURIComponent(me.name)}`, "data-nav": "" }, t("profile")),
        ),
        h("p", { class: "actions" }, logout),
        emailSection(),
        mailChoices(),
        tokensSection(),
        passwordForm(),
        deleteForm(),
      ),
    );
  });
}

function passwordForm() {
  const old = h("input", { type: "password", id: "old-password", required: true, autocomplete: "current-password" });
  const fresh = h("input", {
    type: "password",
    id: "new-password",
    required: true,
    minlength: 8,
    autocomplete: "new-password",
  });
  const form = h(
    "form",
    { class: "accountform", "data-password": "" },
    h("h2", {}, t("changePassword")),
    field(t("currentPassword"), old),
    field(t("newPassword"), fresh),
    h("button", { type: "submit" }, t("changePassword")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.changePassword(old.value, fresh.value);
      old.value = fresh.value = "";
      toast(t("passwordChanged"), "info", 4000);
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  return form;
}

function deleteForm() {
  const password = h("input", { type: "password", id: "delete-password", required: true, autocomplete: "current-password" });
  const sure = h("input", { type: "checkbox", id: "delete-sure", required: true });
  const form = h(
    "form",
    { class: "accountform danger", "data-delete": "" },
    h("h2", {}, t("deleteAccount")),
    h("p", { class: "hint" }, t("deleteHelp")),
    field(t("currentPassword"), password),
    h("label", { class: "check" }, sure, t("deleteSure")),
    h("button", { type: "submit", class: "danger" }, t("deleteAccount")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.deleteAccount(password.value);
      setSession(null);
      toast(t("accountDeleted"), "info", 4000);
      navigate("/");
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  return form;
}

/** A player's profile: per game the rating, counts and chart; finished games. */
export function showProfile(main, name, actions = null) {
  document.title = `${name} · cardtable`;
  main.replaceChildren(h("p", {}, t("loading")));
  api
    .player(name)
    .then((profile) => {
      main.replaceChildren(
        h(
          "section",
          { class: "panel profile", "data-profile": profile.name },
          h("h1", {}, profile.name, profile.bot ? botBadge() : null),
          h("p", { class: "hint" }, t("memberSince", { date: new Date(profile.since).toLocaleDateString() })),
          reportButton(profile.name),
          // Follow, challenge, block (friends.js): given by the router, so this module
          // needs not import the community's pages.
          actions ? actions(profile.name) : null,
          h("h2", {}, t("ratings")),
          profile.ratings.length
            ? h("div", { class: "ratingcards" }, profile.ratings.map(ratingCard))
            : h("p", {}, t("noRatings")),
          h("h2", {}, t("history")),
          profile.finished.length ? gamesTable(profile) : h("p", {}, t("noHistory")),
        ),
      );
    })
    .catch(async (err) => {
      main.replaceChildren(
        h("section", { class: "panel missing", "data-missing": "" }, h("h1", {}, name), h("p", {}, await apiErrorText(err))),
      );
    });
}

/** "Report" on another player's profile, for a signed-in reader (null otherwise). */
function reportButton(name) {
  const me = signedIn();
  if (!me || me.name === name) return null;
  return h("p", {}, h("button", { type: "button", class: "small", "data-report-player": name, onclick: () => openReport(name, { category: "name" }) }, t("report")));
}

/** A ratings pool's title: the game's, or the game's pool of games with a bot. */
function gameTitle(pool) {
  const [game, bots] = pool.split("@");
  return bots ? t("botPool", { game: t(game) }) : t(game);
}

function ratingCard(rating) {
  const draws = rating.games - rating.wins - rating.losses;
  return h(
    "article",
    { class: "ratingcard", "data-game": rating.game },
    h("h3", {}, gameTitle(rating.game)),
    // One number, as the server shows it ("1562?" while provisional); μ and σ stay in the API.
    h("p", { class: "ordinal" }, h("strong", { "data-rating": rating.label, title: t("ratingTitle") }, rating.label)),
    h("p", {}, t("ratedGames", { n: rating.games }), " · ", t("winLoss", { wins: rating.wins, losses: rating.losses, draws })),
    // The line starts at a new player's rating, before the first rated game.
    chart([rating.start, ...rating.history.map((p) => p.rating)], t("ratingChart", { game: gameTitle(rating.game) })),
  );
}

/** A small line chart of `values` as inline SVG (its label says what it shows). */
function chart(values, label) {
  const ns = "http://www.w3.org/2000/svg";
  const width = 280;
  const height = 80;
  const pad = 6;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "ratingchart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const left = 34; // room for the scale's numbers
  const points = values.map((v, i) => [
    left + (values.length === 1 ? (width - left - pad) / 2 : (i * (width - left - pad)) / (values.length - 1)),
    height - pad - ((v - low) * (height - 2 * pad)) / span,
  ]);
  for (const [value, y] of [[high, pad + 4], [low, height - pad]]) {
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", "0");
    label.setAttribute("y", String(y));
    label.setAttribute("font-size", "10");
    label.setAttribute("fill", "currentColor");
    label.textContent = String(Math.round(value));
    svg.append(label);
  }
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  for (const [x, y] of points) {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x.toFixed(1));
    dot.setAttribute("cy", y.toFixed(1));
    dot.setAttribute("r", "3");
    dot.setAttribute("fill", "currentColor");
    svg.append(dot);
  }
  return svg;
}

function gamesTable(profile) {
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, [t("game"), t("players"), t("outcome")].map((c) => h("th", {}, c)))),
    h(
      "tbody",
      {},
      profile.finished.map((g) =>
        h(
          "tr",
          { "data-table": g.table },
          h("td", {}, t(g.game), g.rated ? ` · ${t("rated")}` : ""),
          h("td", {}, g.players.map((p) => p || "?").join(", ")),
          h(
            "td",
            {},
            t(g.outcome ? `outcome_${g.outcome}` : "outcome_draw"),
            " · ",
            h("a", { href: `/replay/${encodeURIComponent(g.table)}`, "data-nav": "" }, t("replay")),
          ),
        ),
      ),
    ),
  );
}
