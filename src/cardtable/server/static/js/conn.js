// One table's WebSocket (docs/protocol.md): hello, moves with ids, acks, resyncs,
// errors, "ready" during the pause between deals or rounds, and recovery by itself —
// reconnect with backoff, resend the unanswered move with the same id (never applied
// twice), resync after any refusal.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];
const PING_MS = 20000;
const SILENCE_MS = 45000;
/** Close code "service restart" (1012): reconnect at once, to any server process. */
const RECONNECT_CODE = 1012;
/** Close code "go to the owner" (4307): come back at once with ?route= the close's reason,
 * the name of the process that owns the table, which the proxy sends the socket to. */
const GO_TO_OWNER_CODE = 4307;

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat's token, null to watch
   * @param {object} handlers  onState(state, message), onError(code, message, reply),
   *   onStatus("open"|"lost"|"gone", seconds), onAck(ack), onChat(line) (table chat)
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.state = null;
    this.pending = null; // {id, move, version, acked, ackVersion}
    this.attempt = 0;
    this.counter = 0;
    this.stopped = false;
    this.lastHeard = Date.now();
    this.ws = null;
    /** The table's owner's route name ("" until a server names it): asking for it lets
     * a proxy send the socket straight to the owner instead of a relaying process. */
    this.route = "";
    this.pingTimer = null;
    this.retryTimer = null;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const path = `/ws/tables/${encodeURIComponent(this.tableId)}`;
    return `${scheme}://${location.host}${path}?route=${encodeURIComponent(this.route)}`;
  }

  open() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closed(ws, event.code, event.reason));
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.heartbeat(), PING_MS / 4);
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > SILENCE_MS) {
      this.ws.close(); // half-open connection: start again
    } else if (quiet > PING_MS) {
      this.ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   * @param {string} reason
   */
  closed(ws, code, reason) {
    if (ws !== this.ws || this.stopped) return;
    clearInterval(this.pingTimer);
    if (code === 4404) {
      this.handlers.onStatus("gone", 0);
      return;
    }
    if (code === GO_TO_OWNER_CODE && reason && reason !== this.route) {
      this.route = reason; // once per owner: the server never sends a socket to its own name
      this.open();
      return;
    }
    if (code === RECONNECT_CODE) {
      this.route = ""; // the table moved or its owner stops: the next owner is named anew
      // The server process is restarting or the table moved to another process: come
      // back at once (with a little jitter so a whole server's clients do not arrive
      // together); the unanswered move is resent with its id after the welcome.
      this.retryTimer = setTimeout(() => this.open(), 50 + Math.round(Math.random() * 250));
      return;
    }
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.handlers.onStatus("lost", Math.max(1, Math.round(jittered / 1000)));
    this.retryTimer = setTimeout(() => this.open(), jittered);
  }

  reconnectNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  /** Simulate a dropped connection (tests and the "offline" event use it). */
  drop() {
    if (this.ws) this.ws.close();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Whether the client may move now: no move of ours waits for its answer or update. */
  get ready() {
    if (!this.pending) return true;
    return this.pending.acked && this.state && this.state.version >= this.pending.ackVersion;
  }

  move(text) {
    if (!this.state || !this.token || !this.ready) return false;
    this.counter += 1;
    const id = `${this.state.seat}-${Date.now().toString(36)}-${this.counter}`;
    this.pending = { id, move: text, version: this.state.version, acked: false, ackVersion: 0 };
    this.sendPending();
    return true;
  }

  sendPending() {
    const p = this.pending;
    if (!p || p.acked) return;
    this.send({ type: "move", token: this.token, version: p.version, move_id: p.id, move: p.move });
  }

  sync() {
    this.send({ type: "sync", token: this.token });
  }

  /** During the pause between deals or rounds: say this seat is ready to go on. */
  sayReady() {
    if (!this.token || !this.state || !this.state.pause) return false;
    return this.send({ type: "ready", token: this.token });
  }

  /** Resign, abort or take back ("resign", "abort", "takeback") for this seat; the
   * server answers with an update to everyone, or an error saying why not. */
  request(kind) {
    if (!this.token || !this.state) return false;
    return this.send({ type: kind, token: this.token });
  }

  /** Say hello again: the welcome brings the whole move list (after a takeback). */
  refresh() {
    return this.send({ type: "hello", token: this.token });
  }

  receive(data) {
    this.lastHeard = Date.now();
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    switch (message.type) {
      case "welcome": {
        const again = this.attempt > 0;
        this.attempt = 0;
        this.setState(message.state, message);
        this.handlers.onStatus("open", 0, again);
        // A move sent before the connection dropped: same id, answered at most once.
        this.sendPending();
        break;
      }
      case "update":
        this.setState(message.state, message);
        break;
      case "resync":
        if (this.pending && message.move_id === this.pending.id) this.pending = null;
        this.setState(message.state, message);
        if (message.move_id) this.handlers.onError("stale", message.reason);
        break;
      case "ack":
        if (this.pending && message.move_id === this.pending.id) {
          this.pending.acked = true;
          this.pending.ackVersion = message.move_version;
          if (this.state && this.state.version >= message.move_version) {
            // The update came first: the table is current, the player may go on.
            this.pending = null;
            this.handlers.onState(this.state, message);
          }
        }
        if (this.handlers.onAck) this.handlers.onAck(message);
        break;
      case "error":
        if (message.code === "not_paused") break; // a late "ready": the table went on already
        if (this.pending && (message.move_id === this.pending.id || !message.move_id)) {
          this.pending = null;
        }
        this.handlers.onError(message.code, message.message, message);
        // The table recovers by itself: ask for the whole state after any refusal.
        if (!["rate_limited", "no_table", "bad_token", "already_greeted"].includes(message.code) && !message.code.startsWith("chat_")) {
          this.sync();
        }
        break;
      case "chat":
        if (this.handlers.onChat) this.handlers.onChat(message.line);
        break;
      default:
        break;
    }
  }

  /** Send a line of table chat; false when the connection is not open (nothing sent). */
  chat(text) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "chat", text }));
    return true;
  }

  setState(state, message) {
    if (this.state && state.version < this.state.version && message.type === "update") return;
    this.state = state;
    if (this.pending && this.pending.acked && state.version >= this.pending.ackVersion) {
      this.pending = null;
    }
    this.handlers.onState(state, message);
  }
}
