"""``cardtable analyse spy``: the oracle's shortest race beside each bot's, deal by deal.

Every player's cards of the deal are raced alone (players never touch each other's
cards) by the oracle — who sees every card and finds the fewest moves to the call —
and by each bot, which sees only its seat. The gap is what not seeing the cards costs.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardtable.arena.stats import Z95, MeanCI, mean_interval
from cardtable.bots.registry import make_bot, parse_bot_spec
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_oracle import OracleBot
from cardtable.errors import BadOptions

__all__ = ["analyse_command", "analyse_spy_deal", "analyse_spy_deals", "gap_interval"]


def analyse_spy_deal(
    seed: int,
    players: int,
    bot_texts: Sequence[str],
    options: Mapping[str, Any],
    *,
    timing: bool = False,
) -> dict[str, Any]:
    """Per player: the oracle's moves to the call and each bot's (None: no call).
    With ``timing``, each row also has every bot's ``seconds`` and ``moves`` made."""
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
        spent: dict[str, float] = {}
        made: dict[str, int] = {}
        for spec in specs:
            start = time.perf_counter()
            race = solo_race(make_bot(spec, seed), position)
            spent[spec.label] = time.perf_counter() - start
            made[spec.label] = race.moves
            row[spec.label] = race.moves if race.called else None
        if timing:
            row["seconds"] = spent
            row["moves"] = made
        rows.append(row)
    return {
        "game": "spy",
        "seed": seed,
        "players": players,
        "bots": [s.label for s in specs],
        "rows": rows,
    }


def gap_interval(bot: Sequence[float], oracle: Sequence[float], z: float = Z95) -> MeanCI:
    """The relative gap ``mean(bot) / mean(oracle) - 1`` over paired races, with its
    95 % interval (the ratio estimator's delta-method variance).

    >>> g = gap_interval([8.0, 10.0, 6.0, 12.0], [8.0, 8.0, 6.0, 10.0])
    >>> round(g.mean, 4), g.low < g.mean < g.high
    (0.125, True)
    """
    n = len(bot)
    if n != len(oracle) or n == 0:
        raise ValueError("need the same, non-zero number of bot and oracle races")
    mean_bot = math.fsum(bot) / n
    mean_oracle = math.fsum(oracle) / n
    ratio = mean_bot / mean_oracle
    if n == 1:
        return MeanCI(ratio - 1, ratio - 1, ratio - 1, 1)
    residuals = [b - ratio * o for b, o in zip(bot, oracle, strict=True)]
    half = z * statistics.stdev(residuals) / (mean_oracle * math.sqrt(n))
    return MeanCI(ratio - 1, ratio - 1 - half, ratio - 1 + half, n)


def analyse_spy_deals(
    first_seed: int,
    deals: int,
    players: int,
    bot_texts: Sequence[str],
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """Every seat of deals ``first_seed .. first_seed + deals - 1`` raced alone by the
    oracle and each bot (:func:`analyse_spy_deal`), summed up.

    The means and gaps are taken over the seat-deals where the oracle's race is proven
    shortest and every bot called, so all figures stand on the same races; how many
    races each bot failed to call is counted beside them. A bot's think time is its
    wall-clock time per move over all its races.
    """
    rows: list[dict[str, Any]] = []
    seconds: dict[str, float] = {}
    moves: dict[str, int] = {}
    no_call: dict[str, int] = {}
    labels: list[str] = []
    for seed in range(first_seed, first_seed + deals):
        data = analyse_spy_deal(seed, players, bot_texts, options, timing=True)
        labels = data["bots"]
        for row in data["rows"]:
            row["seed"] = seed
            rows.append(row)
            for label in labels:
                seconds[label] = seconds.get(label, 0.0) + row["seconds"][label]
                moves[label] = moves.get(label, 0) + row["moves"][label]
                no_call[label] = no_call.get(label, 0) + (row[label] is None)
    usable = [
        r
        for r in rows
        if r["oracle_proven"] and r["oracle"] is not None and all(r[b] is not None for b in labels)
    ]
    oracle = [float(r["oracle"]) for r in usable]
    summary: dict[str, Any] = {"oracle": {"mean": _ci(mean_interval(oracle))}}
    for label in labels:
        races = [float(r[label]) for r in usable]
        summary[label] = {
            "mean": _ci(mean_interval(races)),
            "gap": _ci(gap_interval(races, oracle)) if usable else None,
            "no_call": no_call[label],
            "ms_per_move": 1000 * seconds[label] / max(1, moves[label]),
        }
    return {
        "game": "spy",
        "first_seed": first_seed,
        "deals": deals,
        "players": players,
        "bots": labels,
        "races": len(rows),
        "compared": len(usable),
        "oracle_no_call": sum(1 for r in rows if r["oracle"] is None),
        "summary": summary,
        "rows": rows,
    }


def _ci(value: MeanCI) -> dict[str, float]:
    return {"value": value.mean, "low": value.low, "high": value.high}


def analyse_command(
    game: str,
    *,
    seed: int,
    players: int,
    bot_texts: Sequence[str],
    options: Mapping[str, Any],
    as_json: bool,
    stdout: Console,
    deals: int = 1,
) -> None:
    """Print the analysis of one deal, or with ``deals`` > 1 the summary of that many
    deals from ``seed`` on (means, gaps to the oracle, 95 % intervals, think time)."""
    if game != "spy":
        raise BadOptions(
            f"analyse covers spy (the oracle's race); for {game} use `cardtable arena {game}`"
        )
    if deals < 1:
        raise BadOptions(f"--deals must be at least 1, got {deals}")
    if deals > 1:
        _print_summary(analyse_spy_deals(seed, deals, players, bot_texts, options), as_json, stdout)
        return
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


def _print_summary(data: dict[str, Any], as_json: bool, stdout: Console) -> None:
    if as_json:
        stdout.print(json.dumps(data), markup=False, highlight=False, soft_wrap=True)
        return
    last = data["first_seed"] + data["deals"] - 1
    table = Table(
        title=(
            f"spy deals {data['first_seed']}..{last}, {data['players']} players: "
            f"{data['compared']} of {data['races']} seat-deals where every bot called"
        )
    )
    for column in ("bot", "mean moves (95 % CI)", "gap to oracle (95 % CI)", "no call", "ms/move"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    oracle = data["summary"]["oracle"]["mean"]
    table.add_row("oracle", _interval(oracle, ""), "", str(data["oracle_no_call"]), "")
    for label in data["bots"]:
        entry = data["summary"][label]
        gap = entry["gap"]
        table.add_row(
            label,
            _interval(entry["mean"], ""),
            "" if gap is None else _interval({k: 100 * v for k, v in gap.items()}, " %", "+"),
            str(entry["no_call"]),
            f"{entry['ms_per_move']:.1f}",
        )
    stdout.print(table)


def _interval(value: dict[str, float], unit: str, sign: str = "") -> str:
    return f"{value['value']:{sign}.2f}{unit} [{value['low']:{sign}.2f}, {value['high']:{sign}.2f}]"
