// Table chat (docs/protocol.md, "Table chat"): the players' chat, which everyone at the
// table reads, and the spectators' chat, which only spectators read. The server says who
// wrote each line; this shows every name and text as text (textContent, never HTML).
// A switch hides the chat (remembered in localStorage, "cardtable.chat.hidden"), and
// anyone may mute another writer at this table ("cardtable.chat.muted.<table id>").
// A signed-in reader may report a signed-in writer's line to the moderators (report.js).

import { signedIn } from "./account.js";
import { h } from "./dom.js";
import { playerName, t } from "./i18n.js";
import { openReport } from "./report.js";

const HIDDEN_KEY = "cardtable.chat.hidden";
/** The server's limit (cardtable/server/chat.py); longer lines are refused there too. */
const MAX_CHARS = 300;

function stored(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
}

/** Who wrote a line, as one key: the seat, a signed-in account or a spectator's number. */
export function writerKey(line) {
  if (line.seat !== null && line.seat !== undefined) return `seat:${line.seat}`;
  return line.signed_in ? `account:${line.name}` : `spectator:${line.spectator}`;
}

/** A writer's name for the reader («глядач 2» for an anonymous spectator). */
export function writerName(line) {
  if (line.seat !== null && line.seat !== undefined) return playerName(line.name);
  return line.signed_in ? line.name : t("chatSpectator", { n: line.spectator });
}

export class ChatPanel {
  /**
   * @param {string} tableId
   * @param {(text: string) => boolean} send  sends a line; false when not connected
   */
  constructor(tableId, send) {
    this.tableId = tableId;
    this.send = send;
    this.seat = null; // this page's seat; null: a spectator
    this.lines = [];
    this.mine = new Set(); // writer keys of this page (a spectator learns its own from the echo)
    this.sent = []; // texts sent and not yet echoed
    this.mutedKey = `cardtable.chat.muted.${tableId}`;
    this.muted = new Map(stored(this.mutedKey, [])); // writer key → name
    this.hidden = stored(HIDDEN_KEY, false) === true;

    this.toggle = h("button", { type: "button", class: "small chattoggle", "data-key": "chat-toggle", onclick: () => this.setHidden(!this.hidden) });
    this.heading = h("h2", { class: "chattitle" }, t("chat"));
    this.log = h("ol", { class: "chatlog", role: "log", "aria-live": "polite", "aria-label": t("chat") });
    this.mutedBar = h("p", { class: "chatmuted", hidden: true });
    this.note = h("p", { class: "chatnote", role: "alert", hidden: true });
    this.hint = h("p", { class: "chathint", hidden: true }, t("chatOnlySpectatorsRead"));
    this.input = h("input", { type: "text", class: "chatinput", maxlength: MAX_CHARS, autocomplete: "off", "aria-label": t("chatPlaceholder"), "data-key": "chat-input" });
    this.form = h(
      "form",
      { class: "chatform", onsubmit: (event) => this.submit(event) },
      this.input,
      h("button", { type: "submit", class: "small" }, t("chatSend")),
    );
    this.body = h("div", { class: "chatbody" }, this.log, this.mutedBar, this.hint, this.note, this.form);
    this.el = h("section", { class: "chat", "aria-label": t("chat") }, h("div", { class: "chathead" }, this.heading, this.toggle), this.body);
    this.setHidden(this.hidden);
  }

  setHidden(hidden) {
    this.hidden = hidden;
    store(HIDDEN_KEY, hidden);
    this.body.hidden = hidden;
    this.el.classList.toggle("folded", hidden);
    this.toggle.textContent = t(hidden ? "chatShow" : "chatHide");
    this.toggle.setAttribute("aria-expanded", hidden ? "false" : "true");
  }

  /** The chat a welcome brought (on every connection and reconnection). */
  reset(lines, seat) {
    this.seat = seat;
    if (seat !== null) this.mine.add(`seat:${seat}`);
    const spectator = seat === null;
    this.heading.textContent = t(spectator ? "chatSpectators" : "chatPlayers");
    this.input.placeholder = t(spectator ? "chatPlaceholderSpectators" : "chatPlaceholder");
    this.input.setAttribute("aria-label", this.input.placeholder);
    this.hint.hidden = !spectator;
    this.lines = (lines || []).slice();
    this.render();
  }

  /** A new line from the server. */
  add(line) {
    if (this.lines.some((l) => l.number === line.number)) return;
    const echo = this.sent.indexOf(line.text);
    if (echo >= 0 && line.channel === (this.seat === null ? "spectators" : "players")) {
      this.sent.splice(echo, 1);
      this.mine.add(writerKey(line));
    }
    this.lines.push(line);
    this.render();
  }

  /** The server refused a line: say why under the input. */
  refused(reply) {
    this.sent.shift();
    this.say(t(`err_${reply.code}`, reply.params || {}));
  }

  say(text) {
    this.note.textContent = text;
    this.note.hidden = !text;
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.send(text)) {
      this.say(t("chatOffline"));
      return;
    }
    this.sent.push(text);
    this.input.value = "";
    this.say("");
  }

  mute(line) {
    this.muted.set(writerKey(line), writerName(line));
    store(this.mutedKey, [...this.muted]);
    this.render();
  }

  unmute(key) {
    this.muted.delete(key);
    store(this.mutedKey, [...this.muted]);
    this.render();
  }

  /** "report": the line, its table and number go to the moderators with the report. */
  reportButton(line, name) {
    const label = t("chatReport", { name });
    const about = { category: "chat", table: this.tableId, line: line.number, text: line.text };
    return h("button", { type: "button", class: "link chatreport", title: label, "aria-label": label, onclick: () => openReport(line.name, about) }, t("chatReportShort"));
  }

  render() {
    const shown = this.lines.filter((line) => !this.muted.has(writerKey(line)));
    const items = shown.map((line) => {
      const name = writerName(line);
      const key = writerKey(line);
      const own = this.mine.has(key);
      return h(
        "li",
        { class: `chatline ${line.channel} ${own ? "own" : ""}`, "data-number": line.number },
        line.channel === "spectators" && this.seat === null ? h("span", { class: "chattag" }, t("chatSpectatorsTag")) : null,
        h("strong", { class: "chatname" }, name),
        h("span", { class: "chattext" }, line.text),
        own ? null : h("button", { type: "button", class: "link chatmute", title: t("chatMute", { name }), "aria-label": t("chatMute", { name }), onclick: () => this.mute(line) }, t("chatMuteShort")),
        own || !line.signed_in || !signedIn() ? null : this.reportButton(line, name),
      );
    });
    if (!items.length) items.push(h("li", { class: "chatline none" }, t("chatEmpty")));
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    this.log.replaceChildren(...items);
    if (atEnd || !this.log.dataset.scrolled) this.log.scrollTop = this.log.scrollHeight;
    this.log.dataset.scrolled = "1";
    const muted = [...this.muted];
    this.mutedBar.hidden = !muted.length;
    this.mutedBar.replaceChildren(
      t("chatMuted"),
      ...muted.map(([key, name]) => h("button", { type: "button", class: "link chatunmute", onclick: () => this.unmute(key) }, ` ${t("chatUnmute", { name })}`)),
    );
  }
}
