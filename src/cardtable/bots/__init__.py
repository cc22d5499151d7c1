"""Bots for both games: one module per bot, a registry and levels (docs/bots.md)."""
