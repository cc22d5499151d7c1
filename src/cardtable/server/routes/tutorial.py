"""The first-game tutorial's routes (:mod:`cardtable.server.tutorial`, docs/web.md).

- ``GET /api/tutorial/{game}?lang=en|uk`` — the game's lessons, each with its position
  (the engine's view of the learner's seat and the legal moves), the moves it asks for
  and the rules it shows;
- ``POST /api/tutorial/{game}/{lesson}?lang=en|uk`` with ``{"move": "..."}`` — make the
  move in that lesson's position through the engine: whether it was legal (else the
  engine's refusal in the player's language), whether it was the move asked for, and
  the position after it. Nothing is stored: every answer is worked out afresh.

404 for a game without a tutorial or a lesson it does not have; 422 for a bad body.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from pydantic import BaseModel, Field

from cardtable.catalogue import lang_pattern
from cardtable.server.tutorial import NoLesson, lesson_json, lessons_of, try_move

__all__ = ["router"]

router = APIRouter(tags=["tutorial"])

Lang = Annotated[str, Query(pattern=lang_pattern(), description="a language code")]
#: Lesson numbers are small: anything longer is no lesson.
LessonNumber = Annotated[int, Path(ge=1, le=99, description="The lesson, from 1.")]


class TutorialMove(BaseModel):
    """The learner's move in record notation, as at a table (``"play 5D 6D 7D"``)."""

    move: str = Field(min_length=1, max_length=200)


def _no_lesson(exc: NoLesson) -> HTTPException:
    return HTTPException(404, detail={"code": "no_lesson", "message": str(exc)})


@router.get("/api/tutorial/{game}", summary="A game's tutorial lessons")
async def tutorial(game: str, lang: Lang = "en") -> dict[str, Any]:
    """Every lesson of ``game``'s tutorial with its position, in ``lang``'s names."""
    try:
        count = len(lessons_of(game))
    except NoLesson as exc:
        raise _no_lesson(exc) from None
    return {"game": game, "lessons": [lesson_json(game, n, lang) for n in range(1, count + 1)]}


@router.post("/api/tutorial/{game}/{lesson}", summary="Try a move in a tutorial lesson")
async def tutorial_move(
    game: str, lesson: LessonNumber, body: TutorialMove, lang: Lang = "en"
) -> dict[str, Any]:
    """The learner's move in lesson ``lesson``'s position, made by the engine."""
    try:
        return try_move(game, lesson, body.move, lang)
    except NoLesson as exc:
        raise _no_lesson(exc) from None
