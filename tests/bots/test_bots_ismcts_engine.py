"""ISMCTS's per-bot ``engine`` option: the search runs on the bot's engine whatever
the process runs, puts the engine back afterwards, and decides as on that engine."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import candidate_ismcts
from cardtable.bots.candidate_ismcts import DealIsmctsBot, IsmctsBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import engine as engines
from cardtable.games.candidate.info import CandidateInfo

needs_core = pytest.mark.skipif(not engines.available(), reason="the compiled core was not built")


def _info(seed: int) -> CandidateInfo:
    """The player to move's information some way into a one-deal match, at a choice."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    rng = random.Random(seed)
    made = 0
    while True:
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
        if made >= 25 and state.decision == "play" and len(state.legal_actions()) > 2:
            return CandidateInfo.of(state, state.current_player)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The engine in use each time a search asks for the compiled core."""
    found: list[str] = []
    real = candidate_ismcts.search_core

    def spy() -> object:
        found.append(engines.engine_in_use())
        return real()

    monkeypatch.setattr(candidate_ismcts, "search_core", spy)
    return found


def _tree(bot: IsmctsBot, info: CandidateInfo) -> dict[int, tuple[int, float]]:
    root = bot.search(info)
    return {a: (c.visits, round(c.total, 9)) for a, c in root.children.items()}


@needs_core
@pytest.mark.parametrize("process", [engines.PURE, engines.COMPILED])
@pytest.mark.parametrize("bot_engine", [engines.PURE, engines.COMPILED])
def test_the_search_runs_on_the_bot_s_engine_and_puts_the_process_s_back(
    process: str, bot_engine: str, seen: list[str]
) -> None:
    info = _info(3)
    with engines.using(process):
        bot = IsmctsBot(3, iterations=60, engine=bot_engine)
        bot.search(info)
        assert seen == [bot_engine]
        assert engines.engine_in_use() == process


@needs_core
@pytest.mark.parametrize("bot_engine", [engines.PURE, engines.COMPILED])
def test_a_bot_on_one_engine_decides_as_the_whole_process_on_it(bot_engine: str) -> None:
    """The same seed and budget: the same tree as a bot without the option when the
    whole process runs that engine."""
    for seed in (1, 2):
        info = _info(seed)
        with engines.using(bot_engine):
            expected = _tree(DealIsmctsBot(seed, iterations=80, reward="win"), info)
        other = engines.PURE if bot_engine == engines.COMPILED else engines.COMPILED
        with engines.using(other):
            got = _tree(DealIsmctsBot(seed, iterations=80, reward="win", engine=bot_engine), info)
            assert engines.engine_in_use() == other
        assert got == expected


@needs_core
def test_the_engine_is_put_back_when_the_search_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> object:
        raise RuntimeError("broken search")

    monkeypatch.setattr(candidate_ismcts, "search_core", broken)
    with engines.using(engines.COMPILED):
        with pytest.raises(RuntimeError, match="broken search"):
            IsmctsBot(5, iterations=10, engine=engines.PURE).search(_info(5))
        assert engines.engine_in_use() == engines.COMPILED


def test_without_the_option_the_search_runs_on_the_process_s_engine(seen: list[str]) -> None:
    info = _info(4)
    IsmctsBot(4, iterations=40).search(info)
    assert seen == [engines.engine_in_use()]


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        IsmctsBot(engine="fast")


@pytest.mark.skipif(engines.available(), reason="the compiled core was built")
def test_the_compiled_engine_is_refused_without_the_core() -> None:
    with pytest.raises(ValueError, match="not built"):
        IsmctsBot(engine=engines.COMPILED)
