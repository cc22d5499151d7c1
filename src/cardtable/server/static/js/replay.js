// The replay viewer: step through a finished game move by move. The server replays the
// record through the engine and sends the view after every move (one rule, one place);
// this page only shows them, with the same boards as the live tables. It is also the
// analysis board (analysis.js): the graph, the marks and the better move of each step.

import { AnalysisBoard, markBetter } from "./analysis.js";
import { api } from "./api.js";
import { CandidateBoard } from "./candidate.js";
import { h } from "./dom.js";
import { playerName, t } from "./i18n.js";
import { showMissing } from "./missing.js";
import { MoveList, clockText, describeMove } from "./movelist.js";
import { SpyBoard } from "./spy.js";

const IDLE = { ready: false, move: () => false };

/** How a game that stopped early ended, for the last step's caption: who resigned and
 * who won, or who aborted it ("" for a game played to its end). */
function endingNote(result, players) {
  if (!result || result.ended_by === null || result.ended_by === undefined) return "";
  const name = players[result.ended_by];
  if (result.ending === "aborted") return `. ${t("abortedBy", { name })}`;
  if (result.ending !== "resigned") return "";
  return `. ${t("resignedBy", { name, names: result.winners.map((i) => players[i]).join(", ") })}`;
}

export function showReplay(main, tableId) {
  let board = null;
  let onKey = null;
  let analysis = null;
  main.append(h("p", {}, t("loading")));
  api
    .replay(tableId)
    .then((data) => {
      main.replaceChildren();
      const steps = data.steps;
      const last = steps.length - 1;
      let at = 0;
      const players = data.players.map(playerName); // bot seats in the reader's language
      const seats = players.map((name, index) => ({ index, name, role: "human" }));
      const Board = data.game === "candidate" ? CandidateBoard : SpyBoard;
      board = new Board({ conn: IDLE, tableId, token: null, replay: true });
      // Every move in words; the board shows its own list (Candidate) or one goes below.
      const entries = steps.slice(1).map((step) => ({ seat: step.seat, move: step.move, events: step.events, time: step.time }));
      const list = board.moveList || new MoveList({ game: data.game, names: players });
      list.setNames(players);
      list.reset(entries);
      const caption = h("p", { class: "replaymove", role: "status", "aria-live": "polite" });
      const slider = h("input", { type: "range", min: 0, max: last, value: 0, "aria-label": t("move", { k: 0, n: last }), class: "slider" });
      const button = (label, key, to) => {
        const b = h("button", { type: "button", "data-step": key }, label);
        b.addEventListener("click", () => go(to()));
        return b;
      };
      // better: {step, seat, move} to show the better move of `step` before it was made.
      function go(i, better = null) {
        const forward = i === at + 1;
        at = Math.max(0, Math.min(last, i));
        const step = steps[at];
        slider.value = at;
        slider.setAttribute("aria-valuetext", t("move", { k: at, n: last }));
        const entry = at > 0 ? entries[at - 1] : null;
        const when = entry && typeof entry.time === "number" ? ` (${t("raceAt", { time: clockText(entry.time) })})` : "";
        caption.textContent = `${t("move", { k: at, n: last })}${entry ? ` — ${describeMove(data.game, entry, players)}${when}` : ""}`;
        if (at === last) caption.textContent += endingNote(data.result, players);
        const view = step.view;
        const stepped = { type: "step", forward, event: entry ? { type: "move", ...entry } : null };
        board.update({
          table: tableId,
          game: data.game,
          status: at === last ? "finished" : "playing",
          version: at,
          seat: null,
          seats,
          to_move: data.game === "candidate" ? view.current_player : "anyone",
          view,
          hands: step.hands,
          legal_moves: [],
          clocks: null,
        }, stepped);
        list.mark(at - 1);
        main.dataset.step = at;
        if (better) markBetter(board.el, data.game, better.seat, better.move);
        analysis.select(at, better);
      }
      analysis = new AnalysisBoard({ tableId, game: data.game, players, last, go });
      analysis.setList(list);
      slider.addEventListener("input", () => go(Number(slider.value)));
      onKey = (event) => {
        if (event.target && event.target.tagName === "INPUT") return;
        if (event.key === "ArrowRight") go(at + 1);
        else if (event.key === "ArrowLeft") go(at - 1);
        else if (event.key === "Home") go(0);
        else if (event.key === "End") go(last);
        else return;
        event.preventDefault();
      };
      document.addEventListener("keydown", onKey);
      main.append(
        h("h1", {}, t("replayOf", { id: tableId }), " · ", t(data.game)),
        h(
          "div",
          { class: "replaybar", role: "group", "aria-label": t("replay") },
          button(`|◀ ${t("start")}`, "start", () => 0),
          button(`◀ ${t("prev")}`, "prev", () => at - 1),
          button(`${t("next")} ▶`, "next", () => at + 1),
          button(`${t("end")} ▶|`, "end", () => last),
          slider,
          h("a", { href: api.recordUrl(tableId), class: "button", download: "" }, t("record")),
        ),
        caption,
        analysis.el,
        board.el,
      );
      if (!board.moveList) main.append(list.el);
      go(0);
      analysis.load();
    })
    .catch((err) => {
      if (err.status === 404) {
        showMissing(main, t("noTable"), t("noTableText", { id: tableId }));
        return;
      }
      main.replaceChildren(h("p", { class: "error", role: "alert" }, t("err_generic", { detail: err.message })));
    });
  return () => {
    if (onKey) document.removeEventListener("keydown", onKey);
    if (board && board.destroy) board.destroy();
    if (analysis) analysis.destroy();
  };
}
