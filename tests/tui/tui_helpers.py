"""Helpers of the terminal-app tests: the screen as plain text."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App


def screen_text(app: App[None]) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    update = app.screen._compositor.render_update(
        full=True,
        screen_stack=app._background_screens,
    )
    console.print(update)
    return console.export_text()
