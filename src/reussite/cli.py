"""The command line, ``reussite`` (see shared/INTERFACES.md).

Errors in the user's input print one line on standard error and exit with status 2; no
traceback is ever shown for them.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

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
        check_deal_number(number)
    except (UnknownGameError, ValueError) as e:
        raise CliError(str(e)) from None
    return Position.deal(rules, number)


@app.command()
def games() -> None:
    """List the catalogue: id, name, packs, redeals, difficulty."""
    table = Table(title="Réussite — the catalogue")
    for col in ("id", "name", "packs", "redeals", "difficulty", "related"):
        table.add_column(col)
    for g in CATALOGUE.values():
        table.add_row(g.id, g.name, str(g.packs), g.redeals_label, g.difficulty,
                      ", ".join(g.related))
    Console().print(table)


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


@app.command()
def serve(host: Annotated[str, typer.Option(help="The address to listen on")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="The port to listen on", min=1,
                                            max=65535)] = 8000,
          db: Annotated[str | None, typer.Option(
              help="A SQLAlchemy database URL (default: $REUSSITE_DATABASE_URL, else SQLite"
                   " in ./data/reussite.sqlite3)")] = None,
          access_log: Annotated[bool, typer.Option(
              help="Log every request (off by default: the reverse proxy logs them, and a"
                   " log line costs a tenth of a request's time)")] = False) -> None:
    """Run the web site (migrations are applied at start-up)."""
    import uvicorn
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from reussite.web.app import create_app

    try:
        application = create_app(db)
    except ArgumentError as e:
        raise CliError(f"Not a database URL: {e}") from None
    except SQLAlchemyError as e:
        raise CliError(f"Cannot open the database: {type(e).__name__}:"
                       f" {str(e).splitlines()[0]}") from None
    uvicorn.run(application, host=host, port=port, log_level="info",
                proxy_headers=True, server_header=False, access_log=access_log)


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
