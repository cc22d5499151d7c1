"""The first-game tutorial: a few guided positions per game, every one the engine's own.

A lesson is a real position: the game's engine deals a match from a fixed seed and
applies a fixed list of moves to it (no hand-made state), and the lesson asks the
learner — always seat 0 — for one of a few moves in that position. The web client
(``/tutorial/GAME``, static/js/tutorial.js) draws the position with the table's own
board and sends the learner's move back; :func:`try_move` applies it through the engine
and answers whether it was legal (the engine's refusal, said in the player's language
by :mod:`cardtable.messages`, when not), whether it was the move the lesson asked for,
and the position after it. So the tutorial holds no rule of either game: every legal
move and every refusal comes from the engine, as at a table.

The lessons of each game follow one path through one deal, so each step starts where
the one before it left off. ``scripts/tutorial_seeds.py`` is how the seeds were found.
Each lesson names the rules it shows (the tags of docs/rules/*.md); the texts are the client's
(``tut_<game>_<key>`` in i18n.js).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from cardtable.catalogue import languages
from cardtable.errors import CardtableError
from cardtable.games.base import Match
from cardtable.games.registry import GAME_NAMES, find_game
from cardtable.glossary import term
from cardtable.messages import say

__all__ = [
    "LESSONS",
    "PLAYER_NAMES",
    "Lesson",
    "NoLesson",
    "find_lesson",
    "lesson_json",
    "lesson_position",
    "lesson_state",
    "lessons_of",
    "try_move",
]

#: The learner's seat in every lesson.
LEARNER: Final = 0

#: The players' names by language: the learner and the other seat (each named in the
#: third person, as the move list speaks of players: "Player passes").
PLAYER_NAMES: Final[dict[str, tuple[str, str]]] = {
    lang: (term("seat.player", lang), term("seat.opponent", lang)) for lang in languages()
}


@dataclass(frozen=True, slots=True)
class Lesson:
    """One guided position: the match dealt from ``seed``, ``before`` applied to it
    (each a seat and its move), and the learner's moves the lesson asks for."""

    #: The lesson's name in its game (its texts are ``tut_<game>_<key>`` in i18n.js).
    key: str
    seed: int
    before: tuple[tuple[int, str], ...]
    asked: tuple[str, ...]
    #: The tags (docs/rules/*.md) of the rules the lesson shows.
    rules: tuple[str, ...]


def _learner(moves: str) -> tuple[tuple[int, str], ...]:
    """Moves all made by the learner (a Spy race where only the learner moves), given
    as one text with ``"; "`` between them."""
    return tuple((LEARNER, move) for move in moves.split("; "))


# Candidate, seed 1: seat 0 deals (C2) the diamonds; the lobby card 4♦; the opponent
# passes and the learner plays the run 5♦ 6♦ 7♦ on it, which the opponent lets go: two
# passes end the trick and the learner takes the run of four (C9), scoring 16 (C15).
_CANDIDATE_PATH: Final = (
    (0, "deal D"),
    (0, "lobby D"),
    (1, "pass"),
    (0, "play 5D 6D 7D"),
    (1, "pass"),
    (0, "pass"),
)

# Spy vs Spy, seed 2624: the learner's own race through a round, the other player
# idle, up to the call (S10); the moves the lessons skip are turns and placements.
_SPY_PATH: Final = _learner(
    "place points 2; open points; turn; turn; turn; place waste 2; place points 2; "
    "turn; turn; place waste 1; turn; turn; turn; turn; place waste 2; turn; turn; "
    "turn; place waste 1; place points 1; turn; turn; turn; place waste 2; turn; turn; "
    "place waste 1; "
    # The racing deck is empty here: this turn flips the waste back first (S9).
    "turn; place waste 1; place points 1"
)

#: Each game's lessons, in order.
LESSONS: Final[dict[str, tuple[Lesson, ...]]] = {
    "candidate": (
        # C3, C4: the dealer picks a suit's pile and deals five cards to each player.
        Lesson("deal", 1, (), ("deal D",), ("C3", "C4")),
        # C5: the dealer turns the top card of a pile: it starts the lobby.
        Lesson("lobby", 1, _CANDIDATE_PATH[:1], ("lobby D",), ("C5", "C11")),
        # C6, C7: a run goes up one rank at a time from the lobby card; suits never matter.
        Lesson("play", 1, _CANDIDATE_PATH[:3], ("play 5D 6D 7D",), ("C6", "C7")),
        # C8, C9, C14, C15: two passes end the trick; the last to place takes it.
        Lesson("capture", 1, _CANDIDATE_PATH[:5], ("pass",), ("C8", "C9", "C14", "C15")),
        # C10, C13, C17: the taker draws back up to five, from any pile.
        Lesson(
            "draw",
            1,
            _CANDIDATE_PATH,
            ("draw S", "draw H", "draw D", "draw C"),
            ("C10", "C13", "C17"),
        ),
    ),
    "spy": (
        # S3, S4, S6, S7: the points pile's top card onto a pile one rank away.
        Lesson("points", 2624, (), ("place points 2",), ("S3", "S4", "S6", "S7")),
        # S8: a fifth pile, opened with a playable card.
        Lesson("open", 2624, _SPY_PATH[:1], ("open points",), ("S8",)),
        # S5, S6: the waste's top card, up or down a rank, any suit.
        Lesson(
            "waste",
            2624,
            _SPY_PATH[:5],
            ("place waste 2", "place waste 4", "place waste 5"),
            ("S5", "S6", "S7"),
        ),
        # S9: an empty racing deck: the waste turns over and becomes it again.
        Lesson("recycle", 2624, _SPY_PATH[:27], ("turn",), ("S9",)),
        # S10, S14, S16: the points pile is empty: call «finished»; lowest total wins.
        Lesson("call", 2624, _SPY_PATH, ("call",), ("S10", "S14", "S16")),
    ),
}


class NoLesson(LookupError):
    """A game without a tutorial, or a lesson number it does not have."""


def lessons_of(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game``; :class:`NoLesson` for a game without a tutorial."""
    lessons = LESSONS.get(game)
    if lessons is None or game not in GAME_NAMES:
        raise NoLesson(f"there is no tutorial of the game {game!r}")
    return lessons


def find_lesson(game: str, number: int) -> Lesson:
    """Lesson ``number`` (from 1) of ``game``; :class:`NoLesson` when there is none."""
    lessons = lessons_of(game)
    if not 1 <= number <= len(lessons):
        raise NoLesson(f"the tutorial of {game} has lessons 1 to {len(lessons)}, not {number}")
    return lessons[number - 1]


def lesson_position(game: str, lesson: Lesson, lang: str = "en") -> Match:
    """The lesson's position: the engine's match from its seed, its moves applied."""
    names = PLAYER_NAMES.get(lang, PLAYER_NAMES["en"])
    match = find_game(game).new_match(seed=lesson.seed, players=list(names), options={})
    for seat, move in lesson.before:
        match.apply(seat, move)
    return match


def _moves(match: Match) -> list[str]:
    """The learner's legal moves, as a table sends them (a race's without resigning:
    leaving is not part of any lesson)."""
    return [m for m in match.legal_moves(LEARNER) if not m.endswith("resign")]


def lesson_state(match: Match) -> dict[str, Any]:
    """What the learner sees, in the shape of a table's state (docs/protocol.md): the
    engine's view of seat 0, whose move it is and the learner's legal moves."""
    to_move = match.to_move()
    return {
        "seat": LEARNER,
        "players": list(match.players),
        "to_move": "anyone" if match.info.realtime and to_move is not None else to_move,
        "view": match.view(LEARNER),
        "legal_moves": _moves(match),
        "segments": [s.to_dict() for s in match.segment_results()],
    }


def lesson_json(game: str, number: int, lang: str) -> dict[str, Any]:
    """Lesson ``number`` of ``game`` as the client takes it: its key, its texts' key
    (``text``; the client adds ``_text``, ``_goal`` and ``_done``), rules, the moves
    asked for and the position."""
    lesson = find_lesson(game, number)
    return {
        "number": number,
        "key": lesson.key,
        "text": f"tut_{game}_{lesson.key}",
        "rules": list(lesson.rules),
        "asked": list(lesson.asked),
        "state": lesson_state(lesson_position(game, lesson, lang)),
    }


def _same_move(match: Match, a: str, b: str) -> bool:
    """Whether two texts are the same move of the learner (a Spy move may be given
    with or without its seat number)."""
    strip = (lambda m: m.split(" ", 1)[1] if m[:1].isdigit() else m) if match.info.realtime else str
    return strip(a.strip()) == strip(b.strip())


def _said(code: str | None, params: dict[str, Any], lang: str) -> str | None:
    """A refusal in ``lang``, as a table's face says it; ``None`` without a message."""
    if code is None:
        return None
    try:
        return say(code, params, lang)
    except (KeyError, ValueError):
        return None


def try_move(game: str, number: int, move: str, lang: str) -> dict[str, Any]:
    """Make ``move`` for the learner in lesson ``number``'s position, through the engine.

    ``legal`` is false with the engine's ``reason`` (in ``lang``; its ``message_id`` and
    ``params`` beside it) when the engine refuses the move; otherwise ``asked`` says
    whether it is one the lesson asked for and ``state`` is the position after it.
    """
    lesson = find_lesson(game, number)
    match = lesson_position(game, lesson, lang)
    answer: dict[str, Any] = {"move": move, "legal": False, "asked": False, "reason": None}
    answer.update(message_id=None, params={}, state=None)
    try:
        applied = match.apply(LEARNER, move)
    except CardtableError as exc:
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", None) or {})
        answer.update(message_id=code, params=params)
        answer["reason"] = _said(code, params, lang) or str(exc)
        return answer
    answer.update(legal=True, move=applied.text, state=lesson_state(match))
    answer["asked"] = any(_same_move(match, applied.text, asked) for asked in lesson.asked)
    return answer
