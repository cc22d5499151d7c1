"""The calibration study computes what the package computes: its vectorised history
z-score is :func:`compare_history`'s, and its simulated games go through
:func:`game_signals` like a server's."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
study = pytest.importorskip("studies.fairplay_calibration")

from cardtable.fairplay import Counts, compare_history  # noqa: E402


def test_the_studys_history_z_is_compare_history() -> None:
    rng = random.Random(3)
    for _ in range(20):
        earlier = [(rng.randint(0, 9), 10 + rng.randint(0, 5)) for _ in range(rng.randint(2, 8))]
        recent = [(rng.randint(0, 9), 10) for _ in range(rng.randint(1, 6))]
        expected = compare_history([Counts(*c) for c in earlier], [Counts(*c) for c in recent])
        assert expected is not None
        got = study._history_z(np.array(earlier, dtype=float), np.array(recent, dtype=float))
        assert float(got) == pytest.approx(expected.z)


def test_a_fast_script_and_a_person_go_through_game_signals() -> None:
    labels = [p.label for p in study.PROFILES]
    script = study.Job(labels.index("greedy at 3.5/s (a fast script)"), 0, 5, 3, 3.5)
    _, rows = study.run_job(script)
    assert len(rows) == 3
    assert all(r.decisions > 0 for r in rows)
    assert sum(r.flagged for r in rows) >= 2
    person = study.Job(labels.index("greedy ε0.1"), 0, 6, 1, None)
    _, (row,) = study.run_job(person)
    assert row.decisions > 0
    assert row.peak is None  # Candidate has no pace
    assert study.person_speed(0, 6) == pytest.approx(0.5)
    assert study.person_speed(5, 6) == pytest.approx(2.0)
