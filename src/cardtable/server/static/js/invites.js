// Invites: each open seat's link with Copy and (where the device can) Share, for the
// table's creator — right after creating it in the lobby, and on the waiting page
// until every seat is taken (a reload asks the server again with the host token).

import { api, hostToken, saveSeat, savedName } from "./api.js";
import { announce, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { navigate } from "./nav.js";
import { refusalText } from "./messages.js";

/** An API refusal in the player's language (its message id), else its English text. */
export async function apiErrorText(err) {
  if (err && err.code === "network") return t("err_network");
  const said = err && err.messageId ? await refusalText(err.messageId, err.params) : null;
  return said ?? (err ? err.message : "");
}

/** Put `text` on the clipboard; false when the browser refuses both ways. */
async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * The list of invites: per open seat its link, Copy, Share (when navigator.share exists,
 * e.g. on phones) and, for a creator without a seat yet, "Take seat n".
 * `invites` are the API's {seat, code, link}; `game` names the table in a shared text;
 * `friends` (a signed-in player) adds "Send to a friend" with the players they follow.
 */
export function inviteList(tableId, game, invites, { take = true, friends = false } = {}) {
  const items = invites.map((invite) => {
    const url = new URL(invite.link, location.origin).href;
    const label = t("inviteFor", { n: invite.seat + 1 });
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": label, class: "invite-link" });
    input.addEventListener("focus", () => input.select());
    const copy = h("button", { type: "button", class: "small", "data-action": "copy" }, t("copyLink"));
    copy.addEventListener("click", async () => {
      if (await copyText(url, input)) {
        copy.textContent = t("copied");
        announce(t("copied"));
      } else {
        toast(t("copyFailed"));
      }
    });
    const buttons = [copy];
    if (typeof navigator.share === "function") {
      const share = h("button", { type: "button", class: "small", "data-action": "share" }, t("share"));
      share.addEventListener("click", () => {
        navigator
          .share({ title: t("shareTitle", { game: t(game) }), text: t("shareText", { n: invite.seat + 1, game: t(game) }), url })
          .catch(() => {}); // the person closed the share sheet
      });
      buttons.push(share);
    }
    if (take) {
      const seat = h("button", { type: "button", class: "primary small", "data-seat": invite.seat }, t("takeSeat", { n: invite.seat + 1 }));
      seat.addEventListener("click", () => takeSeat(tableId, invite));
      buttons.push(seat);
    }
    return h(
      "li",
      { class: "invite", "data-invite-seat": invite.seat },
      h("span", { class: "invite-label" }, label),
      input,
      h("span", { class: "invite-actions" }, buttons),
      friends ? toFriend(tableId, invite) : null,
    );
  });
  return h("ul", { class: "invites" }, items);
}

/** Send a seat's invite to a player you follow: a notice on their pages (the bell). */
function toFriend(tableId, invite) {
  const pick = h("select", { name: "friend", "aria-label": t("inviteFriend") });
  const send = h("button", { type: "button", class: "small", "data-action": "invite-friend", disabled: true }, t("inviteFriend"));
  const box = h("span", { class: "invite-friend", hidden: true }, pick, send);
  api
    .friends()
    .then((friends) => {
      if (!friends.following.length) return;
      pick.replaceChildren(...friends.following.map((f) => h("option", { value: f.name }, f.name)));
      send.disabled = false;
      box.hidden = false;
    })
    .catch(() => {}); // no friends list: the link is still there to copy
  send.addEventListener("click", async () => {
    try {
      await api.sendInvite(pick.value, tableId, invite.code);
      toast(t("inviteSent", { name: pick.value }), "info");
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  return box;
}

async function takeSeat(tableId, invite) {
  const name = savedName() || "Player";
  try {
    const seated = await api.join(tableId, invite.code, name);
    saveSeat(tableId, { seat: seated.seat, token: seated.token, name });
    navigate(`/play/${tableId}`);
  } catch (err) {
    toast(t("err_join", { detail: await apiErrorText(err) }));
  }
}

/**
 * The waiting page's invite panel. For the table's creator (this browser holds its host
 * token) it shows every open seat's invite until the seat is taken; for anyone else
 * nothing (the status line says the table waits); `friends` (signed in) adds "Send to
 * a friend". `update(state)` after every state.
 */
export function waitingInvites(tableId, mine, friends = false) {
  const el = h("section", { class: "panel waitinvites", hidden: true, "aria-labelledby": "invites-h" });
  const host = hostToken(tableId);
  let invites = null; // the server's answer, fetched once per page
  let asked = false;
  let last = null;

  function draw(state) {
    const open = new Set(state.seats.filter((s) => s.role === "open").map((s) => s.index));
    const shown = (invites || []).filter((invite) => open.has(invite.seat));
    if (state.status !== "waiting" || !shown.length) {
      el.hidden = true;
      return;
    }
    el.replaceChildren(
      h("h2", { id: "invites-h" }, t("inviteHeading")),
      h("p", { class: "note" }, t("inviteHelp")),
      inviteList(tableId, state.game, shown, { take: !mine, friends }),
    );
    el.hidden = false;
  }

  async function fetchInvites() {
    asked = true;
    try {
      invites = (await api.invites(tableId, host)).invites;
    } catch (err) {
      invites = [];
      if (err.code !== "not_host") toast(t("err_generic", { detail: await apiErrorText(err) }));
    }
    if (last) draw(last);
  }

  return {
    el,
    update(state) {
      last = state;
      if (!host || state.status !== "waiting") {
        el.hidden = true;
        return;
      }
      if (!asked) fetchInvites();
      // Redraw only when the open seats change, so a half-done copy keeps its focus.
      const key = state.seats.map((s) => s.role).join();
      if (el.dataset.seats !== key || el.hidden) {
        el.dataset.seats = key;
        draw(state);
      }
    },
  };
}

/** The status line of a waiting table: how many seats are still open. */
export function waitingLine(state) {
  const open = state.seats.filter((s) => s.role === "open").length;
  return t("waitingSeats", { n: open });
}
