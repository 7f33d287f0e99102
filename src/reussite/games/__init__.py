"""The catalogue: every game, one short declaration each (see the modules of this package)."""

from reussite.games.astrocyte import ASTROCYTE
from reussite.games.athena import ATHENA, MINERVA
from reussite.games.forty_thieves import FORTY_THIEVES
from reussite.games.freecell import BAKERS_DOZEN, FREECELL
from reussite.games.golf import GOLF
from reussite.games.klondike import FREDS_SPIDER, KLONDIKE, KLONDIKE_DRAW_3
from reussite.games.leap_year import AULD_LANG_SYNE, LEAP_YEAR, QUADRENNIAL
from reussite.games.spider import SPIDER, SPIDER_1_SUIT, SPIDER_2_SUITS
from reussite.games.tripeaks import TRIPEAKS
from reussite.games.yukon import SCORPION, YUKON
from reussite.rules import GameRules

SEED_GAMES = ("astrocyte", "spider", "spider-2-suits", "spider-1-suit", "leap-year", "athena")
"""The games the source pages describe."""

CLASSICS = ("freecell", "bakers-dozen", "yukon", "scorpion", "forty-thieves", "golf",
            "tripeaks")
"""The most-played patience games of other sites; the rest of the catalogue is the source
pages' games' relatives."""

CATALOGUE: dict[str, GameRules] = {
    g.id: g
    for g in (ASTROCYTE, SPIDER, SPIDER_2_SUITS, SPIDER_1_SUIT, LEAP_YEAR, ATHENA, KLONDIKE,
              KLONDIKE_DRAW_3, FREDS_SPIDER, AULD_LANG_SYNE, QUADRENNIAL, MINERVA, FREECELL,
              BAKERS_DOZEN, YUKON, SCORPION, FORTY_THIEVES, GOLF, TRIPEAKS)
}


class UnknownGameError(ValueError):
    """A game id that is not in the catalogue."""


def get_game(game_id: str) -> GameRules:
    try:
        return CATALOGUE[game_id]
    except (KeyError, TypeError):
        known = ", ".join(CATALOGUE)
        raise UnknownGameError(f"Unknown game {game_id!r}; the games are: {known}") from None
