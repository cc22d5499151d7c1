"""The ``cardtable`` command line.

Every command goes through the engines; this module only reads arguments, calls them
and prints. Errors in the input (a bad record, an illegal move, an unknown option) are
printed as one clear message with exit status 1, never as a traceback.

``--help`` speaks the reader's language: ``--lang`` given before the command, else the
environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``). The help texts are catalogue
messages (``cli:help.*``), declared in English through :func:`cardtable.cli_help.help_text`
and translated when the help is shown (:class:`_ReadersLanguage`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core
import typer.rich_utils
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from cardtable import __version__
from cardtable.botclient.command import connect as connect_command
from cardtable.cli_help import help_message, translated
from cardtable.cli_help import help_text as _h
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


class _ReadersLanguage:
    """Help in the reader's language (:func:`help_lang`): the command's text, its
    parameters', its subcommands' and the panels' titles come from the catalogues
    (:mod:`cardtable.cli_help`). Typer builds the commands anew for every run, so the
    texts changed here change nothing but the help being shown."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        lang = help_lang(ctx)
        if lang != "en" and isinstance(self, typer.core.TyperCommand | typer.core.TyperGroup):
            _translate_help(self, ctx, lang)
        with _typer_marks(lang):
            super().format_help(ctx, formatter)  # type: ignore[misc]


class _Command(_ReadersLanguage, _FlagsShowNoType, typer.core.TyperCommand):
    """A command whose help is in the reader's language and shows flags without a
    value type."""


class _Group(_ReadersLanguage, _FlagsShowNoType, typer.core.TyperGroup):
    """A command group whose help is in the reader's language and shows flags without
    a value type."""


def _translate_help(
    command: typer.core.TyperCommand | typer.core.TyperGroup, ctx: Any, lang: str
) -> None:
    """Put ``command``'s help, its parameters' and its subcommands' (a group's list)
    in ``lang``, with the panels titled in ``lang``."""
    if command.help:
        command.help = translated(command.help, lang)
    help_option = command.get_help_option(ctx)
    for param in command.get_params(ctx):
        if not isinstance(param, typer.core.TyperArgument | typer.core.TyperOption):
            continue
        if param is help_option:  # Click's own --help
            param.help = help_message("common.help", lang)
        elif param.help:
            param.help = translated(param.help, lang)
        if param.rich_help_panel is None:
            kind = "arguments" if isinstance(param, typer.core.TyperArgument) else "options"
            param.rich_help_panel = help_message(f"panel.{kind}", lang)
    if isinstance(command, typer.core.TyperGroup):
        for sub in command.commands.values():
            if sub.help:
                sub.help = translated(sub.help, lang)
            if sub.short_help:
                sub.short_help = translated(sub.short_help, lang)
            if isinstance(sub, typer.core.TyperCommand | typer.core.TyperGroup):
                sub.rich_help_panel = sub.rich_help_panel or help_message("panel.commands", lang)


@contextmanager
def _typer_marks(lang: str) -> Iterator[None]:
    """Typer's own marks in the help (``[default: …]``, ``[required]``) in ``lang``
    while one help is written: Typer reads them from its module's constants."""
    marks = typer.rich_utils
    saved = marks.DEFAULT_STRING, marks.REQUIRED_LONG_STRING
    marks.DEFAULT_STRING = help_message("panel.default", lang)
    marks.REQUIRED_LONG_STRING = help_message("panel.required", lang)
    try:
        yield
    finally:
        marks.DEFAULT_STRING, marks.REQUIRED_LONG_STRING = saved


app = typer.Typer(
    cls=_Group,
    name="cardtable",
    help=_h("app"),
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


def chosen_lang(ctx: typer.Context) -> Lang:
    """The language asked for: ``--lang`` given before the command
    (``cardtable --lang uk replay …``), else the environment's (:func:`environment_lang`)."""
    chosen = ctx.find_root().params.get("lang")
    return chosen if isinstance(chosen, Lang) else environment_lang()


def help_lang(ctx: typer.Context) -> str:
    """The language ``--help`` is shown in: :func:`chosen_lang`'s code."""
    return chosen_lang(ctx).value


# Options several commands share, declared once.
RuleOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help=_h("common.option")),
]
Workers = Annotated[int | None, typer.Option(help=_h("common.workers"))]
Quiet = Annotated[bool, typer.Option(help=_h("common.quiet"))]


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
        bool, typer.Option("--version", callback=_version, is_eager=True, help=_h("common.version"))
    ] = False,
    lang: Annotated[
        Lang | None,
        # Eager, so that it is read before a --help given after it is shown.
        typer.Option(is_eager=True, help=_h("common.lang")),
    ] = None,
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
        help=_h("common.ray_address"),
    ),
]
RayHost = Annotated[
    str,
    typer.Option(help=_h("common.ray_host")),
]
RayPort = Annotated[
    int | None,
    typer.Option(
        help=_h("common.ray_port"),
    ),
]


@app.command(cls=_Command, help=_h("deal"))
def deal(
    game: Annotated[GameName, typer.Argument(help=_h("deal.game"))],
    seed: Annotated[int, typer.Option(help=_h("deal.seed"))],
    players: Annotated[int | None, typer.Option(help=_h("deal.players"))] = None,
    names: Annotated[
        str | None,
        typer.Option(help=_h("deal.names")),
    ] = None,
    decks: Annotated[int | None, typer.Option(help=_h("common.decks"))] = None,
    deals: Annotated[int | None, typer.Option(help=_h("common.deals"))] = None,
    rounds: Annotated[int | None, typer.Option(help=_h("common.rounds"))] = None,
    full_decks: Annotated[
        bool | None,
        typer.Option("--full-decks", help=_h("deal.full_decks")),
    ] = None,
    option: RuleOptions = None,
    output: Annotated[Path | None, typer.Option("--out", help=_h("deal.out"))] = None,
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


@app.command(cls=_Command, help=_h("replay"))
def replay(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help=_h("replay.file"))],
    as_json: Annotated[bool, typer.Option("--json", help=_h("replay.json"))] = False,
    lang: Annotated[Lang | None, typer.Option(help=_h("replay.lang"))] = None,
) -> None:
    """Replay a game record, complete or stopped anywhere, and check every move."""
    lang = lang or chosen_lang(ctx)
    try:
        record = load_record(sys.stdin.read()) if file == "-" else read_record_file(file)
        result = replay_record(record)
        if as_json:
            sys.stdout.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
        else:
            out.print(result.transcript(lang.value), markup=False)
    except CardtableError as exc:
        raise _fail(str(exc)) from None


@app.command(cls=_Command, help=_h("rules"))
def rules(
    ctx: typer.Context,
    game: Annotated[GameName, typer.Argument(help=_h("rules.game"))],
    lang: Annotated[Lang | None, typer.Option(help=_h("rules.lang"))] = None,
) -> None:
    """Print the rules as the project implements them, with their tags (C1…, S1…)."""
    lang = lang or chosen_lang(ctx)
    try:
        text = rules_text(game.value, lang.value)
    except CardtableError as exc:
        raise _fail(str(exc)) from None
    if out.is_terminal:
        out.print(Markdown(text))
    else:
        sys.stdout.write(text)


@app.command(cls=_Command, help=_h("play"))
def play(
    ctx: typer.Context,
    game: Annotated[GameName, typer.Argument(help=_h("play.game"))],
    vs: Annotated[
        str,
        typer.Option(help=_h("play.vs")),
    ] = "medium",
    players: Annotated[int, typer.Option(help=_h("play.players"))] = 2,
    bots: Annotated[
        str,
        typer.Option(help=_h("play.bots")),
    ] = "greedy",
    speed: Annotated[
        str,
        typer.Option(
            help=_h("play.speed", paces=_LEVEL_PACES, quick=SPEEDS["quick"], fast=SPEEDS["fast"])
        ),
    ] = LEVEL_SPEEDS["easy"],
    lang: Annotated[
        Lang | None,
        typer.Option(help=_h("play.lang")),
    ] = None,
    save: Annotated[Path | None, typer.Option(help=_h("play.save"))] = None,
    seed: Annotated[int | None, typer.Option(help=_h("play.seed"))] = None,
    names: Annotated[str | None, typer.Option(help=_h("play.names"))] = None,
    deals: Annotated[int | None, typer.Option(help=_h("common.deals"))] = None,
    decks: Annotated[int | None, typer.Option(help=_h("common.decks"))] = None,
    rounds: Annotated[int | None, typer.Option(help=_h("common.rounds"))] = None,
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
            lang=(lang or chosen_lang(ctx)).value,
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


@app.command(cls=_Command, help=_h("arena"))
def arena(
    game: Annotated[GameName, typer.Argument(help=_h("common.bots_game"))],
    more_bots: Annotated[
        list[str] | None,
        typer.Argument(help=_h("arena.more_bots"), hidden=True),
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(help=_h("arena.bots")),
    ] = None,
    deals: Annotated[int | None, typer.Option(help=_h("arena.deals"))] = None,
    rounds: Annotated[int | None, typer.Option(help=_h("arena.rounds"))] = None,
    workers: Workers = None,
    backend: Annotated[str, typer.Option(help=_h("common.backend"))] = "local",
    ray_address: RayAddress = None,
    ray_host: RayHost = "127.0.0.1",
    ray_port: RayPort = None,
    seed: Annotated[int, typer.Option(help=_h("arena.seed"))] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help=_h("arena.json"))] = False,
    output: Annotated[Path | None, typer.Option("--out", help=_h("arena.out"))] = None,
    plot: Annotated[Path | None, typer.Option(help=_h("arena.plot"))] = None,
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


@app.command(cls=_Command, help=_h("tournament"))
def tournament(
    game: Annotated[GameName, typer.Argument(help=_h("common.bots_game"))],
    more_bots: Annotated[
        list[str] | None,
        typer.Argument(help=_h("tournament.more_bots"), hidden=True),
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(help=_h("tournament.bots")),
    ] = None,
    format: Annotated[str, typer.Option("--format", help=_h("tournament.format"))] = "swiss",
    rounds: Annotated[int, typer.Option(help=_h("tournament.rounds"))] = 5,
    table_size: Annotated[int, typer.Option(help=_h("tournament.table_size"))] = 4,
    duplicate: Annotated[bool, typer.Option(help=_h("tournament.duplicate"))] = False,
    workers: Workers = None,
    backend: Annotated[str, typer.Option(help=_h("common.backend"))] = "local",
    ray_address: RayAddress = None,
    ray_host: RayHost = "127.0.0.1",
    ray_port: RayPort = None,
    seed: Annotated[int, typer.Option(help=_h("tournament.seed"))] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help=_h("tournament.json"))] = False,
    output: Annotated[Path | None, typer.Option("--out", help=_h("tournament.out"))] = None,
    csv_path: Annotated[Path | None, typer.Option("--csv", help=_h("tournament.csv"))] = None,
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


@app.command(cls=_Command, help=_h("analyse"))
def analyse(
    game: Annotated[GameName, typer.Argument(help=_h("analyse.game"))],
    record: Annotated[
        Path | None,
        typer.Argument(help=_h("analyse.record"), show_default=False),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help=_h("analyse.seed"),
            show_default=False,
        ),
    ] = None,
    players: Annotated[int, typer.Option(help=_h("analyse.players"))] = 2,
    bots: Annotated[str, typer.Option(help=_h("analyse.bots"))] = "model,planner,greedy,random",
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help=_h("analyse.json"))] = False,
    deals: Annotated[int, typer.Option(help=_h("analyse.deals"))] = 1,
    samples: Annotated[
        int | None,
        typer.Option(
            help=_h("analyse.samples"),
            show_default=False,
        ),
    ] = None,
    plot: Annotated[Path | None, typer.Option(help=_h("analyse.plot"))] = None,
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


@app.command(cls=_Command, help=_h("balance"))
def balance(
    game: Annotated[GameName, typer.Argument(help=_h("balance.game"))],
    games: Annotated[int, typer.Option("--games", help=_h("balance.games"))] = 400,
    bot: Annotated[str, typer.Option(help=_h("balance.bot"))] = "greedy",
    players: Annotated[str, typer.Option(help=_h("balance.players"))] = "2,3,4",
    workers: Workers = None,
    seed: Annotated[int, typer.Option(help=_h("balance.seed"))] = 0,
    option: RuleOptions = None,
    as_json: Annotated[bool, typer.Option("--json", help=_h("balance.json"))] = False,
    plot: Annotated[Path | None, typer.Option(help=_h("balance.plot"))] = None,
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
    help=_h("train"),
    no_args_is_help=True,
)
app.add_typer(train_app, name="train")

TrainMinutes = Annotated[
    float | None,
    typer.Option(help=_h("train.minutes")),
]
TrainSteps = Annotated[
    int | None,
    typer.Option(help=_h("train.steps")),
]
TrainSeed = Annotated[int, typer.Option(help=_h("train.seed"))]
TrainOut = Annotated[Path, typer.Option("--out", help=_h("train.out"))]
TrainResume = Annotated[
    bool,
    typer.Option("--resume", help=_h("train.resume")),
]
EvalEvery = Annotated[int, typer.Option(help=_h("train.eval_every"))]
EvalPairs = Annotated[int, typer.Option(help=_h("train.eval_pairs"))]


def _train(game: str, **kwargs: Any) -> None:
    try:
        from cardtable.rl.train_command import run_train_command

        run_train_command(game, stderr=err, **kwargs)
    except CardtableError as exc:
        raise _fail(str(exc)) from None


@train_app.command("candidate", cls=_Command, help=_h("train.candidate"))
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
        typer.Option(help=_h("train.candidate.method")),
    ] = "ppo",
    iterations: Annotated[int | None, typer.Option(help=_h("train.candidate.iterations"))] = None,
    games: Annotated[int, typer.Option(help=_h("train.candidate.games"))] = 200,
    simulations: Annotated[int, typer.Option(help=_h("train.candidate.simulations"))] = 100,
    eval_search: Annotated[
        int,
        typer.Option(help=_h("train.candidate.eval_search")),
    ] = 0,
    ismcts_iterations: Annotated[
        int,
        typer.Option(help=_h("train.candidate.ismcts_iterations")),
    ] = 1,
    samples_from: Annotated[
        Path | None,
        typer.Option(help=_h("train.candidate.samples_from")),
    ] = None,
    window_passes: Annotated[
        int,
        typer.Option(help=_h("train.candidate.window_passes")),
    ] = 0,
    workers: Annotated[int, typer.Option(help=_h("train.candidate.workers"))] = 1,
    backend: Annotated[str, typer.Option(help=_h("train.candidate.backend"))] = ("local"),
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
                ismcts_iterations=ismcts_iterations,
                samples_from=samples_from,
                window_passes=window_passes,
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


@train_app.command("spy", cls=_Command, help=_h("train.spy"))
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


@app.command(cls=_Command, help=_h("serve"))
def serve(
    host: Annotated[str, typer.Option(help=_h("serve.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=_h("serve.port"))] = 8000,
    db: Annotated[
        str,
        typer.Option(help=_h("serve.db")),
    ] = "sqlite:///cardtable.db",
    log_level: Annotated[str, typer.Option(help=_h("serve.log_level"))] = "info",
    allow_client_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-client-seeds",
            help=_h("serve.allow_client_seeds"),
        ),
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help=_h("serve.trusted_proxy"),
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help=_h("serve.redis"),
        ),
    ] = None,
    redis_prefix: Annotated[
        str,
        typer.Option(help=_h("serve.redis_prefix")),
    ] = "cardtable:",
    instance: Annotated[
        str | None,
        typer.Option(help=_h("serve.instance")),
    ] = None,
    route: Annotated[
        str | None,
        typer.Option(
            help=_h("serve.route"),
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=0.2,
            help=_h("serve.lease_seconds"),
        ),
    ] = 10.0,
    renew_seconds: Annotated[
        float,
        typer.Option(min=0.05, help=_h("serve.renew_seconds")),
    ] = 1.0,
    drain_seconds: Annotated[
        float,
        typer.Option(
            min=0.0,
            help=_h("serve.drain_seconds"),
        ),
    ] = 0.0,
    max_in_flight: Annotated[
        int,
        typer.Option(
            min=1,
            help=_h("serve.max_in_flight"),
        ),
    ] = 64,
    max_lag: Annotated[
        float,
        typer.Option(
            min=0.0,
            help=_h("serve.max_lag"),
        ),
    ] = 0.5,
    smtp: Annotated[
        str | None,
        typer.Option(
            help=_h("serve.smtp"),
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help=_h("serve.public_url"),
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
app.command("connect", cls=_Command, help=_h("connect"))(connect_command)

admin_app = typer.Typer(
    cls=_Group,
    help=_h("admin"),
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")

AdminDb = Annotated[
    str,
    typer.Option(help=_h("admin.db")),
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


@admin_app.command("grant-moderator", cls=_Command, help=_h("admin.grant_moderator"))
def grant_moderator(
    name: Annotated[str, typer.Argument(help=_h("admin.name"))],
    db: AdminDb = "sqlite:///cardtable.db",
) -> None:
    """Make the account NAME a moderator (logged in the moderators' log)."""
    _set_role(name, db, True)


@admin_app.command("revoke-moderator", cls=_Command, help=_h("admin.revoke_moderator"))
def revoke_moderator(
    name: Annotated[str, typer.Argument(help=_h("admin.name"))],
    db: AdminDb = "sqlite:///cardtable.db",
) -> None:
    """Take the moderator role from the account NAME (logged in the moderators' log)."""
    _set_role(name, db, False)


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["GAME_NAMES", "app", "main"]
