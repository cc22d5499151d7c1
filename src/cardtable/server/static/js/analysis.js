// The analysis board: the replay of a finished game with the server's analysis of it
// (docs/analysis.md). The server works it out on its own workers (POST
// /api/games/{id}/analysis) and keeps it with the game; this panel starts it, shows its
// progress, then draws
//
//   - the evaluation graph (SVG): Candidate, the deal's expected final margin for the
//     first player at every decision, with a band of one standard error; Spy, each
//     player's shortest finish still possible after every move. A click on the graph
//     goes to that move;
//   - the marks in the move list (colour, a symbol and words for the ear):
//     inaccuracy ?!, mistake ?, blunder ?? (Candidate); a race made longer ~ or a
//     mistake ? (Spy);
//   - at the chosen move, what the analysis says of it and the better move, which a
//     button shows on the table (the position before the move, the better move marked);
//   - for Spy, the oracle's shortest race beside each player's own and the first move
//     where they part.
//
//   const panel = new AnalysisBoard({ tableId, game, players, go, list });
//   main.append(panel.el); panel.load();   // then panel.select(step) at every step

import { api } from "./api.js";
import { h } from "./dom.js";
import { cardSpoken, moveText, t } from "./i18n.js";
import { refusalText } from "./messages.js";

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** Each mark: its symbol and the word for it (t key). Spy's "mistake" is its own. */
const MARKS = {
  inaccuracy: { symbol: "?!", word: "mark_inaccuracy", short: "short_inaccuracy" },
  mistake: { symbol: "?", word: "mark_mistake", short: "short_mistake" },
  blunder: { symbol: "??", word: "mark_blunder", short: "short_blunder" },
  hindsight: { symbol: "~", word: "mark_hindsight", short: "short_hindsight" },
  spymistake: { symbol: "?", word: "mark_spyMistake", short: "short_spyMistake" },
};

const POLL_MS = 800;

/** A move of a Spy race as words without a name ("a new pile from the waste"). */
export function raceMoveText(move) {
  const [word, source, pile] = move.split(" ");
  if ((word === "place" || word === "open") && ["points", "waste"].includes(source)) return t(`rm_${word}_${source}`, { pile });
  if (["turn", "call", "resign"].includes(word)) return t(`rm_${word}`);
  return moveText(move);
}
const fmt = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(1);

/** Mark the better move on the table as the board drew it (the position before it). */
export function markBetter(boardEl, game, seat, move) {
  const words = move.split(" ");
  const found = [];
  if (game === "candidate") {
    if (words[0] === "play") {
      const hand = boardEl.querySelector(`.hand[data-side='${seat}']`);
      const names = new Set(words.slice(1).map(cardSpoken));
      for (const card of hand ? hand.querySelectorAll(".card") : []) if (names.has(card.title)) found.push(card);
    } else if (words[1]) {
      found.push(boardEl.querySelector(`.pile[data-pile='${words[1]}']`));
    }
  } else {
    const area = boardEl.querySelector(`[data-player='${seat}']`);
    if (area) {
      if (words[0] === "turn") found.push(area.querySelector("[data-from='deck']"));
      if (words[0] === "place" || words[0] === "open") found.push(area.querySelector(`[data-from='${words[1]}']`));
      if (words[0] === "place") found.push(area.querySelector(`[data-to='pile-${words[2]}']`));
    }
  }
  const marked = found.filter(Boolean);
  for (const el of marked) el.classList.add("better");
  // On a phone the table is below the graph: bring the better move into view.
  const box = marked.length ? marked[0].getBoundingClientRect() : null;
  if (box && (box.top < 0 || box.bottom > window.innerHeight)) marked[0].scrollIntoView({ block: "center" });
  return marked.length;
}

export class AnalysisBoard {
  constructor({ tableId, game, players, last, go }) {
    this.tableId = tableId;
    this.game = game;
    this.players = players;
    this.last = last; // the replay's last step
    this.go = go; // go(step, better?) moves the replay
    this.list = null;
    this.result = null;
    this.byStep = new Map(); // step → what the analysis says of that move
    this.at = 0;
    this.timer = null;
    this.status = h("p", { class: "analysisstatus", role: "status", "aria-live": "polite" });
    this.bar = h("progress", { max: 100, value: 0, hidden: true, "aria-label": t("analysis") });
    this.button = h("button", { type: "button", class: "primary", "data-key": "analyse" }, t("analyse"));
    this.button.addEventListener("click", () => this.start());
    this.graph = h("div", { class: "evalgraph" });
    this.detail = h("div", { class: "analysisdetail", "aria-live": "polite" });
    this.summary = h("div", { class: "analysissummary" });
    this.races = h("div", { class: "spyraces" });
    this.el = h(
      "section",
      { class: "analysis", "aria-label": t("analysis") },
      h("h2", {}, t("analysis")),
      h("div", { class: "analysisbar" }, this.button, this.bar, this.status),
      this.graph,
      this.detail,
      this.summary,
      this.races,
    );
  }

  /** A player's name, with the seat when two players share it (two bots of a level). */
  who(p) {
    const name = this.players[p] ?? t("seat", { n: p + 1 });
    const shared = this.players.filter((other) => other === name).length > 1;
    return shared ? `${name} (${t("seat", { n: p + 1 })})` : name;
  }

  /** The move list whose entries get the marks (the board's own, or the page's). */
  setList(list) {
    this.list = list;
  }

  destroy() {
    clearTimeout(this.timer);
    this.timer = null;
    this.destroyed = true;
  }

  async load() {
    try {
      this.shown(await api.analysis(this.tableId));
    } catch (err) {
      await this.refused(err);
    }
  }

  async start() {
    this.button.disabled = true;
    try {
      this.shown(await api.analyse(this.tableId));
    } catch (err) {
      if (err.code === "analysis_running") this.poll();
      await this.refused(err);
    }
  }

  poll() {
    clearTimeout(this.timer);
    if (this.destroyed) return;
    this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  async refused(err) {
    const said = err.messageId ? await refusalText(err.messageId, err.params) : null;
    this.status.textContent = t("analysisRefused", { detail: said || err.message });
    this.button.disabled = err.code === "analysis_running";
  }

  shown(answer) {
    this.el.dataset.status = answer.status;
    if (answer.status === "none") {
      this.button.hidden = false;
      this.button.disabled = false;
      this.bar.hidden = true;
      // What to expect, for this game: a Spy round is seconds, a Candidate deal minutes.
      this.status.textContent = t(this.game === "spy" ? "analysisNoneSpy" : "analysisNone");
    } else if (answer.status === "running") {
      this.button.hidden = false;
      this.button.disabled = true;
      this.bar.hidden = false;
      this.bar.value = answer.percent;
      this.status.textContent = t("analysing", { percent: answer.percent, k: answer.done, n: answer.total });
      this.poll();
    } else if (answer.status === "failed") {
      this.button.disabled = false;
      this.bar.hidden = true;
      this.status.textContent = t("analysisFailed", { detail: answer.error || "" });
    } else if (answer.status === "done") {
      this.button.hidden = true;
      this.bar.hidden = true;
      this.status.textContent = "";
      this.show(answer.result);
    }
  }

  // ------------------------------------------------------------------ the result
  show(result) {
    this.result = result;
    this.byStep.clear();
    if (this.game === "candidate") {
      for (const d of result.decisions) {
        const mark = d.label;
        const better = d.best.move !== d.played.move ? d.best.move : null;
        this.byStep.set(d.step, { seat: d.player, mark, better, decision: d });
      }
    } else {
      for (const race of result.races) {
        for (const m of race.moves) {
          const mark = m.mark === "mistake" ? "spymistake" : m.mark;
          const better = m.lost !== 0 && m.oracle_best ? m.oracle_best : null;
          this.byStep.set(m.step, { seat: race.player, mark, better, move: m, race });
        }
      }
    }
    this.markList();
    this.drawGraph();
    this.drawSummary();
    if (this.game === "spy") this.drawRaces();
    this.select(this.at);
  }

  markList() {
    if (!this.list) return;
    for (const [step, info] of this.byStep) {
      const item = this.list.items[step - 1];
      if (!item || !info.mark || item.querySelector(".mark")) continue;
      const kind = MARKS[info.mark];
      item.classList.add("marked", `mark-${info.mark}`);
      item.append(
        " ",
        h(
          "span",
          { class: `mark mark-${info.mark}`, title: t(kind.word) },
          h("span", { "aria-hidden": "true" }, kind.symbol),
          h("span", { class: "visually-hidden" }, `(${t(kind.word)})`),
        ),
      );
    }
  }

  /** The graph: x the replay's step, a click goes there. */
  drawGraph() {
    const width = Math.max(300, Math.min(820, Math.round(this.graph.clientWidth || this.el.clientWidth || 600)));
    const height = 170;
    const left = 30;
    const right = 6;
    const top = 8;
    const bottom = 18;
    const plotW = width - left - right;
    const plotH = height - top - bottom;
    const n = Math.max(1, this.last);
    const x = (step) => left + (step / n) * plotW;
    const layers = [];
    let y;
    let caption;
    const points = []; // [step, value, mark]
    if (this.game === "candidate") {
      const decisions = this.result.decisions;
      const range = Math.max(10, ...decisions.map((d) => Math.abs(d.eval) + d.eval_error));
      y = (v) => top + plotH / 2 - (v / range) * (plotH / 2);
      const upper = decisions.map((d) => `${x(d.step)},${y(d.eval + d.eval_error)}`);
      const lower = decisions.map((d) => `${x(d.step)},${y(d.eval - d.eval_error)}`).reverse();
      if (decisions.length) layers.push(s("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
      layers.push(s("line", { class: "zero", x1: left, x2: width - right, y1: y(0), y2: y(0) }));
      layers.push(s("polyline", { class: "line p0", points: decisions.map((d) => `${x(d.step)},${y(d.eval)}`).join(" ") }));
      for (const d of decisions) points.push([d.step, d.eval, d.label]);
      layers.push(
        s("text", { class: "tick", x: left - 4, y: top + 9, "text-anchor": "end" }, `+${Math.round(range)}`),
        s("text", { class: "tick", x: left - 4, y: y(0) + 4, "text-anchor": "end" }, "0"),
        s("text", { class: "tick", x: left - 4, y: top + plotH, "text-anchor": "end" }, `−${Math.round(range)}`),
      );
      caption = t("graphCandidate", { name: this.who(0) });
    } else {
      const races = this.result.races;
      const values = races.flatMap((r) => r.moves.flatMap((m) => [m.shortest_before, m.shortest_after])).filter((v) => v !== null);
      const most = Math.max(4, ...values);
      y = (v) => top + plotH - (v / most) * plotH;
      layers.push(s("line", { class: "zero", x1: left, x2: width - right, y1: y(0), y2: y(0) }));
      for (const race of races) {
        if (!race.moves.length) continue;
        const first = race.moves[0];
        const line = [[first.step - 1, first.shortest_before]];
        for (const m of race.moves) line.push([m.step, m.shortest_after]);
        const drawn = line.filter(([, v]) => v !== null);
        layers.push(s("polyline", { class: `line p${race.player}`, points: drawn.map(([st, v]) => `${x(st)},${y(v)}`).join(" ") }));
        for (const m of race.moves) points.push([m.step, m.shortest_after ?? 0, m.mark === "mistake" ? "spymistake" : m.mark, race.player]);
      }
      layers.push(
        s("text", { class: "tick", x: left - 4, y: top + 9, "text-anchor": "end" }, most),
        s("text", { class: "tick", x: left - 4, y: y(0), "text-anchor": "end" }, "0"),
      );
      caption = t("graphSpy");
    }
    for (const [step, value, mark] of points) {
      if (!mark) continue;
      layers.push(
        s(
          "g",
          { class: `point mark-${mark}`, "data-step": step },
          s("circle", { cx: x(step), cy: y(value), r: 5 }),
          s("title", {}, `${t("move", { k: step, n: this.last })}: ${t(MARKS[mark].word)}`),
        ),
      );
    }
    // A column per step to click on, over everything.
    const hits = [];
    const w = plotW / n;
    for (let step = 1; step <= n; step += 1) {
      const hit = s("rect", { class: "hit", x: x(step) - w / 2, y: top, width: Math.max(w, 1), height: plotH, "data-step": step });
      hit.addEventListener("click", () => this.go(step));
      hits.push(hit);
    }
    this.cursor = s("line", { class: "cursor", x1: x(this.at), x2: x(this.at), y1: top, y2: top + plotH });
    this.xOf = x;
    const svg = s(
      "svg",
      // eslint-disable-next-line no-restricted-syntax -- an SVG attribute's value, not text
      { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", "aria-label": caption, preserveAspectRatio: "xMidYMid meet" },
      s("title", {}, caption),
      layers,
      this.cursor,
      hits,
    );
    const seen = this.game === "candidate" ? [0] : [...new Set(this.result.races.map((r) => r.player))];
    const legend = h(
      "ul",
      { class: "legend", "aria-label": t("graphLegend") },
      seen.map((p) => h("li", {}, h("span", { class: `swatch p${p}`, "aria-hidden": "true" }), this.who(p))),
    );
    this.graph.replaceChildren(h("p", { class: "graphcaption" }, caption, " ", h("span", { class: "graphhelp" }, t("graphHelp"))), svg, legend);
  }

  drawSummary() {
    const r = this.result;
    const lines = [];
    if (this.game === "candidate") {
      for (const row of r.summary) {
        lines.push(t("summaryCandidate", { name: this.who(row.player), i: row.labels.inaccuracy, m: row.labels.mistake, b: row.labels.blunder, loss: row.mean_loss.toFixed(1) }));
      }
      lines.push(t("trustCandidate", { i: r.thresholds.inaccuracy, m: r.thresholds.mistake, b: r.thresholds.blunder }));
    } else {
      for (const race of r.races) {
        lines.push(t("summarySpy", { name: this.who(race.player), k: race.round, m: race.marks.mistake, h: race.marks.hindsight }));
      }
      lines.push(t("trustSpy"));
    }
    // The marked moves as buttons: the keyboard's way to the graph's points.
    const marked = [...this.byStep].filter(([, info]) => info.mark).sort((a, b) => a[0] - b[0]);
    const buttons = marked.map(([step, info]) =>
      h(
        "button",
        { type: "button", class: `small markjump mark-${info.mark}`, "data-step": step, onclick: () => this.go(step) },
        h("span", { "aria-hidden": "true" }, MARKS[info.mark].symbol, " "),
        t("markAt", { k: step, mark: t(MARKS[info.mark].short), name: this.who(info.seat) }),
      ),
    );
    this.summary.replaceChildren(
      ...lines.map((line) => h("p", {}, line)),
      buttons.length ? h("div", { class: "markjumps", role: "group", "aria-label": t("markedMoves") }, buttons) : h("p", {}, t("noMarks")),
    );
  }

  drawRaces() {
    const blocks = this.result.races.map((race) => {
      const name = this.who(race.player);
      const played = race.moves.map((m) => m.move);
      const parts = race.parts_at;
      const list = (moves, cls) =>
        h(
          "ol",
          { class: `race ${cls}` },
          moves.map((m, i) => h("li", { class: parts === i + 1 ? "parts" : "" }, raceMoveText(m))),
        );
      return h(
        "details",
        { class: "spyrace", open: window.innerWidth >= 768, "data-player": race.player },
        h(
          "summary",
          {},
          t("raceHeading", { k: race.round, name }),
          " — ",
          parts === null ? t("raceFollowed") : t("raceParts", { k: parts }),
        ),
        h(
          "div",
          { class: "racepair" },
          h("div", {}, h("h3", {}, t("racePlayed", { n: played.length })), list(played, "played")),
          h("div", {}, h("h3", {}, t(race.oracle_proven ? "raceOracle" : "raceOracleFound", { n: race.oracle_race.length })), list(race.oracle_race, "oracle")),
        ),
      );
    });
    this.races.replaceChildren(...blocks);
  }

  /** The replay is at `step`; `better` when the better move is on the table. */
  select(step, better = null) {
    this.at = step;
    if (this.cursor && this.xOf) {
      this.cursor.setAttribute("x1", this.xOf(step));
      this.cursor.setAttribute("x2", this.xOf(step));
    }
    if (!this.result) return;
    if (better) {
      this.detail.replaceChildren(
        h("p", { class: "bettershown" }, t("betterShown", { k: better.step, move: this.game === "spy" ? raceMoveText(better.move) : moveText(better.move) })),
        h("button", { type: "button", class: "small", "data-key": "back", onclick: () => this.go(better.step) }, t("betterBack", { k: better.step })),
      );
      return;
    }
    const info = this.byStep.get(step);
    if (!info) {
      this.detail.replaceChildren();
      return;
    }
    const name = this.who(info.seat);
    const lines = [];
    if (this.game === "candidate") {
      const d = info.decision;
      if (d.forced) lines.push(t("evalForced", { name }));
      else {
        lines.push(t("evalPlayed", { name, move: moveText(d.played.move), v: fmt(d.played.mean), e: d.played.error.toFixed(1) }));
        if (info.better) lines.push(t("evalBest", { move: moveText(d.best.move), v: fmt(d.best.mean), e: d.best.error.toFixed(1), loss: d.loss.toFixed(1) }));
        else lines.push(t("evalIsBest"));
      }
    } else {
      const m = info.move;
      const after = m.shortest_after === null ? t("noFinish") : m.shortest_after;
      lines.push(t("spyMoveLine", { name, before: m.shortest_before ?? t("noFinish"), after, fair: m.fair_before.toFixed(1) }));
      if (m.lost) lines.push(t("spyLost", { n: m.lost }));
      else if (m.lost === null) lines.push(t("spyLostCall"));
      if (m.best !== m.move) lines.push(t("spyFairBest", { move: raceMoveText(m.best) }));
    }
    const children = [];
    if (info.mark) {
      children.push(h("p", { class: `markline mark-${info.mark}` }, h("span", { "aria-hidden": "true" }, MARKS[info.mark].symbol, " "), t(MARKS[info.mark].word)));
    }
    children.push(...lines.map((line) => h("p", {}, line)));
    if (info.better) {
      const words = this.game === "spy" ? raceMoveText(info.better) : moveText(info.better);
      const show = h("button", { type: "button", class: "small", "data-key": "better" }, t("showBetter", { move: words }));
      show.addEventListener("click", () => this.go(step - 1, { step, seat: info.seat, move: info.better }));
      children.push(show);
    }
    this.detail.replaceChildren(...children);
  }
}
