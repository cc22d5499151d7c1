"""The ``cardtable`` command line.

Every command goes through the engines; this module only reads arguments, calls them
and prints. Errors in the input (a bad record, an illegal move, an unknown option) are
printed as one clear message with exit status 1, never as a traceback.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from cardtable import __version__
from cardtable.botclient.command import connect as connect_command
from cardtable.errors import BadOptions, CardtableError
from cardtable.games.registry import GAME_NAMES, find_game
from cardtable.record import dump_record, load_record, read_record_file
from cardtable.record import replay as replay_record
from cardtable.rules_text import rules_text
from cardtable.table.pacing import LEVEL_SPEEDS, SPEEDS

#: The web's bot levels and their race paces, for ``play --help``: "easy gentle (0.3/s), …".
_LEVEL_PACES = ", ".join(
    f"{level} {pace} ({SPEEDS[pace]}/s)" for level, pace in LEVEL_SPEEDS.items()
)


class _FlagsShowNoType:
    """Help that shows no value type beside an on/off flag (``--json``, ``--help``):
    a flag takes no value, so the ``<bool>`` the help would print there misleads."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class _Command(_FlagsShowNoType, typer.core.TyperCommand):
    """A command whose help shows flags without a value type."""


class _Group(_FlagsShowNoType, typer.core.TyperGroup):
    """The command group, its help showing flags without a value type."""


app = typer.Typer(
    cls=_Group,
    name="cardtable",
    help="Spy vs Spy and Candidate: deal, replay and study games of both.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# Piped output is not squeezed to 80 columns: tables stay whole in logs and files.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class GameName(StrEnum):
    """The games, as the command line names them."""

    candidate = "candidate"
    spy = "spy"


class Lang(StrEnum):
    """Languages of the rules, transcripts and the terminal app (the catalogues' own,
    src/cardtable/locale; a test keeps the two lists the same)."""

    en = "en"
    de = "de"
    es = "es"
    pl = "pl"
    uk = "uk"


#: What ``--lang`` says when it is left out.
LANG_DEFAULT_HELP = "default: from LC_ALL, LC_MESSAGES or LANG (uk_UA.UTF-8: uk), else en"


def environment_lang() -> Lang:
    """The language the environment asks for, as POSIX reads it: the first of
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and not empty decides; a
    language we do not speak (``fr_FR.UTF-8``, ``C``) is English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(".", 1)[0].split("_", 1)[0].lower()
            return Lang(code) if code in Lang.__members__ else Lang.en
    return Lang.en


# Options several commands share, declared once.
RuleOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule option as key=value (repeatable)."),
]
Workers = Annotated[int | None, typer.Option(help="Worker processes (default: one per core).")]
Quiet = Annotated[bool, typer.Option(help="No progress bar.")]


def _fail(message: str) -> typer.Exit:
    """Print ``message`` as one error line and return the exit to raise. The message is
    printed as it is: brackets in it (a file or bot named ``[x]``) are not markup."""
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True, highlight=False)
    return typer.Exit(1)


def _option_message(exc: CardtableError) -> str:
    """A rule option's error said as the command line's option: ``--rounds: expected …``
    rather than ``malformed record: options.rounds: expected …`` (no record was read)."""
    message = str(exc)
    for prefix in ("malformed record: options.", "options."):
        if message.startswith(prefix):
            return "--" + message.removeprefix(prefix)
    return message


def _check_writable(path: Path, option: str) -> None:
    """Fail at once, before any work, when ``path`` (given by ``option``) cannot be
    written: its folder is missing, or it is a folder itself."""
    folder = path.parent
    if path.is_dir():
        raise _fail(f"{option} {path}: that is a folder, not a file")
    if not folder.is_dir():
        raise _fail(f"{option} {path}: the folder {folder} does not exist")


def _version(value: bool) -> None:
    if value:
        out.print(f"cardtable {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Spy vs Spy («Шпигун проти шпигуна») and Candidate («Кандидат»)."""


def _parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value (``decks=2``, ``full_decks=true``) or a bare string."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise BadOptions(f"--option {text!r}: expected key=value, e.g. decks=2")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


#: Ray's options, the same for the arena and bot tournaments.
RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        "--address",
        help="Ray: join the running cluster at HOST:PORT (default: start a local one "
        "for this run, on --ray-host).",
    ),
]
RayHost = Annotated[
    str,
    typer.Option(
        help="Ray: the address a local cluster listens on (default loopback: no other "
        "machine can reach it; give this machine's address to let others join)."
    ),
]
RayPort = Annotated[
    int | None,
    typer.Option(
        help="Ray: the first port of a local cluster; it uses 71 ports from there "
        "(7 of its own, then its workers'; more with over 32 workers). Default: "
        "free ones.",
    ),
]


@app.command(cls=_Command)
def deal(
    game: Annotated[GameName, typer.Argument(help="Which game to deal.")],
    seed: Annotated[
        int, typer.Option(help="Seed of the deal: the same seed gives the same cards.")
    ],
    players: Annotated[
        int | None, typer.Option(help="Number of players (Spy: 2-8; Candidate: always 2).")
    ] = None,
    names: Annotated[
        str | None,
        typer.Option(help="Comma-separated player names (default: Player 1, Player 2, …)."),
    ] = None,
    decks: Annotated[int | None, typer.Option(help="Candidate: decks in play (1-3).")] = None,
    deals: Annotated[int | None, typer.Option(help="Candidate: deals in the match.")] = None,
    rounds: Annotated[int | None, typer.Option(help="Spy: rounds in the match.")] = None,
    full_decks: Annotated[
        bool | None,
        typer.Option("--full-decks", help="Spy: a full deck each, even for two players."),
    ] = None,
    option: RuleOptions = None,
    output: Annotated[
        Path | None, typer.Option("--out", help="Write the record here instead of standard output.")
    ] = None,
) -> None:
    """Write a record of a freshly dealt game, with no moves yet."""
    try:
        options: dict[str, Any] = dict(_parse_option(o) for o in option or [])
        for key, value in (
            ("decks", decks),
            ("deals", deals),
            ("rounds", rounds),
            ("full_decks", full_decks),
        ):
            if value is not None:
                options[key] = value
        if names is not None:
            player_names = [n.strip() for n in names.split(",")]
            if players is not None and players != len(player_names):
                raise BadOptions(f"--players {players} but --names gives {len(player_names)} names")
        else:
            count = players if players is not None else 2
            player_names = [f"Player {i + 1}" for i in range(count)]
        record = find_game(game.value).new_record(seed=seed, players=player_names, options=options)
    except CardtableError as exc:
        raise _fail(str(exc)) from None
    text = dump_record(record)
    if output is None:
        sys.stdout.write(text)
        return
    _check_writable(output, "--out")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"cannot write {output}: {exc.strerror or exc}") from None
    err.print(f"wrote {output}")


@app.command(cls=_Command)
def replay(
    file: Annotated[str, typer.Argument(help="The record to replay (- for standard input).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the replay summary (docs/records.md) as JSON.")
    ] = False,
    lang: Annotated[
        Lang | None, typer.Option(help=f"Language of the transcript ({LANG_DEFAULT_HELP}).")
    ] = None,
) -> None:
    """Replay a game record, complete or stopped anywhere, and check every move."""
    lang = lang or environment_lang()
    try:
        record = load_record(sys.stdin.read()) if file == "-" else read_record_file(file)
        result = replay_record(record)
        if as_json:
            sys.stdout.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
        else:
            out.print(result.transcript(lang.value), markup=False)
    except CardtableError as exc:
        raise _fail(str(exc)) from None


@app.command(cls=_Command)
def rules(
    game: Annotated[GameName, typer.Argument(help="Which game's rules.")],
    lang: Annotated[
        Lang | None, typer.Option(help=f"Language: en or uk ({LANG_DEFAULT_HELP}).")
    ] = None,
) -> None:
    """Print the rules as the project implements them, with their tags (C1…, S1…)."""
    lang = lang or environment_lang()
    try:
        text = rules_text(game.value, lang.value)
    except CardtableError as exc:
        raise _fail(str(exc)) from None
    if out.is_terminal:
        out.print(Markdown(text))
    else:
        sys.stdout.write(text)


@app.command(cls=_Command)
def play(
    game: Annotated[GameName, typer.Argument(help="Which game to play.")],
    vs: Annotated[
        str,
        typer.Option(
            help="Candidate: a bot level (easy, medium, hard), any Candidate bot (greedy, "
            "ismcts:500, learned:PATH), or human for two people at one keyboard."
        ),
    ] = "medium",
    players: Annotated[
        int, typer.Option(help="Spy: players at the table, you included (2-8).")
    ] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Spy: the bots, comma-separated, one per seat (the last repeats): a level "
            "(easy, medium, hard) or any Spy bot (greedy, planner:8, learned:PATH)."
        ),
    ] = "greedy",
    speed: Annotated[
        str,
        typer.Option(
            help="Spy: bot speeds, comma-separated: a profile or moves a second. The web's "
            f"levels race at {_LEVEL_PACES}; also quick ({SPEEDS['quick']}/s) and fast "
            f"({SPEEDS['fast']}/s). The default is the easy level's pace."
        ),
    ] = LEVEL_SPEEDS["easy"],
    lang: Annotated[
        Lang | None,
        typer.Option(help=f"Language of the app, l switches it ({LANG_DEFAULT_HELP})."),
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here when the game ends.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deal (default: a fresh random one).")
    ] = None,
    names: Annotated[
        str | None, typer.Option(help="Comma-separated names of the people playing.")
    ] = None,
    deals: Annotated[int | None, typer.Option(help="Candidate: deals in the match.")] = None,
    decks: Annotated[int | None, typer.Option(help="Candidate: decks in play (1-3).")] = None,
    rounds: Annotated[int | None, typer.Option(help="Spy: rounds in the match.")] = None,
) -> None:
    """Play in the terminal: Candidate against a bot or a friend, Spy in real time."""
    try:
        from cardtable.tui import build_app
    except ImportError as exc:
        raise _fail(
            f"the terminal app needs the tui extra (pip install 'cardtable[tui]'): {exc}"
        ) from None
    if save is not None:
        _check_writable(save, "--save")  # before the game, not after it
    vs = vs.strip().lower() if vs.strip().lower() in ("human", "easy", "medium", "hard") else vs
    if game is GameName.candidate and vs != "human":
        from cardtable.bots.registry import parse_bot_spec

        try:
            parse_bot_spec("candidate", vs)  # a bad bot or policy file: one line, now
        except CardtableError as exc:
            raise _fail(str(exc)) from None
    people = [n.strip() for n in names.split(",")] if names else []
    options: dict[str, Any] = {}
    for key, value in (("deals", deals), ("decks", decks), ("rounds", rounds)):
        if value is not None:
            options[key] = value
    try:
        tui = build_app(
            game.value,
            vs=vs,
            players=players,
            bots=[b for b in bots.split(",") if b.strip()],
            speeds=[s for s in speed.split(",") if s.strip()],
            lang=(lang or environment_lang()).value,
            save=save,
            seed=seed,
            names=people,
            options=options,
        )
    except CardtableError as exc:
        raise _fail(_option_message(exc)) from None
    except ValueError as exc:
        raise _fail(str(exc)) from None
    tui.run()
    if tui.saved_to is not None:
        err.print(f"wrote {tui.saved_to}")


def _game_options(option: list[str] | None) -> dict[str, Any]:
    return dict(_parse_option(o) for o in option or [])


@app.command(cls=_Command)
def arena(
    game: Annotated[GameName, typer.Argument(help="Which game the bots play.")],
    more_bots: Annotated[
        list[str] | None,
        typer.Argument(
            help="More bots after --bots (e.g. --bots ismcts:1000 greedy).", hidden=True
        ),
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            help="Bots: NAME[:ITERATIONS] or a level (easy, medium, hard), space or comma "
            "separated, e.g. --bots ismcts:1000 greedy."
        ),
    ] = None,
    deals: Annotated[
        int | None, typer.Option(help="Candidate: duplicate deals per pair of bots (default 100).")
    ] = None,
    rounds: Annotated[
        int | None, typer.Option(help="Spy: duplicate rounds, each raced in every seating.")
    ] = None,
    workers: Workers = None,
    backend: Annotated[str, typer.Option(help="Where games run: local or ray.")] = "local",
    ray_address: RayAddress = None,
    ray_host: RayHost = "127.0.0.1",
    ray_port: RayPort = None,
    seed: Annotated[int, typer.Option(help="Arena seed: the same seed gives the same games.")] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    output: Annotated[
        Path | None, typer.Option("--out", help="Save the results (and every game) as JSON.")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Save a plot of win rates and ratings (PNG).")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Let bots play each other over duplicate deals; print win rates with 95% intervals
    and ratings. Ctrl-C stops early and still reports the games that finished."""
    for path, name in ((output, "--out"), (plot, "--plot")):
        if path is not None:
            _check_writable(path, name)  # before the games, not after them
    try:
        from cardtable.arena.commands import run_arena_command
        from cardtable.arena.raycluster import RayPlace

        count = _arena_count(game.value, deals, rounds)
        report = run_arena_command(
            game.value,
            [*(bots or []), *(more_bots or [])],
            deals=count,
            workers=workers,
            backend=backend,
            ray_place=RayPlace(ray_address, ray_host, ray_port),
            seed=seed,
            options=_game_options(option),
            as_json=as_json,
            out=output,
            plot=plot,
            quiet=quiet,
            stdout=out,
            stderr=err,
        )
    except CardtableError as exc:
        raise _fail(str(exc)) from None
    if report.interrupted:
        raise typer.Exit(130)


@app.command(cls=_Command)
def tournament(
    game: Annotated[GameName, typer.Argument(help="Which game the bots play.")],
    more_bots: Annotated[
        list[str] | None,
        typer.Argument(help="More bots after --bots (e.g. --bots greedy random).", hidden=True),
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            help="The entrants, in initial order: NAME[:ITERATIONS] or a level, space or "
            "comma separated; a bot may enter several times (greedy greedy)."
        ),
    ] = None,
    format: Annotated[
        str, typer.Option("--format", help="swiss (candidate), race (spy) or arena (both).")
    ] = "swiss",
    rounds: Annotated[int, typer.Option(help="Rounds (an arena: waves of games).")] = 5,
    table_size: Annotated[int, typer.Option(help="Spy: players a race table seats (2-8).")] = 4,
    duplicate: Annotated[
        bool, typer.Option(help="Every table of a round the same cards; matchpoint scoring.")
    ] = False,
    workers: Workers = None,
    backend: Annotated[str, typer.Option(help="Where games run: local or ray.")] = "local",
    ray_address: RayAddress = None,
    ray_host: RayHost = "127.0.0.1",
    ray_port: RayPort = None,
    seed: Annotated[int, typer.Option(help="Tournament seed: the same seed, the same games.")] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    output: Annotated[
        Path | None, typer.Option("--out", help="Save every round, game and the standings (JSON).")
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="Save the final standings (CSV).")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Play a tournament of bots — Swiss, race rounds or arena, duplicate or not — with
    the pairing and standings of the server's tournaments (docs/tournaments.md)."""
    for path, name in ((output, "--out"), (csv_path, "--csv")):
        if path is not None:
            _check_writable(path, name)
    try:
        from cardtable.arena.commands import run_tournament_command
        from cardtable.arena.raycluster import RayPlace

        run_tournament_command(
            game.value,
            [*(bots or []), *(more_bots or [])],
            format=format,
            rounds=rounds,
            table_size=table_size,
            duplicate=duplicate,
            options=_game_options(option),
            seed=seed,
            workers=workers,
            backend=backend,
            ray_place=RayPlace(ray_address, ray_host, ray_port),
            out=output,
            csv_path=csv_path,
            as_json=as_json,
            quiet=quiet,
            stdout=out,
            stderr=err,
        )
    except CardtableError as exc:
        raise _fail(_option_message(exc)) from None


def _arena_count(game: str, deals: int | None, rounds: int | None) -> int:
    """The number of duplicate deals: --deals for Candidate, --rounds for Spy."""
    wanted, other = ("deals", "rounds") if game == "candidate" else ("rounds", "deals")
    given = {"deals": deals, "rounds": rounds}
    if given[other] is not None:
        raise BadOptions(f"{game} counts --{wanted}, not --{other}")
    count = given[wanted]
    if count is None:
        return 100
    if count < 1:
        raise BadOptions(f"--{wanted} must be at least 1, got {count}")
    return count


@app.command(cls=_Command)
def analyse(
    game: Annotated[GameName, typer.Argument(help="Which game.")],
    record: Annotated[
        Path | None,
        typer.Argument(
            help="A record file to analyse move by move (docs/analysis.md).", show_default=False
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Spy without RECORD: seed of the deal whose races the oracle and bots run. "
            "With RECORD: the analysis's own seed (default 0).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[int, typer.Option(help="Spy --seed: number of players (2-8).")] = 2,
    bots: Annotated[
        str, typer.Option(help="Spy --seed: bots to race beside the oracle, comma separated.")
    ] = "model,planner,greedy,random",
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    deals: Annotated[
        int, typer.Option(help="Spy --seed: summarise this many deals from --seed on.")
    ] = 1,
    samples: Annotated[
        int | None,
        typer.Option(
            help="RECORD: determinisations per move (Candidate, 16) or planner worlds (Spy, 16).",
            show_default=False,
        ),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="RECORD: save the evaluation graph as a PNG.")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Analyse a played RECORD move by move (marks, the better move, the evaluation
    graph), or with --seed (Spy) race one deal's cards by the oracle and by bots."""
    if plot is not None:
        _check_writable(plot, "--plot")  # before the analysis, not after it
    try:
        if record is not None:
            from cardtable.arena.review_commands import review_command

            review_command(
                game.value,
                record,
                seed=0 if seed is None else seed,
                samples=samples,
                as_json=as_json,
                plot=plot,
                quiet=quiet,
                stdout=out,
                stderr=err,
            )
            return
        if plot is not None or samples is not None:
            raise BadOptions("--plot and --samples go with a RECORD file to analyse")
        if seed is None:
            raise BadOptions("give a RECORD file to analyse, or --seed N for a Spy deal's races")
        from cardtable.arena.analysis import analyse_command

        analyse_command(
            game.value,
            seed=seed,
            players=players,
            bot_texts=[b for b in bots.split(",") if b.strip()],
            options=_game_options(option),
            as_json=as_json,
            stdout=out,
            deals=deals,
        )
    except (CardtableError, ValueError) as exc:  # ValueError: e.g. --players out of range
        raise _fail(str(exc)) from None


@app.command(cls=_Command)
def balance(
    game: Annotated[GameName, typer.Argument(help="Which game to study.")],
    games: Annotated[
        int, typer.Option("--games", help="Games (Candidate deals; Spy rounds per player count).")
    ] = 400,
    bot: Annotated[str, typer.Option(help="The bot that plays every seat.")] = "greedy",
    players: Annotated[
        str, typer.Option(help="Spy: player counts to compare, comma separated.")
    ] = "2,3,4",
    workers: Workers = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answers as JSON.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Save the plots (PNG).")] = None,
    quiet: Quiet = False,
) -> None:
    """Answer a player's questions about a game with 95% intervals: Candidate's dealer
    advantage and score spread; Spy's race lengths, blocked rounds and ties."""
    if plot is not None:
        _check_writable(plot, "--plot")  # before the games, not after them
    try:
        from cardtable.arena.balance import balance_command

        balance_command(
            game.value,
            games=games,
            bot_text=bot,
            players_text=players,
            workers=workers,
            seed=seed,
            options=_game_options(option),
            as_json=as_json,
            plot=plot,
            quiet=quiet,
            stdout=out,
            stderr=err,
        )
    except CardtableError as exc:
        raise _fail(str(exc)) from None


train_app = typer.Typer(
    cls=_Group,
    help="Train a learned bot with MaskablePPO (needs the train extra of cardtable).",
    no_args_is_help=True,
)
app.add_typer(train_app, name="train")

TrainMinutes = Annotated[
    float | None,
    typer.Option(help="Wall-clock minutes to train (this run); 30 when --steps is not given."),
]
TrainSteps = Annotated[
    int | None,
    typer.Option(
        help="Train this many decisions instead of for minutes (rounded up to whole "
        "rollouts of 1,024): the same seed then gives the same policy on any machine."
    ),
]
TrainSeed = Annotated[int, typer.Option(help="Seed of the network, the deals and the bots.")]
TrainOut = Annotated[
    Path, typer.Option("--out", help="Folder for the checkpoints, progress and curve.png.")
]
TrainResume = Annotated[
    bool,
    typer.Option("--resume", help="Continue the run saved in --out (steps, optimiser, curve)."),
]
EvalEvery = Annotated[int, typer.Option(help="Evaluate, save and plot every N training decisions.")]
EvalPairs = Annotated[
    int, typer.Option(help="Held-out duplicate pairs per opponent at each evaluation.")
]


def _train(game: str, **kwargs: Any) -> None:
    try:
        from cardtable.rl.train_command import run_train_command

        run_train_command(game, stderr=err, **kwargs)
    except CardtableError as exc:
        raise _fail(str(exc)) from None


@train_app.command("candidate", cls=_Command)
def train_candidate(
    minutes: TrainMinutes = None,
    steps: TrainSteps = None,
    seed: TrainSeed = 0,
    output: TrainOut = Path("train-candidate"),
    resume: TrainResume = False,
    eval_every: EvalEvery = 25_000,
    eval_pairs: EvalPairs = 100,
    method: Annotated[
        str,
        typer.Option(
            help="ppo: MaskablePPO against greedy and random; exit: expert iteration "
            "(search self-play teaches a policy-and-value network that guides the search)."
        ),
    ] = "ppo",
    iterations: Annotated[
        int | None, typer.Option(help="exit: iterations to run (instead of --minutes).")
    ] = None,
    games: Annotated[int, typer.Option(help="exit: self-play games per iteration.")] = 200,
    simulations: Annotated[
        int, typer.Option(help="exit: search simulations per self-play move.")
    ] = 100,
    eval_search: Annotated[
        int,
        typer.Option(
            help="exit: also evaluate the search with the network at this many "
            "simulations (0: the policy alone)."
        ),
    ] = 0,
    workers: Annotated[int, typer.Option(help="exit: worker processes for self-play.")] = 1,
    backend: Annotated[str, typer.Option(help="exit: where self-play runs: local or ray.")] = (
        "local"
    ),
    quiet: Quiet = False,
) -> None:
    """Train a Candidate policy: with MaskablePPO against greedy and random (it plays as
    the bot learned:OUT), or by expert iteration (--method exit: learned:OUT plays the
    policy, alpha:N:OUT searches with the network); docs/rl.md."""
    if method == "exit":
        try:
            from functools import partial

            from cardtable.arena.backends import map_tasks
            from cardtable.rl.train_command import run_exit_command

            run_exit_command(
                minutes=minutes,
                iterations=iterations,
                seed=seed,
                out=output,
                resume=resume,
                games=games,
                simulations=simulations,
                eval_pairs=eval_pairs,
                eval_search=eval_search,
                runner=partial(map_tasks, backend=backend, workers=workers),
                quiet=quiet,
                stderr=err,
            )
        except CardtableError as exc:
            raise _fail(str(exc)) from None
        return
    if method != "ppo":
        raise _fail(f"unknown --method {method!r}: expected ppo or exit")
    _train(
        "candidate",
        minutes=minutes,
        steps=steps,
        seed=seed,
        out=output,
        resume=resume,
        eval_every=eval_every,
        eval_pairs=eval_pairs,
        quiet=quiet,
    )


@train_app.command("spy", cls=_Command)
def train_spy(
    minutes: TrainMinutes = None,
    steps: TrainSteps = None,
    seed: TrainSeed = 0,
    output: TrainOut = Path("train-spy"),
    resume: TrainResume = False,
    eval_every: EvalEvery = 25_000,
    eval_pairs: EvalPairs = 100,
    quiet: Quiet = False,
) -> None:
    """Train one seat's Spy race with MaskablePPO against the clock; the policy, the
    curve against greedy and random racers and the checkpoint go to OUT (docs/rl.md)."""
    _train(
        "spy",
        minutes=minutes,
        steps=steps,
        seed=seed,
        out=output,
        resume=resume,
        eval_every=eval_every,
        eval_pairs=eval_pairs,
        quiet=quiet,
    )


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


@app.command(cls=_Command)
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Port to listen on (1-65535).")
    ] = 8000,
    db: Annotated[
        str,
        typer.Option(help="Database URL: sqlite:///FILE (default) or postgresql://USER@HOST/DB."),
    ] = "sqlite:///cardtable.db",
    log_level: Annotated[
        str, typer.Option(help="Server log level: critical, error, warning, info, debug.")
    ] = "info",
    allow_client_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-client-seeds",
            help="For tests and benchmarks only: accept a seed chosen by the client for "
            "an unrated table (rated tables with one are refused). Never on a public "
            "server: whoever chooses the seed knows every hidden card.",
        ),
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="Address (or network, 10.0.0.0/8) of a reverse proxy whose "
            "X-Forwarded-For names the client, for the login, hint and analysis limits "
            "(repeatable). Default none: the header is ignored and the connection's "
            "address counts. Behind HAProxy on this machine: --trusted-proxy 127.0.0.1.",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://HOST:PORT/DB): run as one of several processes "
            "sharing the tables of one PostgreSQL database (docs/server.md). Without "
            "it the process is alone, as ever.",
        ),
    ] = None,
    redis_prefix: Annotated[
        str,
        typer.Option(help="Prefix of every Redis key and channel (runs sharing a Redis)."),
    ] = "cardtable:",
    instance: Annotated[
        str | None,
        typer.Option(help="This process's id among several (default: host-pid-random)."),
    ] = None,
    route: Annotated[
        str | None,
        typer.Option(
            help="With --redis: the name the proxy sends this process the WebSockets "
            "asked for with ?route=NAME by (docs/deploy.md); a table's sockets then "
            "go to its owner instead of being relayed.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=0.2,
            help="With --redis: seconds a table's owner holds it without renewing (a "
            "killed process's tables move after this; a stopped one's at once).",
        ),
    ] = 10.0,
    renew_seconds: Annotated[
        float,
        typer.Option(min=0.05, help="With --redis: seconds between lease renewals."),
    ] = 1.0,
    drain_seconds: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="With --redis: seconds a process told to stop still serves while its "
            "health check answers 503, before it hands its tables over.",
        ),
    ] = 0.0,
    max_in_flight: Annotated[
        int,
        typer.Option(
            min=1,
            help="Admission control: with more requests and table messages than this in "
            "progress, new tables, joins and seeks get 503 with Retry-After (moves are "
            "always served).",
        ),
    ] = 64,
    max_lag: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Admission control: with the event loop this many seconds late, new "
            "tables, joins and seeks get 503 with Retry-After (0: never by lag).",
        ),
    ] = 0.5,
    smtp: Annotated[
        str | None,
        typer.Option(
            help="SMTP server for the mail (verification and reset links, moderators' "
            "notices): smtp://[USER[:PASSWORD]@]HOST[:PORT][?starttls=1&from=ADDRESS] or "
            "smtps://…. Without it every mail is written to the server's log.",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The site's address the links in mails start with, e.g. "
            "https://cards.example.org (default: this server's own address).",
        ),
    ] = None,
) -> None:
    """Run the online play server (needs the server extra: pip install 'cardtable\\[server]')."""
    if log_level.lower() not in LOG_LEVELS:
        raise _fail(f"unknown --log-level {log_level!r}: expected one of {', '.join(LOG_LEVELS)}")
    if route is not None and not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", route):
        raise _fail(f"--route {route!r}: 1-64 letters, digits, '.', '_' or '-'")
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401

        from cardtable.server import serve as run_server
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _fail(f"the server needs the server extra ({exc.name} is missing)") from None
    try:
        run_server(
            host=host,
            port=port,
            db=db,
            log_level=log_level,
            trusted_proxies=tuple(trusted_proxy or ()),
            allow_client_seeds=allow_client_seeds,
            admission_in_flight=max_in_flight,
            admission_lag_seconds=max_lag or None,
            smtp_url=smtp,
            public_url=public_url,
            **(
                {
                    "redis_url": redis,
                    "redis_prefix": redis_prefix,
                    "instance": instance,
                    "route": route,
                    "lease_seconds": lease_seconds,
                    "renew_seconds": renew_seconds,
                    "drain_seconds": drain_seconds,
                }
                if redis is not None
                else {}
            ),
        )
    except CardtableError as exc:
        raise _fail(str(exc)) from None


# `cardtable connect`: play on a server as a bot account (docs/bot-api.md).
app.command("connect", cls=_Command)(connect_command)

admin_app = typer.Typer(
    cls=_Group,
    help="Administer a server's database: the moderator role (docs/server.md, Moderation).",
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")

AdminDb = Annotated[
    str,
    typer.Option(help="The server's database URL, as given to serve --db."),
]


def _set_role(name: str, db: str, moderator: bool) -> None:
    try:
        from cardtable.server import check_database
        from cardtable.server.moderation.admin import set_role

        check_database(db)
        found = set_role(db, name, moderator)
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _fail(f"admin needs the server extra ({exc.name} is missing)") from None
    except CardtableError as exc:
        raise _fail(str(exc)) from None
    if found is None:
        raise _fail(f"no account is called {name!r}")
    out.print(f"{escape(found)} is {'now' if moderator else 'no longer'} a moderator")


@admin_app.command("grant-moderator", cls=_Command)
def grant_moderator(
    name: Annotated[str, typer.Argument(help="The account's user name.")],
    db: AdminDb = "sqlite:///cardtable.db",
) -> None:
    """Make the account NAME a moderator (logged in the moderators' log)."""
    _set_role(name, db, True)


@admin_app.command("revoke-moderator", cls=_Command)
def revoke_moderator(
    name: Annotated[str, typer.Argument(help="The account's user name.")],
    db: AdminDb = "sqlite:///cardtable.db",
) -> None:
    """Take the moderator role from the account NAME (logged in the moderators' log)."""
    _set_role(name, db, False)


def _one_line_summaries() -> None:
    """Join the lines of each command's first help paragraph. Typer's rich help keeps a
    docstring's line breaks, so a summary wrapped in the source would break mid-sentence
    in ``cardtable --help``; the terminal wraps it instead."""
    for info in app.registered_commands:
        doc = inspect.getdoc(info.callback) or ""
        first, sep, rest = doc.partition("\n\n")
        info.help = " ".join(first.split("\n")) + sep + rest


_one_line_summaries()


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["GAME_NAMES", "app", "main"]
