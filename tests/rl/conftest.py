"""The RL tests need the ``rl`` extra (pettingzoo, gymnasium, numpy, open_spiel)."""

import pytest

for module in ("pettingzoo", "gymnasium", "numpy", "pyspiel"):
    pytest.importorskip(module, reason=f"{module} is not installed (pip install cardtable[rl])")
