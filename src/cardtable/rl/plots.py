"""The frame every training curve shares (matplotlib, headless): percentages of decided
duplicate pairs, a dashed line at 50 %, a legend, written as a PNG."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["curve_png"]


def curve_png(
    path: Path, xlabel: str, ylabel: str, title: str, draw: Callable[[Any], None]
) -> None:
    """A 6×3.6-inch figure: ``draw(ax)`` plots the series, then the shared frame and
    the file at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=90)
    draw(ax)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 100)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
