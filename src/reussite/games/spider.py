"""Spider in 4, 2 and 1 suits: 10 piles (6,6,6,6,5,5,5,5,5,5), suits leave by themselves."""

from reussite.rules import (
    Build,
    Foundations,
    FoundationTakes,
    GameRules,
    Space,
    Stock,
    StockAction,
    Tableau,
    Unit,
)

SPIDER_IDS = ("spider", "spider-2-suits", "spider-1-suit")


def spider(id: str, suits: str, names: dict[str, str], difficulty: str) -> GameRules:
    return GameRules(
        id=id,
        names=names,
        packs=2,
        suits=suits,
        tableau=Tableau(piles=("ddddd" "u",) * 4 + ("dddd" "u",) * 6,
                        build=Build.DOWN_ANY_SUIT, unit=Unit.SAME_SUIT_RUN, space=Space.ANY),
        foundations=Foundations(count=8, takes=FoundationTakes.COMPLETE_SUIT, auto_collect=True),
        stock=Stock(action=StockAction.DEAL_TO_TABLEAU, not_while_empty_pile=True),
        difficulty=difficulty,
        related=tuple(g for g in SPIDER_IDS if g != id) + ("freds-spider", "astrocyte"),
        spider_score=True,
        notes=("A completed suit leaves as part of the move that completed it, a deal from the"
               " stock included; taking that move back puts the suit back.",
               "Scoring: every move counts -1, a deal from the stock included.",),
    )


SPIDER = spider("spider", "SHDC",
                {"en": "Spider (4 suits)", "fr": "Spider (4 couleurs)", "ru": "Паук (4 масти)"},
                "difficult")
SPIDER_2_SUITS = spider("spider-2-suits", "SH",
                        {"en": "Spider (2 suits)", "fr": "Spider (2 couleurs)",
                         "ru": "Паук (2 масти)"}, "medium")
SPIDER_1_SUIT = spider("spider-1-suit", "S",
                       {"en": "Spider (1 suit)", "fr": "Spider (1 couleur)",
                        "ru": "Паук (1 масть)"}, "easy")
