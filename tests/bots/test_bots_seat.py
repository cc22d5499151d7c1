"""SeatBot: one place where every face gets a bot's move for a seat."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.bots import seat as seat_module
from cardtable.bots.registry import LEVELS, BotSpec, make_bot
from cardtable.bots.seat import BotError, SeatBot
from cardtable.errors import BadOptions
from cardtable.games.base import Match
from cardtable.games.registry import find_game
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, RESIGN


def _spy_match(moves: int = 30, seed: int = 4) -> Match:
    match = find_game("spy").new_match(seed=seed, players=["A", "B", "C"], options={})
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rng.randrange(3)
        legal = [a for a in match.legal_actions(seat) if a % ACTIONS_PER_PLAYER != RESIGN]
        if legal:
            match.apply(seat, rng.choice(legal))
    return match


def _candidate_match(moves: int = 25, seed: int = 4) -> Match:
    match = find_game("candidate").new_match(seed=seed, players=["A", "B"], options={"deals": 1})
    rng = random.Random(seed)
    for _ in range(moves):
        seat = match.to_move()
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return match


def _env() -> dict[str, str]:
    """This process's environment with these sources first on the path."""
    source = str(Path(cardtable.__file__).parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}


def test_made_from_a_level_a_bot_text_or_a_spec() -> None:
    by_level = SeatBot.make("spy", "hard", seed=3, seat=1)
    assert by_level.spec == LEVELS["spy"]["hard"]
    assert (by_level.game, by_level.label, by_level.seed, by_level.seat) == (
        "spy",
        "model",
        3,
        1,
    )
    assert SeatBot.make("candidate", "ismcts:50", seed=0, seat=0).spec == BotSpec(
        "candidate", "ismcts", 50
    )
    spec = BotSpec("spy", "expectimax", 4)
    assert SeatBot.make("spy", spec, seed=1, seat=2) == SeatBot(spec, 1, 2)


@pytest.mark.parametrize(
    ("game", "bot", "message"),
    [
        ("spy", "minimax", "unknown spy bot"),
        ("spy", "oracle", "sees hidden cards"),
        ("chess", "easy", "unknown game"),
        ("spy", BotSpec("candidate", "greedy"), "is a candidate bot, not a spy bot"),
        ("spy", BotSpec("spy", "oracle"), "sees hidden cards"),
        ("spy", BotSpec("spy", "nobody"), "unknown spy bot"),
    ],
)
def test_refuses_unknown_unfair_and_foreign_bots(game: str, bot: Any, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        SeatBot.make(game, bot, seed=0, seat=0)


def test_refuses_a_negative_seat() -> None:
    with pytest.raises(BadOptions, match="numbered from 0"):
        SeatBot.make("spy", "easy", seed=0, seat=-1)


@pytest.mark.parametrize(
    ("game", "level"), [(g, level) for g in ("spy", "candidate") for level in ("easy", "medium")]
)
def test_choose_is_the_bot_deciding_from_the_seats_information(game: str, level: str) -> None:
    """``choose(match)`` is ``bot.choose(match.bot_info(seat))`` and the move is legal."""
    for moves in (0, 7, 30):
        match = _spy_match(moves) if game == "spy" else _candidate_match(moves)
        seat = 1 if game == "spy" else match.to_move()
        assert seat is not None
        bot = SeatBot.make(game, level, seed=5, seat=seat)
        action = bot.choose(match)
        assert action == make_bot(LEVELS[game][level], 5).choose(match.bot_info(seat))
        assert action in match.legal_actions(seat)
        assert bot.think(bot.info(match)) == action
        match.apply(seat, action)


def test_hint_ranks_every_legal_move() -> None:
    spy = _spy_match()
    analysis = SeatBot.make("spy", "medium", seed=2, seat=0).hint(spy)
    assert sorted(m.action for m in analysis.moves) == spy.legal_actions(0)
    candidate = _candidate_match()
    seat = candidate.to_move()
    assert seat is not None
    bot = SeatBot.make("candidate", "medium", seed=2, seat=seat)
    analysis = bot.hint(candidate)
    assert sorted(m.action for m in analysis.moves) == candidate.legal_actions(seat)
    assert analysis.best.action == bot.choose(candidate)  # ISMCTS: the most visited move


def test_a_seat_with_nothing_to_decide_is_refused() -> None:
    """Candidate: not the seat's turn; Spy: the seat resigned (S13); the match over."""
    candidate = _candidate_match()
    deciding = candidate.to_move()
    assert deciding is not None
    waiting = 1 - deciding
    with pytest.raises(ValueError, match=f"seat {waiting} has no move to make now"):
        SeatBot.make("candidate", "hard", seed=0, seat=waiting).choose(candidate)
    spy = _spy_match()
    spy.apply(2, 2 * ACTIONS_PER_PLAYER + RESIGN)
    with pytest.raises(ValueError, match="seat 2 has no move to make now"):
        SeatBot.make("spy", "easy", seed=0, seat=2).choose(spy)
    over = find_game("spy").new_match(seed=1, players=["A", "B"], options={"rounds": 1})
    over.apply(0, RESIGN)
    over.apply(1, ACTIONS_PER_PLAYER + RESIGN)
    assert over.is_terminal()
    with pytest.raises(ValueError, match="has no move"):
        SeatBot.make("spy", "easy", seed=0, seat=0).choose(over)


def test_a_match_of_another_game_or_a_missing_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="a candidate bot cannot play a spy match"):
        SeatBot.make("candidate", "easy", seed=0, seat=0).choose(_spy_match())
    with pytest.raises(ValueError, match="there is no seat 5"):
        SeatBot.make("spy", "easy", seed=0, seat=5).choose(_spy_match())
    match = _spy_match()
    with pytest.raises(ValueError, match="information of seat 0, not 1"):
        SeatBot.make("spy", "easy", seed=0, seat=1).think(match.bot_info(0))


def test_a_bot_choosing_an_illegal_move_is_an_error_not_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot error is a bug a test must see: no other move is played instead."""

    class Wrong:
        def choose(self, info: Any) -> int:
            return info.action(RESIGN) + 1  # the next seat's first move

    monkeypatch.setattr(seat_module, "_engine_bot", lambda spec, seed: Wrong())
    with pytest.raises(BotError, match="not among its legal moves"):
        SeatBot.make("spy", "easy", seed=0, seat=1).choose(_spy_match())


def test_a_bot_that_crashes_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def choose(self, info: Any) -> int:
            raise IndexError("pop from empty list")

    monkeypatch.setattr(seat_module, "_engine_bot", lambda spec, seed: Broken())
    with pytest.raises(IndexError, match="pop from empty list"):
        SeatBot.make("spy", "easy", seed=0, seat=1).choose(_spy_match())


@pytest.mark.parametrize("game", ["spy", "candidate"])
def test_bot_and_information_pickle_and_think_anywhere(game: str) -> None:
    """Thinking off the event loop: the bot and the seat's information set cross a
    process boundary (pickled) and a thread, and the move is the same."""
    match = _spy_match() if game == "spy" else _candidate_match()
    seat = 0 if game == "spy" else match.to_move()
    assert seat is not None
    bot = SeatBot.make(game, "medium", seed=9, seat=seat)
    info = bot.info(match)
    action = bot.think(info)
    bot2, info2 = pickle.loads(pickle.dumps((bot, info)))
    assert bot2 == bot
    assert bot2.think(info2) == action
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(bot.think, info).result() == action


def test_thinking_in_a_worker_process() -> None:
    """As the server's process pool runs it (a fresh interpreter: nothing shared)."""
    match = _candidate_match(seed=11)
    seat = match.to_move()
    assert seat is not None
    bot = SeatBot.make("candidate", "medium", seed=1, seat=seat)
    info = bot.info(match)
    code = (
        "import pickle, sys\n"
        "bot, info = pickle.loads(sys.stdin.buffer.read())\n"
        "print(bot.think(info))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps((bot, info)),
        capture_output=True,
        check=True,
        env=_env(),
    )
    assert int(done.stdout) == bot.think(info)


def test_the_helper_imports_no_face() -> None:
    """Every face may use it: it imports no server, terminal, RL, arena or CLI module."""
    code = (
        "import sys, cardtable.bots.seat\n"
        "faces = ('server', 'tui', 'rl', 'arena', 'cli')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2][-1] in faces"
        " and m.startswith('cardtable.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    assert done.stdout.strip() == "[]"
