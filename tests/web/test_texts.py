"""The rules texts of the game pages: present for every game in every language, safe HTML,
the sections the game needs, real translations, and the numbers and rules of the declaration."""

from __future__ import annotations

import doctest
import re
from html.parser import HTMLParser

import pytest
from jinja2 import TemplateRuntimeError

import reussite.web.texts
from reussite.games import CATALOGUE, UnknownGameError, get_game
from reussite.rules import (
    Build,
    DealNumbers,
    FoundationTakes,
    GameRules,
    Space,
    StockAction,
    Unit,
    WasteTakes,
)
from reussite.web.texts import (
    LANGUAGES,
    SECTION_TITLES,
    _environment,
    _source,
    has_text,
    rules_html,
    sections_for,
)

ALLOWED_TAGS = {"h2", "p", "ul", "ol", "li", "strong", "em"}
CASES = [(game_id, lang) for game_id in CATALOGUE for lang in LANGUAGES]
NBSP = "\u00a0\u202f"


class Fragment(HTMLParser):
    """Parses a fragment, checking its tags, and splits its text into sections by ``<h2>``."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.titles: list[str] = []
        self.texts: list[str] = [""]
        self.feed(html)
        self.close()
        if self.stack:
            self.problems.append(f"unclosed tags: {self.stack}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problems.append(f"tag <{tag}> is not allowed")
        if attrs:
            self.problems.append(f"<{tag}> has attributes {attrs}")
        if tag == "h2":
            if self.stack:
                self.problems.append(f"<h2> inside {self.stack}")
            self.titles.append("")
            self.texts.append("")
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.problems.append(f"self-closing <{tag}/> is not allowed")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> does not close {self.stack[-1:] or 'anything'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.stack:
            if data.strip():
                self.problems.append(f"text outside any element: {data.strip()[:40]!r}")
            return
        if self.stack[-1] == "h2":
            self.titles[-1] += data
        else:
            self.texts[-1] += data

    def handle_comment(self, data: str) -> None:
        self.problems.append("comments are not allowed")

    @property
    def text(self) -> str:
        return " ".join(self.titles + self.texts)


def parse(game_id: str, lang: str) -> Fragment:
    return Fragment(rules_html(game_id, lang))


def section(game_id: str, lang: str, key: str) -> str:
    """The text of one section of a game's rules (``intro``: the text before the first title)."""
    frag = parse(game_id, lang)
    if key == "intro":
        return frag.texts[0]
    keys = sections_for(get_game(game_id))
    return frag.texts[1 + keys.index(key)]


def has_number(text: str, n: int) -> bool:
    return re.search(rf"(?<![\d.,]){n}(?![\d.,]\d)", text) is not None


# ------------------------------------------------------------------------------ presence, loader


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_every_game_has_its_rules_in_every_language(game_id: str, lang: str) -> None:
    assert has_text(game_id, lang)
    assert len(rules_html(game_id, lang)) > 1000


def test_a_missing_language_falls_back_to_english() -> None:
    assert not has_text("athena", "de")
    assert rules_html("athena", "de") == rules_html("athena", "en")
    assert rules_html("athena", "../athena.en") == rules_html("athena", "en")


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(UnknownGameError, match="Unknown game 'chess'.*astrocyte"):
        rules_html("chess", "en")


# ---------------------------------------------------------------------------- families of variants

FAMILIES = {"spider": ["spider", "spider-2-suits", "spider-1-suit"],
            "klondike": ["klondike", "klondike-draw-3"],
            "leap-year": ["leap-year", "quadrennial"]}
EXTENDS = re.compile(r'\{% extends "families/([a-z-]+)\.([a-z]+)\.html" %\}')


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", list(FAMILIES))
def test_variants_share_their_family_text_and_write_only_their_differences(
    family: str, lang: str
) -> None:
    """Each variant's file extends the family text in its own language and holds no section
    of its own: a rule written in the family text is written once for every variant."""
    for game_id in FAMILIES[family]:
        own = _source(f"{game_id}.{lang}.html")
        assert own is not None
        match = EXTENDS.match(own)
        assert match is not None and match.groups() == (family, lang), own[:80]
        assert "<h2>" not in own
        # at least 40 % of the page is the family's (Quadrennial differs from Leap Year in
        # its stock and so in half its words; Spider's and Klondike's variants in a quarter)
        assert len(own) < 0.6 * len(rules_html(game_id, lang))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_family_text_alone_is_refused_its_variant_parts_are_required(
    family: str, lang: str
) -> None:
    with pytest.raises(TemplateRuntimeError, match="Required block"):
        _environment().get_template(f"families/{family}.{lang}.html").render()


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_no_template_syntax_reaches_a_page(game_id: str, lang: str) -> None:
    html = rules_html(game_id, lang)
    assert not re.search(r"\{[{%#]|[}%#]\}", html)


def test_a_family_text_is_not_a_game() -> None:
    with pytest.raises(UnknownGameError):
        rules_html("families/spider", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_klondike_variants_say_their_own_draw(lang: str) -> None:
    """The draw-3 page has its own intro, stock paragraph and one more tip; the rest is the
    family's, word for word."""
    one, three = (parse(g, lang) for g in ("klondike", "klondike-draw-3"))
    assert one.titles == three.titles
    differing = [i for i, (a, b) in enumerate(zip(one.texts, three.texts, strict=True))
                 if a != b]
    keys = ["intro", *sections_for(get_game("klondike"))]
    assert [keys[i] for i in differing] == ["intro", "stock_waste", "tips"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leap_year_and_quadrennial_differ_only_where_the_gathering_changes_the_rules(
    lang: str,
) -> None:
    """Quadrennial is Leap Year with two gatherings of the reserves: its page has its own
    intro, stock size, empty-reserve rule, stock paragraphs and first tip; the foundations and
    winning sections are the family's, word for word."""
    leap, quad = (parse(g, lang) for g in ("leap-year", "quadrennial"))
    assert leap.titles == quad.titles
    differing = [i for i, (a, b) in enumerate(zip(leap.texts, quad.texts, strict=True))
                 if a != b]
    keys = ["intro", *sections_for(get_game("leap-year"))]
    assert [keys[i] for i in differing] == ["intro", "layout", "reserve", "stock", "tips"]


# ------------------------------------------------------------------------------ well-formed HTML


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_fragment_is_well_formed_html_without_scripts_styles_or_attributes(
    game_id: str, lang: str
) -> None:
    html = rules_html(game_id, lang)
    assert Fragment(html).problems == []
    lowered = html.lower()
    for forbidden in ("<script", "<style", "<html", "<body", " on", "style=", "javascript:"):
        if forbidden == " on":
            assert re.search(r"<[^>]*\son\w+\s*=", lowered) is None
        else:
            assert forbidden not in lowered


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_fragment_has_the_sections_the_game_needs(game_id: str, lang: str) -> None:
    rules = CATALOGUE[game_id]
    frag = parse(game_id, lang)
    expected = [SECTION_TITLES[key][lang] for key in sections_for(rules)]
    assert [t.strip() for t in frag.titles] == expected
    assert all(len(text.split()) >= 8 for text in frag.texts), "an empty or near-empty section"


def test_cells_and_reserve_sections_only_where_the_game_has_them() -> None:
    assert "cells" in sections_for(get_game("astrocyte"))
    assert "cells" not in sections_for(get_game("spider"))
    assert "reserve" in sections_for(get_game("minerva"))
    assert "reserve" not in sections_for(get_game("athena"))
    assert "tableau" not in sections_for(get_game("leap-year"))


# ------------------------------------------------------------------------------ languages


CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
LATIN = re.compile(r"[a-z]", re.IGNORECASE)


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_french_and_russian_texts_are_translations_not_the_english_text(game_id: str) -> None:
    en, fr, ru = (parse(game_id, lang).text for lang in LANGUAGES)
    assert fr != en and ru != en
    assert not CYRILLIC.search(en) and not CYRILLIC.search(fr)
    assert re.search(r"[éèàçêù]", fr) and re.search(r"\b(les|des|une)\b", fr)
    assert not re.search(r"\b(the|and|of)\b", fr)
    assert len(CYRILLIC.findall(ru)) > 10 * len(LATIN.findall(ru))
    en_sentences = {s.strip() for s in en.split(".") if len(s.strip()) > 20}
    assert not en_sentences & {s.strip() for s in fr.split(".")}


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_french_typography(game_id: str) -> None:
    """Non-breaking spaces before : ; ! ? % and inside « », typographic apostrophes."""
    text = parse(game_id, "fr").text
    assert not re.search(r"[ \n\t][:;!?%»]", text)
    assert not re.search(r"«[ \n\t]", text)
    assert not re.search(r"\w[:;!?%]", text), "a space is missing before a high punctuation mark"
    assert "'" not in text and '"' not in text


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_russian_typography(game_id: str) -> None:
    text = parse(game_id, "ru").text
    assert "'" not in text and '"' not in text and "“" not in text
    assert not re.search(r"\s-\s", text), "a hyphen used as a dash"


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_introduction_names_the_game_and_its_difficulty(game_id: str, lang: str) -> None:
    rules = CATALOGUE[game_id]
    intro = section(game_id, lang, "intro").replace("’", "'")
    assert rules.names[lang].split(" (")[0] in intro
    words = {
        "en": {"easy": "easy", "medium": "medium difficulty", "difficult": "difficult"},
        "fr": {"easy": "facile", "medium": "difficulté moyenne", "difficult": "difficile"},
        "ru": {"easy": "лёгк", "medium": "средней сложности", "difficult": "трудн"},
    }
    assert words[lang][rules.difficulty] in intro


# ------------------------------------------------------------------------------ numbers


def key_numbers(rules: GameRules) -> set[int]:
    """The counts a player needs, read from the declaration: cards, piles, deal, stock."""
    numbers = {rules.cards}
    if rules.foundations.count:
        numbers.add(rules.foundations.count)
    dealt = 0
    if rules.tableau is not None:
        numbers.add(len(rules.tableau.piles))
        dealt += sum(map(len, rules.tableau.piles))
        numbers.add(dealt)
    if rules.cells:
        numbers.add(rules.cells)
    if rules.reserve is not None:
        numbers.add(len(rules.reserve.piles))
        reserve_cards = sum(map(len, rules.reserve.piles))
        numbers.add(reserve_cards)
        dealt += reserve_cards
    if rules.foundations.start_with_aces:
        dealt += rules.foundations.count
    if rules.stock.action is not StockAction.NONE:  # a game without a stock deals every card
        numbers.add(rules.cards - dealt)
    return numbers


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_text_gives_the_declared_numbers_in_digits(game_id: str, lang: str) -> None:
    text = parse(game_id, lang).text
    missing = {n for n in key_numbers(CATALOGUE[game_id]) if not has_number(text, n)}
    assert missing == set()


def test_key_numbers_are_the_declared_ones() -> None:
    assert key_numbers(get_game("spider")) == {104, 8, 10, 54, 50}
    assert key_numbers(get_game("leap-year")) == {208, 16, 8, 184}
    assert key_numbers(get_game("minerva")) == {52, 4, 7, 28, 1, 11, 13}
    assert key_numbers(get_game("freecell")) == {52, 4, 8}
    assert key_numbers(get_game("scorpion")) == {52, 4, 7, 49, 3}
    assert key_numbers(get_game("golf")) == {52, 7, 35, 17}
    assert key_numbers(get_game("tripeaks")) == {52, 28, 24}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", ["spider", "spider-2-suits", "spider-1-suit"])
def test_spider_deals_four_piles_of_6_and_six_of_5_and_names_its_deck(
    game_id: str, lang: str
) -> None:
    rules = CATALOGUE[game_id]
    assert [len(p) for p in rules.tableau.piles] == [6] * 4 + [5] * 6  # type: ignore[union-attr]
    layout = section(game_id, lang, "layout")
    assert re.search(r"\b4\b.*\b6\b.*\b6\b.*\b5\b", layout, re.DOTALL)
    intro = section(game_id, lang, "intro")
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for suit, symbol in symbols.items():
        assert (symbol in intro) == (suit in rules.suits), (suit, intro)
    assert has_number(intro, len(rules.suits)) and has_number(intro, 104)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_spider_variants_say_their_own_deck(lang: str) -> None:
    intros = {g: section(g, lang, "intro") for g in ("spider", "spider-2-suits", "spider-1-suit")}
    assert len(set(intros.values())) == 3
    assert has_number(intros["spider-2-suits"], 52)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_the_pages_say_about_winning_chances(lang: str) -> None:
    """Astrocyte: about 30 % of deals won; Leap Year: wins are rare; Athena: a patient player
    wins more games than he loses."""
    assert re.search(r"30\s?%", section("astrocyte", lang, "intro"))
    rare = {"en": "rare", "fr": "rare", "ru": "редк"}[lang]
    assert rare in section("leap-year", lang, "intro")
    patient = {"en": "patient", "fr": "patient", "ru": "терпелив"}[lang]
    assert patient in section("athena", lang, "intro")


# ------------------------------------------------------------------------------ rules in words

WORDS: dict[str, dict[str, str]] = {
    # how many cards a click turns onto the waste
    "draw 1": {"en": r"\bone card\b", "fr": r"\bune carte\b", "ru": r"\bпо одной\b"},
    "draw 3": {"en": r"\bthree cards\b", "fr": r"\btrois cartes\b", "ru": r"\bтри карты\b"},
    # how many redeals
    "redeals 0": {"en": r"\bno redeal\b", "fr": r"\baucune (nouvelle )?donne\b",
                  "ru": r"\bне пересда"},
    "redeals 1": {"en": r"\bonly once\b", "fr": r"\bune seule fois\b", "ru": r"\bодин раз\b"},
    "redeals 2": {"en": r"\btwice\b", "fr": r"\bdeux fois\b", "ru": r"\bдважды\b"},
    "redeals None": {"en": r"\bunlimited\b", "fr": r"\bautant de fois\b",
                     "ru": r"\bсколько угодно\b"},
    # foundations
    "never back": {"en": r"\bnever come back\b", "fr": r"\bne reviennent jamais\b",
                   "ru": r"\bникогда не возвраща"},
    "comes back": {"en": r"\bmay come back\b", "fr": r"\bpeut revenir\b",
                   "ru": r"\bможет вернуться\b"},
    "between": {"en": r"\banother foundation\b", "fr": r"\bune autre fondation\b",
                "ru": r"\bдругую базовую стопку\b"},
    "any suit": {"en": r"\bregardless of suit\b", "fr": r"\bquelle que soit la couleur\b",
                 "ru": r"\bне обращая внимания на масть\b"},
    "in suit": {"en": r"\bin suit\b", "fr": r"\bdans la couleur\b", "ru": r"\bв масть\b"},
    "whole suit": {"en": r"\b13 cards of one suit\b", "fr": r"\b13 cartes d.une même couleur\b",
                   "ru": r"\b13 карт одной масти\b"},
    # tableau
    "alternating": {"en": r"\balternating colours\b", "fr": r"\ben alternant les couleurs\b",
                    "ru": r"\bчередуя цвета\b"},
    "king space": {"en": r"\bonly be filled by a King\b", "fr": r"\bque par un Roi\b",
                   "ru": r"\bтолько король\b"},
    "any space": {"en": r"\bempty pile takes any card\b",
                  "fr": r"\bpile vide accepte n.importe quelle carte\b",
                  "ru": r"\bпустую стопку можно положить любую карту\b"},
    # stock
    "not while empty": {"en": r"\brefuses to deal while\b", "fr": r"\btant qu.il reste une pile",
                        "ru": r"\bнельзя, пока\b"},
    "stays empty": {"en": r"\bstays empty\b", "fr": r"\breste vide\b",
                    "ru": r"\bостаётся пустой\b"},
    "no stock": {"en": r"\bhas no stock\b", "fr": r"\bn.a pas de pioche\b",
                 "ru": r"\bколоды нет\b"},
    # tableau: what moves, what fills a space, the deal
    "one at a time": {"en": r"\bone card at a time\b", "fr": r"\bune (seule )?carte à la fois\b",
                      "ru": r"\bпо одной карте\b"},
    "any face-up": {"en": r"\bany face-up card\b", "fr": r"\bn.importe quelle carte visible\b",
                    "ru": r"\bлюбую открытую карту\b"},
    "free places": {"en": r"\bfree cells and empty piles\b",
                    "fr": r"\bcellules libres et (les |des )?piles vides\b",
                    "ru": r"\bсвободн\w* ячейк\w* и пуст\w* стопк"},
    "no space": {"en": r"\bemptied pile stays empty\b", "fr": r"\bpile vidée reste vide\b",
                 "ru": r"\bопустевшая стопка остаётся пустой\b"},
    "kings to bottom": {"en": r"\bKings\b[^.]*\bto the bottom\b", "fr": r"\bRois\b[^.]*\bau fond\b",
                        "ru": r"\bкорол\w*\b[^.]*\bвниз\b"},
    "microsoft": {"en": r"\bWindows FreeCell\b", "fr": r"\bFreeCell de Windows\b",
                  "ru": r"\bиз Windows\b"},
    "no build": {"en": r"\bnothing is ever built\b", "fr": r"\bne construit jamais\b",
                 "ru": r"\bникогда не кладут\b"},
    # the waste, where it takes tableau cards; winning without foundations
    "up or down": {"en": r"\bone rank above or below\b",
                   "fr": r"\bd.un rang au-dessus ou au-dessous\b",
                   "ru": r"\bна одно значение старше или младше\b"},
    "first to waste": {"en": r"\bturned onto the waste\b", "fr": r"\bretournée sur la défausse\b",
                       "ru": r"\bоткрывают в сброс\b"},
    "no wrap": {"en": r"\bdo not wrap\b", "fr": r"\bne s.enchaînent pas\b",
                "ru": r"\bне замыка"},
    "wrap": {"en": r"\bKing goes on an Ace and an Ace on a King\b",
             "fr": r"\bRoi va sur un As et un As sur un Roi\b",
             "ru": r"\bкороль ложится на туза и туз на короля\b"},
    # piles covered by others (Tableau.covers)
    "covered": {"en": r"\bcovered by another card cannot move\b",
                "fr": r"\bcouverte par une autre carte ne peut pas bouger\b",
                "ru": r"\bзакрытую другой картой, переносить нельзя\b"},
    "uncovered": {"en": r"\bturns face up at once\b", "fr": r"\bse retourne aussitôt\b",
                  "ru": r"\bсразу открывается\b"},
    "clear win": {"en": r"\bpiles are empty\b", "fr": r"\bpiles\b[^.]*\bsont vides\b",
                  "ru": r"\bстоп\w* табло пусты\b"},
}


def rule_phrases(rules: GameRules) -> list[tuple[str, str]]:
    """(section, phrase key) pairs that the declaration requires the text to say."""
    st, fnd = rules.stock, rules.foundations
    stock = "stock_waste" if rules.has_waste else "stock"
    needs = [(stock, "no stock" if st.action is StockAction.NONE else f"redeals {st.redeals}")]
    if rules.has_waste:
        needs.append((stock, f"draw {st.draw}"))
    if st.not_while_empty_pile:
        needs.append((stock, "not while empty"))
    if st.skip_empty_piles:
        needs.append(("reserve", "stays empty"))
    if st.waste_takes is WasteTakes.UP_OR_DOWN:
        needs += [(stock, "up or down"), (stock, "no wrap")]
    elif st.waste_takes is WasteTakes.UP_OR_DOWN_WRAP:
        needs += [(stock, "up or down"), (stock, "wrap")]
    if st.first_to_waste:
        needs.append(("layout", "first to waste"))
    takes = {FoundationTakes.UP_ANY_SUIT: "any suit", FoundationTakes.UP_IN_SUIT: "in suit",
             FoundationTakes.COMPLETE_SUIT: "whole suit"}
    if not fnd.count:
        needs.append(("winning", "clear win"))
    elif fnd.gives_back:
        needs.append(("foundations", "comes back"))
    elif fnd.between:
        needs.append(("foundations", "between"))
    else:
        needs.append(("foundations", "never back"))
    if fnd.count:
        needs.append(("foundations", takes[fnd.takes]))
    if rules.tableau is not None:
        tab = rules.tableau
        needs.append(("tableau", SPACES[tab.space]))
        builds = {Build.DOWN_ANY_SUIT: "any suit", Build.DOWN_SAME_SUIT: "in suit",
                  Build.DOWN_ALTERNATE_COLOURS: "alternating", Build.NONE: "no build"}
        needs.append(("tableau", builds[tab.build]))
        if tab.covers:
            needs += [("tableau", "covered"), ("tableau", "uncovered")]
        units = {Unit.SINGLE_CARD: "one at a time", Unit.ANY_FACE_UP: "any face-up"}
        if tab.unit in units:
            needs.append(("tableau", units[tab.unit]))
        if tab.free_places_limit:
            needs.append(("tableau", "free places"))
        if tab.kings_to_bottom:
            needs.append(("layout", "kings to bottom"))
    if rules.numbers is DealNumbers.MICROSOFT:
        needs.append(("layout", "microsoft"))
    return needs


SPACES = {Space.KING: "king space", Space.ANY: "any space", Space.NONE: "no space"}


def contradicting_phrases(rules: GameRules) -> list[tuple[str, str]]:
    """(section, phrase key) pairs that would state a rule the declaration does not have."""
    st, fnd = rules.stock, rules.foundations
    stock = "stock_waste" if rules.has_waste else "stock"
    wrong = [("foundations", "never back" if fnd.gives_back else "comes back")] if fnd.count \
        else []
    if rules.has_waste:
        wrong.append((stock, "draw 3" if st.draw == 1 else "draw 1"))
    else:
        if not st.not_while_empty_pile:
            wrong.append((stock, "not while empty"))
        if rules.reserve is not None and not st.skip_empty_piles:
            wrong.append(("reserve", "stays empty"))
    if st.action is not StockAction.NONE:
        wrong.append((stock, "no stock"))
    if rules.tableau is not None:
        tab = rules.tableau
        wrong += [("tableau", words) for space, words in SPACES.items() if space is not tab.space]
        if tab.unit is not Unit.SINGLE_CARD:
            wrong.append(("tableau", "one at a time"))
        if not tab.free_places_limit:
            wrong.append(("tableau", "free places"))
        if not tab.kings_to_bottom:
            wrong.append(("layout", "kings to bottom"))
    return wrong


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_text_does_not_state_rules_the_game_lacks(game_id: str, lang: str) -> None:
    """Auld Lang Syne deals onto empty reserve piles; Fred's Spider deals onto empty piles;
    Klondike's foundations give cards back: their texts must not say otherwise."""
    rules = CATALOGUE[game_id]
    found = [
        (key, phrase)
        for key, phrase in contradicting_phrases(rules)
        if re.search(WORDS[phrase][lang], section(game_id, lang, key).replace("\u00a0", " "),
                     re.IGNORECASE)
    ]
    assert found == []


def test_contradicting_phrases_follow_the_declaration() -> None:
    assert ("reserve", "stays empty") in contradicting_phrases(get_game("auld-lang-syne"))
    assert ("stock", "not while empty") in contradicting_phrases(get_game("freds-spider"))
    assert ("stock_waste", "draw 1") in contradicting_phrases(get_game("athena"))
    assert ("foundations", "comes back") in contradicting_phrases(get_game("astrocyte"))
    assert ("tableau", "one at a time") in contradicting_phrases(get_game("yukon"))
    assert ("tableau", "any space") in contradicting_phrases(get_game("bakers-dozen"))
    assert ("stock_waste", "no stock") in contradicting_phrases(get_game("forty-thieves"))
    assert ("layout", "kings to bottom") in contradicting_phrases(get_game("freecell"))
    assert ("tableau", "free places") in contradicting_phrases(get_game("astrocyte"))


@pytest.mark.parametrize(("game_id", "lang"), CASES)
def test_text_states_the_declared_rules(game_id: str, lang: str) -> None:
    rules = CATALOGUE[game_id]
    missing = [
        (key, phrase)
        for key, phrase in rule_phrases(rules)
        if not re.search(WORDS[phrase][lang], section(game_id, lang, key).replace("\u00a0", " "),
                         re.IGNORECASE)
    ]
    assert missing == []


def test_rule_phrases_follow_the_declaration() -> None:
    """Athena: draw three, unlimited redeals; Leap Year: an emptied reserve stays empty;
    Astrocyte: cards never come back from a foundation."""
    assert ("stock_waste", "draw 3") in rule_phrases(get_game("athena"))
    assert ("stock_waste", "redeals None") in rule_phrases(get_game("athena"))
    assert ("reserve", "stays empty") in rule_phrases(get_game("leap-year"))
    assert ("reserve", "stays empty") not in rule_phrases(get_game("auld-lang-syne"))
    assert ("foundations", "never back") in rule_phrases(get_game("astrocyte"))
    assert ("stock", "redeals 2") in rule_phrases(get_game("quadrennial"))
    assert {("tableau", "free places"), ("layout", "microsoft"), ("stock", "no stock"),
            ("tableau", "any space")} <= set(rule_phrases(get_game("freecell")))
    assert {("tableau", "one at a time"), ("tableau", "no space"),
            ("layout", "kings to bottom")} <= set(rule_phrases(get_game("bakers-dozen")))
    assert {("tableau", "any face-up"), ("tableau", "king space"),
            ("stock", "no stock")} <= set(rule_phrases(get_game("yukon")))
    assert {("tableau", "any face-up"), ("foundations", "whole suit"),
            ("stock", "redeals 0")} <= set(rule_phrases(get_game("scorpion")))
    assert {("tableau", "one at a time"), ("stock_waste", "draw 1"),
            ("stock_waste", "redeals 0")} <= set(rule_phrases(get_game("forty-thieves")))
    assert ("stock", "redeals 0") not in rule_phrases(get_game("yukon"))
    assert {("tableau", "no build"), ("tableau", "no space"), ("tableau", "one at a time"),
            ("stock_waste", "up or down"), ("stock_waste", "no wrap"),
            ("layout", "first to waste"), ("winning", "clear win")} <= set(
        rule_phrases(get_game("golf")))
    assert not any(key == "foundations" for key, _ in rule_phrases(get_game("golf")))
    assert {("stock_waste", "up or down"), ("stock_waste", "wrap"), ("tableau", "covered"),
            ("tableau", "uncovered"), ("winning", "clear win")} <= set(
        rule_phrases(get_game("tripeaks")))
    assert ("stock_waste", "no wrap") not in rule_phrases(get_game("tripeaks"))


def test_loader_docstring_examples_run() -> None:
    result = doctest.testmod(reussite.web.texts)
    assert result.attempted > 0 and result.failed == 0
