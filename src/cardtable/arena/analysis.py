"""``cardtable analyse spy``: the oracle's shortest race beside each bot's, deal by deal.

Every player's cards of the deal are raced alone (players never touch each other's
cards) by the oracle — who sees every card and finds the fewest moves to the call —
and by each bot, which sees only its seat. The gap is what not seeing the cards costs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_oracle import OracleBot
from cardtable.errors import BadOptions

__all__ = ["analyse_command", "analyse_spy_deal"]


def analyse_spy_deal(
    seed: int, players: int, bot_texts: Sequence[str], options: Mapping[str, Any]
) -> dict[str, Any]:
    """Per player: the oracle's moves to the call and each bot's (None: no call)."""
    from cardtable.games.spy import SpyOptions
    from cardtable.games.spy.deal import deal_cards
    from cardtable.games.spy.options import check_player_count
    from cardtable.games.spy.position import Position

    check_player_count(players)
    spy_options = SpyOptions.from_dict({**options, "rounds": 1})
    specs = [parse_bot_spec("spy", text) for text in bot_texts]
    cards = deal_cards(
        seed=seed, round_number=1, players=players, full_decks=spy_options.full_decks
    )
    oracle = OracleBot()
    rows = []
    for player in range(players):
        position = Position.deal(player, cards[player])
        best = oracle.race(position)
        row: dict[str, Any] = {
            "player": player,
            "oracle": best.moves,
            "oracle_proven": best.proven,
            "oracle_race": [position.base + local for local in best.path],
        }
        for spec in specs:
            race = solo_race(make_bot(spec, seed), position)
            row[spec.label] = race.moves if race.called else None
        rows.append(row)
    return {
        "game": "spy",
        "seed": seed,
        "players": players,
        "bots": [s.label for s in specs],
        "rows": rows,
    }


def analyse_command(
    game: str,
    *,
    seed: int,
    players: int,
    bot_texts: Sequence[str],
    options: Mapping[str, Any],
    as_json: bool,
    stdout: Console,
) -> None:
    """Print the analysis of one deal."""
    if game != "spy":
        raise BadOptions(
            f"analyse covers spy (the oracle's race); for {game} use `cardtable arena {game}`"
        )
    data = analyse_spy_deal(seed, players, bot_texts, options)
    if as_json:
        from cardtable.games.spy import action_to_text

        for row in data["rows"]:
            row["oracle_race"] = [action_to_text(a) for a in row["oracle_race"]]
        stdout.print(json.dumps(data), markup=False, highlight=False, soft_wrap=True)
        return
    table = Table(title=f"spy deal seed {seed}, {players} players: moves to the call, each alone")
    table.add_column("player")
    table.add_column("oracle (sees all)", justify="right")
    for label in data["bots"]:
        table.add_column(label, justify="right")
    for row in data["rows"]:
        oracle = "no call" if row["oracle"] is None else str(row["oracle"])
        if not row["oracle_proven"]:
            oracle += " (best found)"
        cells = [str(row["player"]), oracle]
        cells += ["no call" if row[b] is None else str(row[b]) for b in data["bots"]]
        table.add_row(*cells)
    stdout.print(table)
