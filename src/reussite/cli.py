"""The command line, ``reussite`` (see docs/interfaces.md).

Errors in the user's input print one line on standard error and exit with status 2; no
traceback is ever shown for them. Each command imports the parts it runs (the web site, the
solver) inside its function: a command starts without loading the others.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.exceptions import TyperException

from reussite.cards import card_code
from reussite.deals import check_deal_number
from reussite.engine import Position
from reussite.games import CATALOGUE, UnknownGameError, get_game

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Réussite: patience games, their rules engine, solver and web site.")


class CliError(Exception):
    """An error in what the user asked for: printed on one line, exit status 2."""




def load_deal(game_id: str, number: int) -> Position:
    try:
        rules = get_game(game_id)
        check_deal_number(number, rules.numbers)
    except (UnknownGameError, ValueError) as e:
        raise CliError(str(e)) from None
    return Position.deal(rules, number)


@app.command()
def games() -> None:
    """List the catalogue: id, name, packs, redeals, difficulty."""
    table = Table(title="Réussite — the catalogue")
    # Ids are what the user types next: never cut them short, however narrow the terminal.
    table.add_column("id", no_wrap=True, min_width=max(map(len, CATALOGUE)))
    for col in ("name", "packs", "redeals", "difficulty"):
        table.add_column(col)
    table.add_column("related", overflow="fold")
    for g in CATALOGUE.values():
        table.add_row(g.id, g.name, str(g.packs), g.redeals_label, g.difficulty,
                      ", ".join(g.related))
    console = Console()
    if not console.is_terminal:  # piped or captured: one line a game, for scripts and grep
        console = Console(width=160)
    console.print(table)


@app.command()
def deal(game: Annotated[str, typer.Argument(help="A game id, e.g. astrocyte")],
         number: Annotated[int, typer.Option("--number", "-n", help="The deal number")],
         as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False) -> None:
    """Show the opening layout of a deal, every card shown (a tool, not a player's view)."""
    pos = load_deal(game, number)
    data = pos.to_json()
    if as_json:
        print(json.dumps(data))
        return
    console = Console()
    console.print(f"[bold]{pos.rules.name}[/bold], deal {number}")
    for pid, pile in zip(pos.layout.ids, pos.piles, strict=True):
        if pid == "stock":
            text = f"{len(pile)} cards, next: " + " ".join(
                card_code(c) for c in reversed(pile[-10:]))
        else:
            text = " ".join(card_code(c) if c & 64 else f"({card_code(c)})" for c in pile)
        console.print(f"{pid:>14}: {text}")


@contextmanager
def database_errors() -> Iterator[None]:
    """A database URL that is not one, or a database that cannot be opened: one line for the
    user (``reussite serve``, ``reussite cleanup``)."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        yield
    except ArgumentError as e:
        raise CliError(f"Not a database URL: {e}") from None
    except SQLAlchemyError as e:
        raise CliError(f"Cannot open the database: {type(e).__name__}:"
                       f" {str(e).splitlines()[0]}") from None


@app.command()
def cleanup(db: Annotated[str | None, typer.Option(
                help="A SQLAlchemy database URL (default: $REUSSITE_DATABASE_URL, else SQLite"
                     " in ./data/reussite.sqlite3)")] = None) -> None:
    """Remove old abandoned games and ended games beyond each player's history, as the
    server does in the background (REUSSITE_ABANDONED_AFTER, REUSSITE_HISTORY_PER_GAME)."""
    from reussite.web import cleanup as cleaner
    from reussite.web.app import database_url
    from reussite.web.storage import Store

    try:
        with database_errors():
            store = Store(database_url(db))
            store.migrate()
            removed = cleaner.cleanup(store)
            store.dispose()
    except ValueError as e:
        raise CliError(str(e)) from None
    typer.echo(f"{removed} games removed")


@app.command()
def serve(host: Annotated[str, typer.Option(help="The address to listen on")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="The port to listen on", min=1,
                                            max=65535)] = 8000,
          db: Annotated[str | None, typer.Option(
              help="A SQLAlchemy database URL (default: $REUSSITE_DATABASE_URL, else SQLite"
                   " in ./data/reussite.sqlite3)")] = None,
          workers: Annotated[int, typer.Option(
              help="Server processes sharing the port and the database", min=1,
              max=64)] = 1,
          access_log: Annotated[bool, typer.Option(
              help="Log every request")] = True) -> None:
    """Run the web site (migrations are applied at start-up)."""
    import os

    import uvicorn

    from reussite.web import settings
    from reussite.web.app import database_url, serving_app
    from reussite.web.storage import Store

    try:
        settings.check()
    except ValueError as e:
        raise CliError(str(e)) from None
    url = database_url(db)
    with database_errors():
        if workers == 1:
            application = serving_app(url)
        else:
            store = Store(url)
            store.migrate()
            store.dispose()
    from reussite.web.ratelimit import trusted_proxies

    # X-Forwarded-For is believed only from the trusted proxies (none unless configured).
    proxies = trusted_proxies()
    options: dict[str, Any] = dict(host=host, port=port, log_level="info",
                                   proxy_headers=bool(proxies), forwarded_allow_ips=proxies,
                                   server_header=False, access_log=access_log)
    try:
        # httptools (uvicorn[standard]): one write an answer, and the connections guarded
        from reussite.web.wire import Protocol, guard

        guard(reload=True)  # its settings read and checked now, not at a first connection
        options["http"] = Protocol
    except ImportError:
        pass
    except ValueError as e:
        raise CliError(str(e)) from None
    if workers == 1:
        uvicorn.run(application, **options)
    else:
        # Each worker process builds its own application from the environment.
        os.environ["REUSSITE_DATABASE_URL"] = url
        uvicorn.run("reussite.web.app:serving_app", factory=True, workers=workers, **options)


@app.command()
def worker(burst: Annotated[bool, typer.Option(
        help="Stop when the queue is empty instead of waiting for more jobs")] = False) -> None:
    """Work the analyses' queue on Redis (for a site on several machines, with
    REUSSITE_JOBS=redis): REUSSITE_REDIS_URL names the queue's Redis, REUSSITE_DATABASE_URL the
    site's database."""
    redis_url = os.environ.get("REUSSITE_REDIS_URL")
    if not redis_url:
        raise CliError("REUSSITE_REDIS_URL is not set: the worker needs the queue's Redis")
    import redis

    from reussite.web.jobs import work

    try:
        work(redis_url, burst=burst)
    except redis.RedisError as e:
        raise CliError(f"Cannot reach the queue's Redis at {redis_url}: {e}") from None


names_app = typer.Typer(help="Players' display names: the reported ones, hiding and showing.",
                        no_args_is_help=True)
app.add_typer(names_app, name="names")
DbOption = Annotated[str | None, typer.Option(
    help="A SQLAlchemy database URL (default: $REUSSITE_DATABASE_URL, else SQLite in"
         " ./data/reussite.sqlite3)")]


@contextmanager
def players_of(db: str | None) -> Iterator[Any]:
    """The site's :class:`~reussite.web.players.Players` on its database (migrated), a bad
    name or database said in one line."""
    from reussite.web.app import database_url
    from reussite.web.errors import Denied
    from reussite.web.players import Players
    from reussite.web.storage import Store

    with database_errors():
        store = Store(database_url(db))
        try:
            store.migrate()
            yield Players(store)
        except Denied as e:
            raise CliError(e.sentence.format(**e.values)) from None
        finally:
            store.dispose()


@names_app.command("reported")
def names_reported(db: DbOption = None) -> None:
    """The names players reported, the most reported first: reports, distinct addresses,
    and whether the name is hidden."""
    with players_of(db) as p:
        rows = p.reported()
    if not rows:
        typer.echo("No name has been reported")
    for r in rows:
        typer.echo(f"{r.reports}\t{r.addresses}\t{'hidden' if r.hidden else 'shown'}\t"
                   f"{r.name}")


@names_app.command("hide")
def names_hide(name: Annotated[str, typer.Argument(help="The name, as players see it")],
               db: DbOption = None) -> None:
    """Hide a name (in any case): its players are shown by their anonymous names, and no
    player may choose it again."""
    with players_of(db) as p:
        held = p.hide(name)
    typer.echo(f"Hidden; {held} player(s) held it")


@names_app.command("show")
def names_show(name: Annotated[str, typer.Argument(help="A name hidden before")],
               db: DbOption = None) -> None:
    """Take a name out of the hidden ones: its players are shown by it again."""
    with players_of(db) as p:
        held = p.show(name)
    if held is None:
        raise CliError(f"The name {name!r} is not hidden")
    typer.echo(f"Shown again; {held} player(s) hold it")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (usage errors: 2, one line)."""
    try:
        app(args=argv, standalone_mode=False, prog_name="reussite")
    except CliError as e:
        print(f"reussite: error: {e}", file=sys.stderr)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        print("reussite: aborted", file=sys.stderr)
        return 1
    except TyperException as e:
        # Typer's usage errors (bad option, wrong type, missing argument): one line.
        if type(e).__name__ == "NoArgsIsHelpError":
            return 0
        message = e.format_message() if hasattr(e, "format_message") else str(e)
        print(f"reussite: error: {message}", file=sys.stderr)
        return int(getattr(e, "exit_code", 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())


# ---------------------------------------------------------------------------- the solver


def _check_game(game_id: str) -> str:
    try:
        get_game(game_id)
    except UnknownGameError as e:
        raise CliError(str(e)) from None
    return game_id


def _check_time_limit(seconds: float) -> float:
    if not seconds > 0:
        raise CliError(f"The time limit is a positive number of seconds: {seconds}")
    return seconds


@app.command()
def solve(game: Annotated[str, typer.Argument(help="A game id, e.g. klondike")],
          number: Annotated[int, typer.Option("--number", "-n", help="The deal number")],
          time_limit: Annotated[float, typer.Option("--time-limit", "-t",
                                                    help="Seconds of search at most")] = 10.0,
          clock: Annotated[str, typer.Option(
              "--clock", help="wall: seconds of wall time; cpu: of the search's CPU time")
          ] = "wall",
          as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False) -> None:
    """Solve one deal with every card known: won (with the moves), lost (proved) or unknown."""
    from reussite.solver.search import solve as full_solve

    _check_time_limit(time_limit)
    _set_clock(clock)
    pos = load_deal(game, number)
    result = full_solve(pos, time_limit=time_limit)
    if as_json:
        print(json.dumps({"game": game, "number": number, **result.to_json()}))
        return
    console = Console()
    console.print(f"{pos.rules.name}, deal {number}: [bold]{result.status}[/bold] "
                  f"({result.states} positions, {result.seconds:.2f} s)")
    for i, m in enumerate(result.moves, 1):
        console.print(f"{i:>4}. {m}")


def _set_clock(clock: str) -> None:
    """Budgets in seconds count wall or CPU time, here and in worker processes."""
    from reussite.solver.search import CLOCKS

    if clock not in CLOCKS:
        raise CliError(f"--clock is wall or cpu: {clock!r}")
    os.environ["REUSSITE_SOLVER_CLOCK"] = clock


def _parse_deals(text: str) -> range:
    from reussite.solver.batch import parse_range

    try:
        return parse_range(text)
    except ValueError as e:
        raise CliError(str(e)) from None


@app.command()
def winrate(game: Annotated[str, typer.Argument(help="A game id, e.g. klondike-draw-3")],
            deals: Annotated[str, typer.Option("--deals", "-d", help="Deal numbers A-B")],
            time_limit: Annotated[float, typer.Option(
                "--time-limit", "-t",
                help="Seconds per deal (full) or per move (honest)")] = 10.0,
            jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes")] = 1,
            player: Annotated[str, typer.Option(
                "--player", help="full: every card known; honest: only what a player sees (the "
                "game's own honest player)")] = "full",
            clock: Annotated[str, typer.Option(
                "--clock", help="wall: seconds of wall time; cpu: of each search's CPU time")
            ] = "wall",
            states: Annotated[int | None, typer.Option(
                "--states", help="Positions per deal (full) or per search of a sample "
                "(honest; then no time limit): the same result on any machine")] = None,
            samples: Annotated[int | None, typer.Option(
                "--samples", help="Honest player: samples of the hidden cards per move")] = None,
            as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False) -> None:
    """Win rate over many deals: won / lost / unknown and a 95 % Wilson interval."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from reussite.solver.batch import PLAYERS, Tally, decide_many

    _check_game(game)
    numbers = _parse_deals(deals)
    _check_time_limit(time_limit)
    if jobs < 1:
        raise CliError(f"--jobs is at least 1: {jobs}")
    if player not in PLAYERS:
        raise CliError(f"--player is one of {', '.join(PLAYERS)}: {player!r}")
    if states is not None and states < 1 or samples is not None and samples < 1:
        raise CliError("--states and --samples are at least 1")
    if player != "honest" and samples is not None:
        raise CliError("--samples is the honest player's: add --player honest")
    _set_clock(clock)
    tally = Tally(game, player, time_limit, states, samples)
    console = Console(stderr=True)
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=as_json) as progress:
        task = progress.add_task(f"{game} ({player})", total=len(numbers))
        for outcome in decide_many(game, numbers, time_limit, jobs, player, states, samples):
            tally.add(outcome)
            progress.update(task, advance=1, description=(
                f"{game} ({player}) won {tally.count('won')} lost {tally.count('lost')}"
                f" unknown {tally.count('unknown')}"))
    summary = tally.summary()
    if as_json:
        print(json.dumps(summary))
        return
    low, high = tally.interval()
    rate = tally.count("won") / max(1, len(tally.outcomes))
    Console().print(
        f"{CATALOGUE[game].name}, deals {deals}, {player} player, {tally.budget()}: "
        f"won {summary['won']}, lost {summary['lost']}, unknown {summary['unknown']}; "
        f"win rate {100 * rate:.1f} % "
        f"(95 % interval {100 * low:.1f}-{100 * high:.1f} %); "
        f"{summary['cpu_seconds_per_deal']:.1f} CPU s per deal, "
        f"{summary['cpu_seconds_per_move']:.3f} per move")


winnable_app = typer.Typer(help="The lists of deals proved winnable, shipped with the package.",
                           no_args_is_help=True)
app.add_typer(winnable_app, name="winnable")


@winnable_app.command("extend")
def winnable_extend(
        game: Annotated[str, typer.Argument(help="A game id")],
        count: Annotated[int, typer.Option("--count", "-c", help="Deals to try")] = 100,
        time_limit: Annotated[float, typer.Option("--time-limit", "-t",
                                                  help="Seconds per deal")] = 5.0,
        start: Annotated[int | None, typer.Option(
            "--start", help="First deal to try (default: after the last one tried)")] = None,
        states: Annotated[int | None, typer.Option(
            "--states", help="Positions per deal at most (as well as the time limit)")] = None,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes")] = 1) -> None:
    """Try COUNT more deals and add those the solver wins to the game's list."""
    from reussite.solver.batch import decide_many
    from reussite.solver.winnable_lists import extend_winnable, last_tried

    _check_game(game)
    _check_time_limit(time_limit)
    if count < 1 or jobs < 1 or states is not None and states < 1:
        raise CliError("--count, --jobs and --states are at least 1")
    first = last_tried(game) + 1 if start is None else start
    won = 0
    for outcome in decide_many(game, range(first, first + count), time_limit, jobs,
                               states=states):
        extend_winnable(game, [outcome.number] if outcome.status == "won" else [],
                        tried=outcome.number)
        won += outcome.status == "won"
    Console().print(f"{game}: {won} of {count} deals ({first}-{first + count - 1}) proved "
                    "winnable and added")


@winnable_app.command("show")
def winnable_show(game: Annotated[str, typer.Argument(help="A game id")]) -> None:
    """How many deals are proved winnable, and the first few."""
    from reussite.winnable import winnable_numbers

    _check_game(game)
    numbers = winnable_numbers(game)
    head = ", ".join(map(str, numbers[:10]))
    Console().print(f"{game}: {len(numbers)} winnable deals: {head}{' ...' if numbers else ''}")


daily_app = typer.Typer(help="The daily deals: one proven-winnable deal a day for each game.",
                        no_args_is_help=True)
app.add_typer(daily_app, name="daily")


@daily_app.command("prepare")
def daily_prepare(
        days: Annotated[int, typer.Option("--days", help="Days to prepare, today first")] = 7,
        time_limit: Annotated[float, typer.Option(
            "--time-limit", "-t", help="CPU seconds the solver spends on one attempt")] = 5.0,
        db: Annotated[str | None, typer.Option(
            help="A SQLAlchemy database URL (default: $REUSSITE_DATABASE_URL, else SQLite"
                 " in ./data/reussite.sqlite3)")] = None) -> None:
    """Prepare every daily game's deal of today and the next days (those ready are left as
    they are): each proved winnable by the solver, its line replayed to a win."""
    from reussite.web import daily
    from reussite.web.app import database_url
    from reussite.web.days import today
    from reussite.web.storage import Store

    if not 1 <= days <= 366:
        raise CliError(f"--days is 1 to 366: {days}")
    _check_time_limit(time_limit)

    def said(game: str, day: str, outcome: str) -> None:
        typer.echo(f"{day} {game}: {outcome}")

    try:
        with database_errors():
            store = Store(database_url(db))
            store.migrate()
            counts = daily.prepare_days(store, today(), days, seconds=time_limit, said=said)
            store.dispose()
    except ValueError as e:
        raise CliError(str(e)) from None
    typer.echo(f"{counts['prepared']} deals prepared, {counts['ready']} ready already, "
               f"{counts['failed']} not found")
