// The client's entry point: the page shell, language switch and a small router.
//   /                    lobby (open tables, create, join by link, finished games)
//   /play/ID[?invite=X]  a table: take the seat the invite is for, or come back to it
//   /watch/ID            watch a table
//   /replay/ID           step through a finished game
//   /rules/GAME          the rules page
//   /tutorial/GAME[?step=N]  the game's first-game tutorial (tutorial.js)
//   /signup, /signin     create an account, sign in (account.js)
//   /account             change the password, delete the account, sign out
//   /player/NAME         a player's profile
//   /leaderboard[?game=] the best-rated players of a game (leaderboard.js)
//   /forgot, /reset#T, /verify-email#T  a forgotten password, an emailed link (recover.js)
//   /moderation, /moderation/log  the moderators' reports and log (moderation.js)
//   /tournaments         tournaments: upcoming, running, finished; create one
//   /tournament/ID[?code=X]  a tournament: register, standings, rounds, your table
//   /friends             whom you follow (online, at which table), challenges, blocks
//   /notices             your notices (the header's bell)
//   /games               your correspondence games, your turn first (the header's badge)
//   /offline.html        the service worker's offline page (sw.js), static
//   anything else        "page not found" (the server answers such addresses with 404)

import { loadSession, onSessionChange, showAccount, showProfile, showSignIn, signedIn } from "./account.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { profileActions, showFriends } from "./friends.js";
import { LANGS, lang, langName, onLangChange, setLang, t } from "./i18n.js";
import { showLeaderboard } from "./leaderboard.js";
import { showLobby } from "./lobby.js";
import { showMissing } from "./missing.js";
import { showModeration, showModerationLog } from "./moderation.js";
import { navigate, setRouter } from "./nav.js";
import { showForgot, showReset, showVerify } from "./recover.js";
import { noticeCorner, showGames, showNotices, startNotices } from "./notices.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { startSendoff, takeSeatFromAddress } from "./sendoff.js";
import { showTable } from "./table.js";
import { showTournament } from "./tournament.js";
import { showTournaments } from "./tournaments.js";
import { TUTORIAL_GAMES, showTutorial } from "./tutorial.js";

let leave = null; // the current page's clean-up (closes a table's WebSocket)

function route() {
  if (leave) leave();
  leave = null;
  const main = document.getElementById("main");
  main.replaceChildren();
  // Each page marks its state on <main> (data-status, data-version…); a new page starts
  // without the last one's marks.
  for (const key of Object.keys(main.dataset)) delete main.dataset[key];
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  let match;
  if ((match = path.match(/^\/play\/([\w-]+)$/))) {
    takeSeatFromAddress(match[1], params);
    leave = showTable(main, match[1], { invite: params.get("invite"), watch: false });
  } else if ((match = path.match(/^\/watch\/([\w-]+)$/))) {
    leave = showTable(main, match[1], { invite: null, watch: true });
  } else if ((match = path.match(/^\/replay\/([\w-]+)$/))) {
    leave = showReplay(main, match[1]);
  } else if ((match = path.match(/^\/rules\/(\w+)$/))) {
    leave = showRules(main, match[1]);
  } else if ((match = path.match(/^\/tutorial\/(\w+)$/)) && TUTORIAL_GAMES.includes(match[1])) {
    leave = showTutorial(main, match[1], Number(params.get("step") || 1));
  } else if (path === "/signup" || path === "/signin") {
    showSignIn(main, path.slice(1));
  } else if (path === "/account") {
    showAccount(main);
  } else if ((match = path.match(/^\/player\/([^/]+)$/))) {
    showProfile(main, decodeURIComponent(match[1]), profileActions);
  } else if (path === "/forgot") {
    showForgot(main);
  } else if (path === "/reset") {
    showReset(main);
  } else if (path === "/verify-email") {
    showVerify(main);
  } else if (path === "/moderation") {
    showModeration(main);
  } else if (path === "/moderation/log") {
    showModerationLog(main);
  } else if (path === "/leaderboard") {
    leave = showLeaderboard(main, params.get("game"));
  } else if (path === "/tournaments") {
    leave = showTournaments(main);
  } else if ((match = path.match(/^\/tournament\/([\w-]+)$/))) {
    leave = showTournament(main, match[1], { code: params.get("code") });
  } else if (path === "/friends") {
    leave = showFriends(main);
  } else if (path === "/notices") {
    leave = showNotices(main);
  } else if (path === "/games") {
    leave = showGames(main);
  } else if (path === "/" || path === "/index.html") {
    leave = showLobby(main);
  } else {
    showMissing(main, t("notFound"), t("notFoundText", { path }));
  }
  renderHeader();
}


function renderHeader() {
  const header = document.getElementById("header");
  const link = (href, label) =>
    h("a", { href, "data-nav": "", "aria-current": location.pathname === href ? "page" : false }, label);
  const switcher = h(
    "div",
    { class: "langs", role: "group", "aria-label": t("language") },
    LANGS.map((code) =>
      h(
        "button",
        {
          type: "button",
          lang: code,
          class: "lang",
          "aria-pressed": code === lang() ? "true" : "false",
          "data-lang": code,
          "aria-label": langName(code),
          onclick: () => {
            setLang(code);
            // Signed in, the choice is the account's too (for its other devices).
            if (signedIn()) api.chooseLang(code).catch(() => {});
          },
        },
        // The language's own name; on a phone its two letters (app.css).
        h("span", { class: "full" }, langName(code)),
        h("span", { class: "short", "aria-hidden": "true" }, langName(code, true)),
      ),
    ),
  );
  header.replaceChildren(
    h("a", { class: "skip", href: "#main" }, t("skip")),
    h("span", { class: "brand" }, "♠♥ cardtable", h("span", { class: "brandtail", "aria-hidden": "true" }, " ♦♣")),
    // The pages and the account corner: one line of the header on a desktop, a second
    // line that scrolls sideways on a phone (app.css).
    h(
      "div",
      { class: "headrow" },
      h(
        "nav",
        { "aria-label": "main" },
        link("/", t("navLobby")),
        link("/tournaments", t("navTournaments")),
        signedIn() ? link("/friends", t("navFriends")) : null,
        link("/rules/candidate", `${t("navRules")}: ${t("candidate")}`),
        link("/rules/spy", `${t("navRules")}: ${t("spy")}`),
      ),
      whoIsIn(link),
    ),
    switcher,
  );
}

/** The header's account corner: the signed-in player (to their account), or sign in. */
function whoIsIn(link) {
  const me = signedIn();
  return h(
    "div",
    { class: "signedin", "data-who": me ? me.name : "" },
    me && me.moderator ? link("/moderation", t("navModeration")) : null,
    noticeCorner(),
    me ? link("/account", t("signedInAs", { name: me.name })) : link("/signin", t("signIn")),
    me ? null : link("/signup", t("signUp")),
  );
}

document.addEventListener("click", (event) => {
  const a = /** @type {HTMLAnchorElement | null} */ (
    /** @type {Element} */ (event.target).closest("a[data-nav]")
  );
  if (!a || event.ctrlKey || event.metaKey || event.shiftKey || a.target) return;
  event.preventDefault();
  navigate(a.getAttribute("href"));
});

setRouter(route);
window.addEventListener("popstate", route);
onLangChange(() => route());
onSessionChange(() => renderHeader());
loadSession().finally(() => {
  route();
  startSendoff();
  startNotices();
});

// The service worker (sw.js) makes the site installable on a phone's home screen and
// shows an offline page when a page cannot load; it caches nothing a game needs.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Not installable here (a private window, a blocked worker): the site works the same.
    });
  });
}
