"""The games. Each lives in its own package with the same shape; find one by name with
:func:`cardtable.games.registry.find_game`."""
