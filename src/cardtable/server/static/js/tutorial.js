// The first-game tutorial: /tutorial/GAME walks a newcomer through a few real positions
// of the game (docs/web.md). The server builds every position with the engine and
// judges every move (/api/tutorial/GAME); this page holds no rule. It draws each
// position with the table's own board (candidate.js, spy.js) through a stand-in for
// the table's connection, so a learner clicks cards and piles exactly as at a table.
// A wrong move gets the engine's reason and "Try again"; a right one the step's
// result and "Next"; the last step ends on "Play against a bot" and the lobby.
// The lobby offers the tutorial to a first-time visitor (tutorialOffer) until they
// finish it or hide the offer; each rules page links to it (tutorialLink).

import { signedIn } from "./account.js";
import { api, saveHostToken, saveSeat, savedName } from "./api.js";
import { CandidateBoard } from "./candidate.js";
import { h, hideToast, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { navigate } from "./nav.js";
import { SpyBoard } from "./spy.js";

/** The games with a tutorial. */
export const TUTORIAL_GAMES = ["candidate", "spy"];

// What the visitor did with the lobby's offer: "done" (finished a tutorial) or
// "dismissed"; nothing while it is still offered.
const OFFER_KEY = "cardtable.tutorial";

function offerState() {
  try {
    return localStorage.getItem(OFFER_KEY);
  } catch {
    return "dismissed"; // no storage: do not offer what cannot be hidden for good
  }
}

function setOfferState(value) {
  try {
    localStorage.setItem(OFFER_KEY, value);
  } catch {
    /* private mode: the offer comes back next time, nothing else changes */
  }
}

/** The lobby's panel for a first-time visitor, or null once they finished or hid it. */
export function tutorialOffer() {
  if (offerState()) return null;
  const hide = h("button", { type: "button", class: "small", "data-key": "tutorial-hide" }, t("tutDismiss"));
  const panel = h(
    "section",
    { class: "panel tutorialoffer", "aria-labelledby": "tutorial-offer-h" },
    h("h2", { id: "tutorial-offer-h" }, t("tutOffer")),
    h(
      "ul",
      { class: "tutoriallinks" },
      TUTORIAL_GAMES.map((game) =>
        h("li", {}, h("a", { href: `/tutorial/${game}`, "data-nav": "", class: "button" }, t("tutLearn", { game: t(game) }))),
      ),
    ),
    hide,
  );
  hide.addEventListener("click", () => {
    setOfferState("dismissed");
    panel.remove();
  });
  return panel;
}

/** The rules page's link to the game's tutorial (null for a game without one). */
export function tutorialLink(game) {
  if (!TUTORIAL_GAMES.includes(game)) return null;
  return h(
    "p",
    { class: "tutoriallink" },
    h("a", { href: `/tutorial/${game}`, "data-nav": "" }, t("tutRulesLink")),
  );
}

/** A lesson's position in the shape of a table's state, for the table's board. */
function tableState(game, position, version, over) {
  return {
    table: "tutorial",
    game,
    status: "playing",
    version,
    seat: position.seat,
    seats: position.players.map((name, index) => ({ index, role: "human", name, level: null, connected: true })),
    to_move: position.to_move,
    view: position.view,
    // Once the step is done the board offers nothing more: the page's Next goes on.
    legal_moves: over ? [] : position.legal_moves,
    clocks: null,
    pause: null,
    count: null,
    race: null,
    segments: position.segments,
    result: null,
    rematch: null,
    rated: false,
    hints: false,
    tournament: false,
    may: {},
  };
}

/** The tutorial page of `game`, from step `first` (1 when not a step of it: the
 * address keeps the step, so a reload or a language switch goes on where it was);
 * returns its clean-up. */
export function showTutorial(main, game, first = 1) {
  const title = h("h1", { id: "tutorial-h", tabindex: "-1" }, t("tutTitle", { game: t(game) }));
  const body = h("div", { class: "tutorialbody" }, t("loading"));
  main.append(h("section", { class: "panel tutorial", "aria-labelledby": "tutorial-h", "data-game": game }, title, body));
  main.dataset.game = game;
  let board = null;
  let closed = false;

  const drop = () => {
    if (board && board.destroy) board.destroy();
    board = null;
  };

  api
    .tutorial(game, lang())
    .then((data) => {
      const start = Number.isInteger(first) && first >= 1 && first <= data.lessons.length ? first - 1 : 0;
      if (!closed) runLessons(data.lessons, start);
    })
    .catch(async (err) => {
      body.replaceChildren(h("p", { class: "error", role: "alert" }, t("err_generic", { detail: await apiErrorText(err) })));
    });

  function runLessons(lessons, index) {
    drop();
    hideToast(); // the last step's message is read: it must not cover this one
    if (index >= lessons.length) {
      finish();
      return;
    }
    const lesson = lessons[index];
    const key = lesson.text; // the step's title; its text, goal and result add _text, _goal, _done
    let version = 0;
    let done = false;
    let busy = false;
    const feedback = h("div", { class: "tutorialfeedback", role: "status", "aria-live": "polite" });
    const next = h(
      "button",
      { type: "button", class: "primary", "data-key": "tutorial-next", hidden: true },
      t(index + 1 === lessons.length ? "tutFinish" : "tutNext"),
    );
    next.addEventListener("click", () => runLessons(lessons, index + 1));
    const again = h("button", { type: "button", "data-key": "tutorial-again", hidden: true }, t("tutTryAgain"));
    again.addEventListener("click", () => runLessons(lessons, index));

    const conn = {
      ready: true,
      // The board sends a move here as it would to the table; the server makes it.
      move: (move) => {
        if (done || busy) return false;
        busy = true;
        api
          .tutorialMove(game, lesson.number, move, lang())
          .then((answer) => judged(answer))
          .catch(async (err) => toast(t("err_generic", { detail: await apiErrorText(err) })))
          .finally(() => {
            busy = false;
          });
        return true;
      },
      request: () => false,
    };
    board = game === "spy" ? new SpyBoard({ conn }) : new CandidateBoard({ conn, tableId: null, token: null, replay: true });
    board.update(tableState(game, lesson.state, version, false), { type: "welcome", history: [] });

    function judged(answer) {
      if (!answer.legal) {
        // The engine's refusal: said at the card where the board can, and here (a
        // status region: a screen reader reads it as it comes).
        if (board.refused) board.refused(answer.reason);
        feedback.replaceChildren(h("p", { class: "tutwrong" }, t("tutWrong", { why: answer.reason })));
        feedback.dataset.result = "refused";
        return;
      }
      version += 1;
      done = true;
      const step = { type: "move", seat: lesson.state.seat, move: answer.move, source: "player", events: [] };
      board.update(tableState(game, answer.state, version, true), { type: "step", event: step, forward: true });
      if (answer.asked) {
        feedback.replaceChildren(h("p", { class: "tutwell" }, h("strong", {}, t("tutWell")), " ", t(`${key}_done`)));
        feedback.dataset.result = "asked";
        next.hidden = false;
        next.focus();
      } else {
        feedback.replaceChildren(h("p", { class: "tutwrong" }, t("tutNotAsked")));
        feedback.dataset.result = "other";
        again.hidden = false;
        again.focus();
      }
    }

    body.replaceChildren(
      h(
        "div",
        { class: "tutoriallesson" },
        h("p", { class: "tutorialprogress", "data-step": index + 1 }, t("tutStep", { k: index + 1, n: lessons.length })),
        h("progress", { max: lessons.length, value: index + 1, "aria-hidden": "true" }),
        h("h2", { id: "lesson-h", tabindex: "-1" }, t(key)),
        h("p", {}, t(`${key}_text`)),
        h("p", { class: "tutorialgoal" }, h("strong", {}, t(`${key}_goal`))),
        // The rules page is a link away; Back returns to this step (the address keeps it).
        h(
          "p",
          { class: "tutorialrules note" },
          h("a", { href: `/rules/${game}`, "data-nav": "" }, t("tutRules", { tags: lesson.rules.join(", ") })),
        ),
        feedback,
        h("div", { class: "buttons" }, again, next),
      ),
      board.el,
    );
    main.dataset.step = String(index + 1);
    history.replaceState(null, "", `/tutorial/${game}${index ? `?step=${index + 1}` : ""}`);
    /** @type {HTMLElement} */ (body.querySelector("#lesson-h")).focus();
  }

  function finish() {
    setOfferState("done");
    history.replaceState(null, "", `/tutorial/${game}`);
    main.dataset.step = "done";
    const play = h("button", { type: "button", class: "primary", "data-key": "tutorial-play" }, t("tutPlayBot"));
    play.addEventListener("click", () => playBot(game, play));
    body.replaceChildren(
      h(
        "div",
        { class: "tutorialdone" },
        h("h2", { id: "done-h", tabindex: "-1" }, t("tutDoneTitle", { game: t(game) })),
        h("p", {}, t("tutDoneText")),
        h(
          "div",
          { class: "buttons" },
          play,
          h("a", { href: "/", "data-nav": "", class: "button" }, t("tutBackLobby")),
          h("a", { href: `/rules/${game}`, "data-nav": "", class: "button" }, t("tutReadRules")),
        ),
      ),
    );
    /** @type {HTMLElement} */ (body.querySelector("#done-h")).focus();
  }

  return () => {
    closed = true;
    drop();
  };
}

/** A casual table against an easy bot, the learner seated at once (as the lobby does). */
async function playBot(game, button) {
  button.disabled = true;
  const me = signedIn();
  const request = {
    game,
    options: {},
    seats: [{ type: "open" }, { type: "bot", level: "easy" }],
    time_control: null,
    rated: false,
    hints: true,
    sit: me ? me.name : savedName() || t("tutPlayer"),
  };
  try {
    const answer = await api.create(request);
    saveHostToken(answer.table.id, answer.host_token);
    const mine = answer.seated;
    saveSeat(mine.table.id, { seat: mine.seat, token: mine.token, name: mine.table.seats[mine.seat].name });
    navigate(`/play/${mine.table.id}`);
  } catch (err) {
    button.disabled = false;
    toast(t("err_create", { detail: await apiErrorText(err) }));
  }
}
