"""The JSON shapes of the HTTP API (pydantic): requests are checked against them, and the
OpenAPI document at ``/openapi.json`` is generated from them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    field_validator,
    model_validator,
)

from reussite.deals import MAX_DEAL_NUMBER
from reussite.games import CATALOGUE
from reussite.solver.hints import Reason
from reussite.web.days import parse_day, today

GAME_IDS: list[Any] = list(CATALOGUE)

PILE_PATTERN = r"^(stock|waste|(tableau|foundation|cell|reserve):[0-9]{1,2})$"
MAX_COUNT = 104
"""No pile ever holds more cards than two packs."""
MAX_VERSION = 2**31 - 1


def whole_number(value: Any) -> Any:
    """JSON's whole numbers: 7 and 7.0, but not true, "7" or 7.5."""
    if isinstance(value, bool | str):
        raise ValueError("Input should be a whole number")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(whole_number)]
PileId = Annotated[str, Field(pattern=PILE_PATTERN, max_length=16,
                              examples=["tableau:3", "cell:0", "foundation:1"])]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PileMove(Strict):
    """Move the top ``count`` cards of a pile onto another pile."""

    type: Literal["move"]
    from_: PileId = Field(alias="from")
    to: PileId
    count: WholeNumber = Field(default=1, ge=1, le=MAX_COUNT)


class StockMove(Strict):
    """A click on the stock: deal, draw, or turn the waste over, as the game's rules say."""

    type: Literal["stock"]


MoveModel = Annotated[PileMove | StockMove, Field(discriminator="type")]


class NewGame(Strict):
    game: str = Field(max_length=32, examples=["astrocyte"],
                      json_schema_extra={"enum": GAME_IDS})
    number: WholeNumber | None = Field(default=None, ge=0, le=MAX_DEAL_NUMBER,
                               description="The deal number; a random one when absent")
    winnable: bool = Field(default=False, strict=True,
                           description="Pick a deal proved winnable (ignored with a number)")
    daily: StrictBool | Annotated[str, Field(max_length=10)] | None = Field(
        default=None, examples=[True, "2026-01-31"],
        description="The daily deal: true for today's (ranked the first time), or a past "
                    "day's, YYYY-MM-DD (practice, never ranked); not with number or winnable")

    @field_validator("daily")
    @classmethod
    def _day(cls, value: bool | str | None) -> bool | str | None:
        if isinstance(value, str):
            return parse_day(value)
        return value

    @model_validator(mode="after")
    def _alone(self) -> NewGame:
        if self.daily not in (None, False) and (self.number is not None or self.winnable):
            raise ValueError("a daily deal is chosen by its day, without number or winnable")
        return self

    def day(self) -> str | None:
        """The day of the daily deal asked for (today's for ``true``), or None."""
        if self.daily is True:
            return today()
        return self.daily or None


class PlayMove(Strict):
    move: MoveModel
    version: WholeNumber = Field(ge=0, le=MAX_VERSION,
                                 description="The version of the view the player acts on")


class VersionOnly(Strict):
    version: WholeNumber = Field(ge=0, le=MAX_VERSION,
                                 description="The version of the view the player acts on")


class Error(BaseModel):
    detail: str = Field(description="A sentence saying what went wrong")


class CardEntry(BaseModel):
    card: str | None = Field(description="The card's code, or null when it lies face down")
    up: bool


class Event(BaseModel):
    """One step of the last action: ``move`` (from, to, count), ``flip`` (pile), ``redeal``."""

    type: Literal["move", "flip", "redeal"]
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    count: int | None = None
    pile: str | None = None


class Names(BaseModel):
    en: str
    fr: str
    ru: str


class Scores(BaseModel):
    standard: int = Field(description="Standard scoring (never below 0)")
    vegas: int = Field(description="Vegas scoring: -52 for the deal, +5 a card on a foundation")
NUMBER_SHOWN = ("The deal number; null while a deal the site chose is in play (shown once "
                "the game is over)")
ENDED = ("How the game ended the first time: won, lost (stuck at the clear end), abandoned "
         "(another game of its kind dealt), resigned (given up); null while in play")
ORIGIN = ("How the deal was chosen: random, winnable (the site's proven deals), number, "
          "daily (today's daily deal), practice (a past day's daily deal)")
Origin = Literal["random", "winnable", "number", "daily", "practice"]


class GameView(BaseModel):
    id: str
    game: str
    number: int | None = Field(description=NUMBER_SHOWN)
    origin: Origin = Field(description=ORIGIN)
    ended: Literal["won", "lost", "abandoned", "resigned"] | None = Field(description=ENDED)
    daily: str | None = Field(description="The day (YYYY-MM-DD) of a daily or practice deal; "
                                          "its number stays null until that day is over")
    ranked: bool = Field(description="The player's first game of today's daily deal: its win "
                                     "enters the leaderboard")
    version: int
    status: Literal["playing", "won", "lost"]
    piles: dict[str, list[CardEntry]]
    legal_moves: list[PileMove | StockMove]
    can_undo: bool
    can_redo: bool
    moves: int
    score: int | None = Field(description="Spider's score (500, -1 a move, +100 a suit); null"
                                          " in the other games")
    scores: Scores | None = Field(description="The Klondike family's standard and Vegas scores"
                                              " of the moves played; null in the other games")
    redeals_left: int | None
    elapsed_seconds: float = Field(description="The game's time up to its last change")
    idle_seconds: float = Field(
        description="The time the game's next change adds, as of this answer: the spell since"
                    " its last change, at most idle_cap_seconds; 0 while paused or over")
    idle_cap_seconds: float = Field(description="The most a spell between two changes adds")
    paused: bool = Field(description="The game's clock is stopped (pause / resume)")
    finish: PileMove | StockMove | None = Field(
        description="When nothing is left to decide and moves to the foundations (with stock"
                    " clicks) win the game: the next move of that line; else null")
    used_undo: bool
    used_hint: bool
    names: Names
    events: list[Event]
    draw: int = Field(description="Cards a stock click turns onto the waste; 0: no waste")
    has_stock: bool = Field(description="The game leaves cards in a stock at the deal; false:"
                            " every card is dealt (the 'stock' pile is always empty)")
    build: str | None = Field(description="How the tableau builds, e.g. 'down, alternating "
                                          "colours'; null when the game has no tableau")
    covers: list[list[int]] | None = Field(
        default=None, description="For each tableau pile, the numbers of the tableau piles"
        " covering it (TriPeaks' peaks, docs/interfaces.md); null where no pile covers another")


class GameSummary(BaseModel):
    id: str
    game: str
    number: int | None = Field(description=NUMBER_SHOWN)
    status: Literal["playing", "won", "lost"]
    ended: Literal["won", "lost", "abandoned", "resigned"] | None = Field(description=ENDED)
    moves: int
    daily: str | None = Field(description="The day of a daily or practice deal")
    updated_at: str = Field(description="ISO 8601, UTC")


class CatalogueEntry(BaseModel):
    id: str
    name: str
    names: Names
    decks: int
    difficulty: str
    redeals: int | None = Field(description="Redeals allowed; null: unlimited")
    related: list[str]
    winnable_deals: int = Field(description="How many deals are proved winnable")


class Hint(BaseModel):
    move: PileMove | StockMove | None
    text: str
    reason: Reason | None = Field(
        description="Why there is no move (null with a move, or when no move is legal): "
        "undo_or_deal: nothing useful is left but undoing or clicking the stock; undo: "
        "nothing useful is left but undoing; cannot_win: the game cannot be won any more "
        "from here")


class GameStats(BaseModel):
    game: str
    origin: Origin = Field(description=ORIGIN)
    name: str
    played: int
    won: int
    lost: int = Field(description="Games ended lost: stuck at the clear end, or abandoned")
    win_percent: float | None
    current_streak: int
    best_streak: int
    best_time_seconds: float | None
    fewest_moves: int | None
    wins_with_undo: int
    wins_with_hint: int
    wins_unaided: int


class HistoryEntry(BaseModel):
    id: str
    game: str
    names: Names
    number: int | None = Field(description="The deal number of a game that is over; null for"
                                            " an abandoned game (it may still be resumed)")
    result: Literal["won", "lost", "abandoned"]
    moves: int = Field(description="Moves played (for a win: the moves of the win)")
    seconds: float = Field(description="The game's time (for a win: the time of the win)")
    used_undo: bool
    used_hint: bool
    ended_at: str = Field(description="When it was won, or last played: ISO 8601, UTC")


class StatsReset(BaseModel):
    deleted: int = Field(description="How many games were forgotten")


class JobsHealth(BaseModel):
    kind: Literal["local", "redis"] = Field(description="local (a pool of this site's own "
                                            "processes) or redis (reussite worker processes)")
    queued: int = Field(description="analyses waiting for a worker")
    workers: int | None = Field(description="workers seen (null: the queue does not answer)")


class Health(BaseModel):
    status: Literal["ok"]
    jobs: JobsHealth
    database: str = Field(description="sqlite or postgresql")
    rate_limit: Literal["redis", "memory"] = Field(
        description="where the rate limit's counts are kept: redis (shared by every process)"
                    " or memory (this process's own: the default, and the fallback when Redis"
                    " does not answer)")


class DailyRanked(BaseModel):
    status: Literal["playing", "won", "lost"]
    won: bool
    moves: int | None = Field(description="Moves played to the win, undone ones included")
    seconds: float | None = Field(description="The game's time of the win")


class DailyGame(BaseModel):
    game: str
    names: Names
    ready: bool = Field(description="Today's deal is prepared (else it is asked for when "
                                    "dealt, and comes a few seconds later)")
    played: bool = Field(description="The caller dealt today's deal")
    won: bool = Field(description="The caller won today's deal (in any of its games of it)")
    in_play: bool = Field(description="A game of today's deal is still in play")
    ranked: DailyRanked | None = Field(description="The caller's ranked game: the first")


class Streak(BaseModel):
    current: int = Field(description="Days in a row up to today (or yesterday) with a win")
    best: int


class DailyStreaks(Streak):
    games: dict[str, Streak] = Field(description="Per daily game")


class Daily(BaseModel):
    day: str = Field(description="Today (UTC), YYYY-MM-DD")
    seconds_left: int = Field(description="Seconds until the next day's deals")
    games: list[DailyGame]
    streaks: DailyStreaks = Field(description="Days in a row with a daily win (a win of the "
                                              "day's deal on its day)")


class BoardEntry(BaseModel):
    rank: int = Field(description="Ties (the same moves and whole seconds) share a rank")
    name: str
    moves: int = Field(description="Moves played to the win, undone ones included")
    seconds: float = Field(description="The game's time of the win")
    used_undo: bool
    used_hint: bool
    you: bool = Field(description="This entry is the caller's")
    chosen: bool = Field(description="The name is one the player chose (not an anonymous one):"
                                     " it can be reported (POST /api/names/report)")


class Board(BaseModel):
    entries: list[BoardEntry] = Field(description="The top 100, best first")
    you: BoardEntry | None = Field(description="The caller's entry, wherever it ranks")
    count: int = Field(description="Entries in all")


class Leaderboard(BaseModel):
    game: str
    day: str
    over: bool = Field(description="The day is over (its deal is published)")
    all: Board = Field(description="Every ranked win: fewest moves, then shortest time, then "
                                   "earliest win")
    clean: Board = Field(description="The ranked wins with no undo and no hint")
    number: int | None = Field(description="The day's deal number, once the day is over")
    line: list[PileMove | StockMove] | None = Field(
        description="The solver's winning line, once the day is over")
class SetName(Strict):
    name: str | None = Field(description="The display name (at most 24 characters once "
                                          "normalised), or null to have none")


class NameReport(Strict):
    name: str = Field(description="A name as a player shows it")


class SignIn(Strict):
    code: str = Field(description="The code made on the other browser (12 letters and digits;"
                                  " spaces and dashes ignored)")


class Me(BaseModel):
    name: str | None = Field(description="The name the player chose (null: none)")
    display_name: str = Field(description="What other players see: the name, or the "
                                          "anonymous name when there is none or it was hidden")
    name_hidden: bool = Field(description="The site hid the name: choose another")


class CodeMade(BaseModel):
    code: str = Field(description="Twelve letters and digits in groups of four")
    expires_at: str = Field(description="When it stops working (ISO 8601, UTC)")
    seconds: int = Field(description="Seconds it works for from now")


class BrowserEntry(BaseModel):
    id: str
    description: str = Field(description='"Chrome on Linux", in the player\'s language')
    agent: str
    system: str
    created_at: str
    last_seen_at: str
    this: bool = Field(description="The browser asking")


class Forgotten(BaseModel):
    deleted: int = Field(description="Games deleted")


class Reported(BaseModel):
    reported: bool
