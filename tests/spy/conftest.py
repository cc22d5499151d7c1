"""Fixtures shared by the Spy vs Spy tests (the helpers are in spy_helpers.py)."""

from __future__ import annotations

import pytest

from cardtable.games.spy.state import SpyState


@pytest.fixture
def two_player_state() -> SpyState:
    """A seeded one-round match between Ann and Bob."""
    from cardtable.games.spy.options import SpyOptions

    return SpyState.deal(["Ann", "Bob"], seed=21, options=SpyOptions(rounds=1))
