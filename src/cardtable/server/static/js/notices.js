// Notices: the signed-in player's own socket (/ws/me, open on every page), the header's
// bell with its unread count and the "your turn" badge of correspondence games, the
// banner of a challenge received (Accept / Decline, on whatever page), and the pages
// /notices (the list, and which notices also come by email) and /games (your
// correspondence games, your turn first).

import { onSessionChange, signedIn } from "./account.js";
import { api } from "./api.js";
import { announce, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { navigate } from "./nav.js";
import { mailChoices } from "./recover.js";

/** Seconds before a closed socket is opened again. */
const RETRY_MS = 3000;

let socket = null;
let retry = null;
let unread = 0;
let yourTurn = 0;
const hearers = new Set();

/** Open the player's socket now and whenever they sign in (once, from main.js). */
export function startNotices() {
  onSessionChange(connect);
  connect();
}

/** Call `fn(notice)` for every notice from now on; returns the function that stops it. */
export function onNotice(fn) {
  hearers.add(fn);
  return () => hearers.delete(fn);
}

function connect() {
  clearTimeout(retry);
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
  if (!signedIn()) {
    unread = 0;
    yourTurn = 0;
    paint();
    return;
  }
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/me`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") unread = message.unread;
    if (message.type === "notice") {
      unread = message.unread;
      heard(message.notice);
    }
    paint();
  };
  ws.onclose = () => {
    if (socket === ws && signedIn()) retry = setTimeout(connect, RETRY_MS);
  };
  refreshTurns();
}

/** Ask how many correspondence games wait for the player's move. */
export async function refreshTurns() {
  if (!signedIn()) return;
  try {
    const games = await api.correspondence();
    yourTurn = games.filter((g) => g.your_turn).length;
  } catch {
    // the server is away: the badge keeps its number
  }
  paint();
}

function heard(notice) {
  const p = notice.params;
  if (notice.kind === "challenge") showChallenge(p);
  else if (notice.kind === "challenge_accepted") goToChallenge(p.challenge, p.by);
  else if (notice.kind === "your_turn") refreshTurns();
  if (notice.kind !== "challenge" && notice.kind !== "challenge_accepted") toast(noticeText(notice), "info");
  for (const fn of hearers) fn(notice);
}

/** The challenger's challenge was accepted: to their seat at the new table. */
async function goToChallenge(id, by) {
  try {
    const challenge = await api.challengeOf(id);
    if (challenge.play_url) {
      toast(t("chAcceptedBy", { name: by }), "info");
      navigate(challenge.play_url);
    }
  } catch (err) {
    toast(await apiErrorText(err));
  }
}

/** A challenge's clock in words: none, days per move, or minutes and increment. */
export function clockText(clock) {
  if (!clock) return t("chNoClock");
  if (clock.days) return t("chDays", { n: clock.days });
  return t("chLive", { min: Math.round(clock.initial / 60), inc: clock.increment || 0 });
}

/** A challenge's terms in a few words: the game, the clock, rated or casual. */
export function termsText(c) {
  return `${t(c.game)} · ${clockText(c.clock)} · ${c.rated ? t("rated") : t("casual")}`;
}

/** What a notice says, in the player's language. */
export function noticeText(notice) {
  const p = notice.params;
  switch (notice.kind) {
    case "challenge":
      return t("ntChallenge", { name: p.from, terms: termsText(p) });
    case "challenge_accepted":
      return t("chAcceptedBy", { name: p.by });
    case "challenge_declined":
      return t("chDeclinedBy", { name: p.by });
    case "your_turn":
      return t("ntYourTurn", { name: p.against });
    case "tournament_round":
      return t("ntRound", { name: p.name, n: p.round });
    case "invite":
      return t("ntInvite", { name: p.from });
    case "moderation":
      return t(`notice_${p.action}`, {
        reason: p.reason,
        until: p.until ? new Date(p.until).toLocaleString(lang()) : "",
        from: p.from || "",
        to: p.to || "",
      });
    default:
      return notice.kind;
  }
}

/** Where a notice leads: the table, the tournament, the challenges. */
function noticeLink(notice) {
  const p = notice.params;
  if (notice.kind === "your_turn") return "/games";
  if (notice.kind === "tournament_round") return `/tournament/${p.tournament}`;
  if (notice.kind === "invite") return p.url;
  if (notice.kind === "challenge_accepted") return `/watch/${p.table}`;
  if (notice.kind === "moderation") return "/notices";
  return "/friends";
}

// ------------------------------------------------------------- the header
/** The header's corner: "your turn" with its count, and the bell with the unread one. */
export function noticeCorner() {
  if (!signedIn()) return null;
  const corner = h(
    "span",
    { class: "noticecorner" },
    h(
      "a",
      { href: "/games", "data-nav": "", class: "turns", "aria-label": t("yourTurnTitle") },
      t("yourTurnShort"),
      h("span", { class: "badge", "data-your-turn": "" }),
    ),
    h(
      "a",
      { href: "/notices", "data-nav": "", class: "bell", "aria-label": t("noticesTitle") },
      bellIcon(),
      h("span", { class: "badge", "data-unread": "" }),
    ),
  );
  requestAnimationFrame(paint);
  return corner;
}

/** A bell drawn as inline SVG (an emoji may have no font on the device). */
function bellIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "bellicon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M12 2a6 6 0 0 0-6 6v4.5L4 16v1h16v-1l-2-3.5V8a6 6 0 0 0-6-6zm-2.5 17a2.5 2.5 0 0 0 5 0z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

function paint() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-unread]"))) {
    el.textContent = String(unread);
    el.hidden = unread === 0;
    el.dataset.unread = String(unread);
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".badge[data-your-turn]"))) {
    el.textContent = String(yourTurn);
    el.hidden = yourTurn === 0;
    el.dataset.yourTurn = String(yourTurn);
  }
}

// --------------------------------------------------------- the challenge
function showChallenge(p) {
  let box = document.getElementById("challengebox");
  if (!box) {
    box = h("div", { id: "challengebox", class: "sendoff challengebox", role: "alertdialog", "aria-live": "assertive" });
    document.body.prepend(box);
  }
  const text = t("ntChallenge", { name: p.from, terms: termsText(p) });
  const answer = async (how) => {
    box.hidden = true;
    try {
      const done = await api.answerChallenge(p.challenge, how);
      if (how === "accept" && done && done.play_url) navigate(done.play_url);
    } catch (err) {
      toast(await apiErrorText(err));
    }
  };
  box.replaceChildren(
    h("span", { class: "sendofftext" }, text),
    h(
      "span",
      { class: "sendoffactions" },
      h("button", { type: "button", class: "primary", "data-action": "accept-challenge", onclick: () => answer("accept") }, t("chAccept")),
      h("button", { type: "button", "data-action": "decline-challenge", onclick: () => answer("decline") }, t("chDecline")),
    ),
  );
  box.dataset.challenge = p.challenge;
  box.hidden = false;
  announce(text);
}

// ---------------------------------------------------------------- pages
/** The page /notices: the newest notices (read once shown). */
export function showNotices(main) {
  document.title = `${t("noticesTitle")} · cardtable`;
  if (!signedIn()) return signedOut(main);
  const list = h("ul", { class: "notices" });
  main.replaceChildren(h("section", { class: "panel", "data-page": "notices" }, h("h1", {}, t("noticesTitle")), list, mailChoices()));
  const load = async () => {
    const answer = await api.notices();
    list.replaceChildren(
      ...(answer.notices.length
        ? answer.notices.map((n) =>
            h(
              "li",
              { class: n.read ? "read" : "unread", "data-kind": n.kind },
              h("a", { href: noticeLink(n), "data-nav": "" }, noticeText(n)),
              h("time", { class: "hint" }, new Date(n.at * 1000).toLocaleString(lang())),
            ),
          )
        : [h("li", { class: "hint" }, t("noticesNone"))]),
    );
    if (answer.notices.length) {
      unread = (await api.readNotices(answer.notices[0].id)).unread;
      paint();
    }
  };
  load().catch(async (err) => toast(await apiErrorText(err)));
  return onNotice(() => load().catch(() => {}));
}

/** The page /games: the player's correspondence games, those waiting for them first. */
export function showGames(main) {
  document.title = `${t("gamesTitle")} · cardtable`;
  if (!signedIn()) return signedOut(main);
  const list = h("ul", { class: "games" });
  main.replaceChildren(
    h("section", { class: "panel", "data-page": "games" }, h("h1", {}, t("gamesTitle")), h("p", { class: "hint" }, t("gamesHelp")), list),
  );
  const load = async () => {
    const games = await api.correspondence();
    yourTurn = games.filter((g) => g.your_turn).length;
    paint();
    list.replaceChildren(
      ...(games.length
        ? games.map((g) =>
            h(
              "li",
              { "data-table": g.table, "data-your-turn": g.your_turn ? "yes" : "no", class: g.your_turn ? "yours" : "" },
              h("strong", {}, g.your_turn ? t("gameYourTurn") : t("gameTheirTurn")),
              " ",
              t("gameAgainst", { name: g.against }),
              h("span", { class: "hint" }, ` · ${t("chDays", { n: g.days })} · ${t("gameUntil", { when: new Date(g.deadline * 1000).toLocaleString(lang()) })}`),
              " ",
              h("a", { href: g.play_url || `/play/${g.table}`, "data-nav": "", class: "button" }, t("gamePlay")),
            ),
          )
        : [h("li", { class: "hint" }, t("gamesNone"))]),
    );
  };
  load().catch(async (err) => toast(await apiErrorText(err)));
  return onNotice((n) => {
    if (n.kind === "your_turn") load().catch(() => {});
  });
}

/** A page for accounts only, shown to a guest. */
export function signedOut(main) {
  main.replaceChildren(
    h("section", { class: "panel" }, h("p", {}, t("communitySignIn")), h("a", { href: "/signin", "data-nav": "" }, t("signIn"))),
  );
  return null;
}
