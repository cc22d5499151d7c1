"""Both games' compiled cores: built wherever a C compiler is, never required.

The install builds each core when it can (``hatch_build.py``); ``CARDTABLE_PURE=1``
makes a game run its pure-Python engine all the same. The equality of each core with
its pure engine is proven in ``tests/candidate/test_candidate_compiled.py`` and
``tests/spy/test_spy_compiled.py``.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys

import pytest

GAMES = ("candidate", "spy")


@pytest.mark.parametrize("game", GAMES)
def test_the_core_is_built_where_a_c_compiler_is(game: str) -> None:
    """A machine with a C compiler that runs the pure engine has a broken build, not a
    fallback."""
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler: the pure-Python engine is the one to run")
    assert importlib.import_module(f"cardtable.games.{game}.engine").available()


@pytest.mark.parametrize("game", GAMES)
def test_cardtable_pure_forces_the_pure_engine(game: str) -> None:
    engine = importlib.import_module(f"cardtable.games.{game}.engine")
    code = f"from cardtable.games.{game} import engine_in_use; print(engine_in_use())"
    env = dict(os.environ, CARDTABLE_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "pure", out.stderr
    env.pop("CARDTABLE_PURE")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == ("compiled" if engine.available() else "pure"), out.stderr


@pytest.mark.parametrize("game", GAMES)
def test_use_refuses_an_unknown_engine(game: str) -> None:
    engine = importlib.import_module(f"cardtable.games.{game}.engine")
    with pytest.raises(ValueError, match="unknown engine"):
        engine.use("fast")
