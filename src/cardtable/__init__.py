"""cardtable: Spy vs Spy («Шпигун проти шпигуна») and Candidate («Кандидат»).

Exact rules engines with game records and replay, and the faces built on them.
The engine packages (:mod:`cardtable.cards`, :mod:`cardtable.games`,
:mod:`cardtable.record`) are pure Python with no third-party imports.
"""

__version__ = "0.1.0"
