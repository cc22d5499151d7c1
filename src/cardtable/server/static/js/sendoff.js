// Sent to your table: when the signed-in player's next tournament table opens, wherever
// they are in the client (the lobby, a tournament page, a finished table), a banner
// says so and takes them there after a few seconds — at once with "Go now", never with
// "Stay here". Every page polls GET /api/tournaments/me; the tournament page also hands
// over its WebSocket's "seated" messages (offerTable), which come sooner.
//
// A tournament's play address carries the seat's token (?token=…): the router hands it
// to takeSeatFromAddress, which keeps it like an invite's seat and drops it from the
// address bar.

import { onSessionChange, signedIn } from "./account.js";
import { api, saveSeat, saveTableTournament, savedSeat } from "./api.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { navigate } from "./nav.js";

const POLL_MS = 4000;
/** Seconds the banner waits before it moves the player. */
export const MOVE_AFTER_S = 5;

let pollTimer = null;
let tickTimer = null;
let shownFor = null; // the table id the banner is about
const declined = new Set(); // tables the player chose not to be taken to

/** Start watching for the signed-in player's next table (once, from main.js). */
export function startSendoff() {
  onSessionChange(() => {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, 0);
  });
  pollTimer = setTimeout(poll, 0);
}

async function poll() {
  clearTimeout(pollTimer);
  if (signedIn()) {
    try {
      const answer = await api.myTournamentTable();
      if (answer && answer.next) offerTable(answer.next);
    } catch {
      // the server is away or has no tournaments: ask again later
    }
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

/** The page address that plays `next` (its play_url, or the table's play page). */
function playPath(next) {
  const path = next.play_url || `/play/${next.table_id}`;
  try {
    const url = new URL(path, location.origin);
    return url.pathname + url.search;
  } catch {
    return `/play/${next.table_id}`;
  }
}

/** Take the player to `next`'s table now. */
export function goToTable(next) {
  hideBanner();
  saveTableTournament(next.table_id, next.tournament_id);
  navigate(playPath(next));
}

/**
 * Offer the table of `next` ({tournament_id, name?, table_id, play_url}): a banner with a
 * countdown, then the table. Nothing when the player is at that table already or said
 * "Stay here" to it.
 */
export function offerTable(next) {
  if (!next || !next.table_id) return;
  saveTableTournament(next.table_id, next.tournament_id);
  if (location.pathname === `/play/${next.table_id}` || declined.has(next.table_id)) return;
  if (shownFor === next.table_id) return;
  shownFor = next.table_id;
  let left = MOVE_AFTER_S;
  const text = h("span", { class: "sendofftext" });
  const say = () => {
    text.textContent = next.name
      ? t("tnSentTo", { tournament: next.name, s: left })
      : t("tnSentToBare", { s: left });
  };
  say();
  const go = h("button", { type: "button", class: "primary", "data-action": "go-table", onclick: () => goToTable(next) }, t("tnGoNow"));
  const stay = h(
    "button",
    {
      type: "button",
      "data-action": "stay",
      onclick: () => {
        declined.add(next.table_id);
        hideBanner();
      },
    },
    t("tnStay"),
  );
  const box = banner();
  box.replaceChildren(h("strong", {}, "♠ "), text, h("span", { class: "sendoffactions" }, go, stay));
  box.dataset.table = next.table_id;
  box.hidden = false;
  announce(text.textContent);
  clearInterval(tickTimer);
  tickTimer = setInterval(() => {
    left -= 1;
    if (location.pathname === `/play/${next.table_id}`) hideBanner(); // there already
    else if (left <= 0) goToTable(next);
    else say();
  }, 1000);
}

function banner() {
  let box = document.getElementById("sendoff");
  if (!box) {
    box = h("div", { id: "sendoff", class: "sendoff", role: "alert", hidden: true });
    document.body.prepend(box);
  }
  return box;
}

function hideBanner() {
  clearInterval(tickTimer);
  shownFor = null;
  const box = document.getElementById("sendoff");
  if (box) box.hidden = true;
}

/**
 * A /play/ID address with the seat's token (a tournament's play_url): keep the seat for
 * this browser, as an invite's seat is kept, and take the token out of the address.
 */
export function takeSeatFromAddress(tableId, params) {
  const token = params.get("token");
  if (!token) return;
  const me = signedIn();
  const seat = params.get("seat");
  const known = savedSeat(tableId);
  if (!known || known.token !== token) {
    saveSeat(tableId, { seat: seat === null ? null : Number(seat), token, name: me ? me.name : "" });
  }
  const tournament = params.get("tournament");
  if (tournament) saveTableTournament(tableId, tournament);
  history.replaceState(null, "", `/play/${tableId}`);
}
