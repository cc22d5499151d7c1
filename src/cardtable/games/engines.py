"""Switching a game between its pure-Python engine and its compiled core.

Each game with a compiled core (``games/<game>/_core.c``) has an ``engine`` module that
loads the core and makes an :class:`EngineSwitch` of the methods the core replaces on
the engine's classes. The switch puts one engine's methods on the classes:
:meth:`~EngineSwitch.use` (from now on) or :meth:`~EngineSwitch.using` (in a ``with``
block), so tests and benchmarks compare both engines in one process. When the module is
imported, :meth:`~EngineSwitch.start` picks the compiled core when it was built and
``CARDTABLE_PURE`` is not ``1``, else the pure engine.

>>> class Counter:
...     def step(self) -> str:
...         return "pure"
>>> switch = EngineSwitch({Counter: {"step": Counter.step}}, None)
>>> switch.available(), switch.in_use
(False, 'pure')
>>> switch.use("compiled")
Traceback (most recent call last):
...
ValueError: the compiled core was not built (no C compiler at install?)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["COMPILED", "ENGINES", "PURE", "EngineSwitch"]

PURE = "pure"
COMPILED = "compiled"
ENGINES = (PURE, COMPILED)


class EngineSwitch:
    """The methods of each engine, and which engine's are on the classes now.

    ``pure`` maps each class to the pure methods the core replaces (by name);
    ``core`` is the compiled core (None when it was not built), which has a function of
    each name and ``method(function)`` to make it bind as a method.
    """

    def __init__(self, pure: dict[type, dict[str, Any]], core: ModuleType | None) -> None:
        self.core = core
        self._methods: dict[str, dict[type, dict[str, Any]]] = {PURE: pure}
        if core is not None:
            self._methods[COMPILED] = {
                cls: {name: core.method(getattr(core, name)) for name in methods}
                for cls, methods in pure.items()
            }
        self.in_use = PURE

    def available(self) -> bool:
        """Whether the compiled core was built and can be used."""
        return self.core is not None

    def use(self, name: str) -> None:
        """Run engine ``name`` (one of :data:`ENGINES`) from now on, in this process.

        Raises ValueError for an unknown name, or for ``"compiled"`` when the core was
        not built."""
        if name not in ENGINES:
            raise ValueError(f"unknown engine {name!r}: expected one of {', '.join(ENGINES)}")
        if name not in self._methods:
            raise ValueError("the compiled core was not built (no C compiler at install?)")
        for cls, methods in self._methods[name].items():
            for key, method in methods.items():
                setattr(cls, key, method)
        self.in_use = name

    @contextmanager
    def using(self, name: str) -> Iterator[None]:
        """Run engine ``name`` inside the ``with`` block, then the one before."""
        before = self.in_use
        self.use(name)
        try:
            yield
        finally:
            self.use(before)

    def start(self) -> None:
        """The engine at import: compiled when built, unless ``CARDTABLE_PURE=1``."""
        pure = os.environ.get("CARDTABLE_PURE") == "1"
        self.use(COMPILED if self.core is not None and not pure else PURE)
