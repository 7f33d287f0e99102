"""The HTML pages: catalogue, game pages, statistics, feedback form, languages, headers."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape as html_escape

from reussite.games import CATALOGUE
from reussite.web.i18n import UI_STRINGS, translations
from reussite.web.pages import BLURBS
from reussite.web.texts import rules_html

CONTRACT_KEYS = {
    "new_game", "restart", "undo", "redo", "hint", "no_hint", "deal_number", "moves", "time",
    "score", "stock", "waste", "foundation", "cell", "reserve", "tableau", "face_down", "empty",
    "won", "lost", "stuck", "play_again", "settings", "four_colours", "left_handed",
    "animation", "speed_off", "speed_fast", "speed_normal", "speed_slow", "auto_collect",
    "winnable_only", "card_name", "suit_S", "suit_H", "suit_D",
    "suit_C", "redeals_left", "cards_left", "scoring", "scoring_off", "scoring_standard",
    "scoring_vegas", "score_vegas", *(f"rank_{i}" for i in range(1, 14))}


def ui_strings(html: str) -> dict[str, str]:
    m = re.search(r'<script type="application/json" id="ui-strings">(.*?)</script>', html,
                  re.S)
    assert m
    data: dict[str, str] = json.loads(m.group(1))
    return data


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_catalogue_page_links_every_game(sqlite_client: TestClient, lang: str) -> None:
    r = sqlite_client.get("/", headers={"accept-language": lang})
    assert r.status_code == 200 and f'<html lang="{lang}">' in r.text
    for game in CATALOGUE:
        assert f'href="/games/{game}"' in r.text
    assert CATALOGUE["astrocyte"].names[lang] in r.text


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_related_game_links_lead_to_playable_games(sqlite_client: TestClient, lang: str) -> None:
    """Every game page links its related games (the pages' "closest relatives"), and each link
    leads to a page of the catalogue where a game of that kind can be started."""
    for game, rules in CATALOGUE.items():
        page = sqlite_client.get(f"/games/{game}", headers={"accept-language": lang}).text
        linked = set(re.findall(r'href="/games/([a-z0-9-]+)"', page)) - {game}
        assert set(rules.related) <= linked, game
        for other in rules.related:
            target = sqlite_client.get(f"/games/{other}", headers={"accept-language": lang})
            assert target.status_code == 200 and 'id="game"' in target.text
            assert CATALOGUE[other].names[lang] in html_unescape(target.text)
            started = sqlite_client.post("/api/games", json={"game": other, "number": 1})
            assert started.status_code == 201 and started.json()["legal_moves"]


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_game_page_holds_the_play_area_and_the_client_texts(sqlite_client: TestClient,
                                                            lang: str) -> None:
    for game, rules in CATALOGUE.items():
        r = sqlite_client.get(f"/games/{game}", headers={"accept-language": lang})
        assert r.status_code == 200
        html = r.text
        scoring = ' data-scoring="standard vegas"' if rules.klondike_score else ""
        assert f'<div id="game" data-game-id="{game}" data-lang="{lang}"{scoring}></div>' \
            in html
        assert re.search(r'<script type="module" src="/static/js/app\.js\?v=[0-9a-f]{8}">'
                         r'</script>', html)
        assert re.search(r'href="/static/css/app\.css\?v=[0-9a-f]{8}"', html)
        assert str(html_escape(rules.names[lang])) in html
        strings = ui_strings(html)
        assert set(strings) == CONTRACT_KEYS == set(UI_STRINGS)
        assert "{rank}" in strings["card_name"] and "{suit}" in strings["card_name"]
        for related in rules.related:
            if related != game:
                assert f'href="/games/{related}"' in html
        assert 'action="/feedback"' in html


def test_client_texts_are_translated(sqlite_client: TestClient) -> None:
    en = ui_strings(sqlite_client.get("/games/spider?lang=en").text)
    fr = ui_strings(sqlite_client.get("/games/spider?lang=fr").text)
    ru = ui_strings(sqlite_client.get("/games/spider?lang=ru").text)
    assert en["undo"] == "Undo" and fr["undo"] == "Annuler" and ru["undo"] == "Отменить"
    assert ru["card_name"].format(rank=ru["rank_12"], suit=ru["suit_H"]) == "дама червей"


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_rules_text_of_every_game_is_on_its_page(sqlite_client: TestClient,
                                                     lang: str) -> None:
    for game in CATALOGUE:
        html = sqlite_client.get(f"/games/{game}?lang={lang}").text
        section = html[html.index('<section class="rules"'):]
        assert rules_html(game, lang).strip() in section


def test_language_from_header_then_link_then_remembered(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert '<html lang="fr">' in c.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"}).text
    assert '<html lang="en">' in c.get("/", headers={"accept-language": "de"}).text
    r = c.get("/?lang=ru", headers={"accept-language": "fr"})
    assert '<html lang="ru">' in r.text and "reussite_lang=ru" in r.headers["set-cookie"]
    assert '<html lang="ru">' in c.get("/stats", headers={"accept-language": "fr"}).text
    for code in ("en", "fr", "ru"):
        assert f'href="/stats?lang={code}"' in c.get("/stats").text or code == "ru"


def test_unknown_game_page_is_a_404_page(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/games/chess", headers={"accept": "text/html",
                                                   "accept-language": "fr"})
    assert r.status_code == 404 and "Page introuvable" in r.text


def test_security_headers_and_no_inline_script(sqlite_client: TestClient) -> None:
    for path in ("/", "/games/klondike", "/stats", "/api/catalogue"):
        r = sqlite_client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"]
        for tag in re.findall(r"<script[^>]*>", r.text):
            assert 'src="' in tag or 'type="application/json"' in tag
        assert " on" not in " ".join(re.findall(r"<[^>]+ on\w+=", r.text))


def test_player_cookie_is_signed_httponly_samesite(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("reussite_player=") and "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "set-cookie" not in sqlite_client.get("/").headers  # known from now on


def feedback_token(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m
    return m.group(1)


def test_feedback_form_stores_the_message(sqlite_client: TestClient) -> None:
    c = sqlite_client
    token = feedback_token(c.get("/games/athena").text)
    r = c.post("/feedback", data={"csrf": token, "game": "athena",
                                  "message": "Deal 4: the stock did not deal"},
               follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/games/athena")
    assert "feedback=thanks" in r.headers["location"]
    stored = c.app.state.store.feedback_messages()  # type: ignore[attr-defined]
    assert any(m["message"] == "Deal 4: the stock did not deal" and m["game"] == "athena"
               for m in stored)
    assert "Thank you" in c.get(r.headers["location"]).text


def test_feedback_form_refuses_forgery_and_nonsense(sqlite_client: TestClient) -> None:
    c = sqlite_client
    token = feedback_token(c.get("/games/athena").text)
    r = c.post("/feedback", data={"csrf": "forged", "game": "athena", "message": "hi"},
               follow_redirects=False)
    assert r.status_code == 403
    r = c.post("/feedback", data={"csrf": token, "game": "athena", "message": "hi"},
               headers={"origin": "https://evil.example"}, follow_redirects=False)
    assert r.status_code == 403
    r = c.post("/feedback", data={"csrf": token, "game": "athena", "message": "x" * 3000},
               follow_redirects=False)
    assert r.status_code == 303 and "feedback=invalid" in r.headers["location"]
    r = c.post("/feedback", content=b"message=" + b"x" * 100_000,
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_stats_page_shows_the_played_games(sqlite_client: TestClient) -> None:
    c = sqlite_client
    view = c.post("/api/games", json={"game": "klondike", "number": 5}).json()
    c.post(f"/api/games/{view['id']}/moves", json={"move": {"type": "stock"}, "version": 0})
    r = c.get("/stats?lang=fr")
    assert r.status_code == 200 and "Vos statistiques" in r.text
    assert 'href="/games/klondike"' in r.text


def test_home_page_offers_to_continue_the_newest_game_of_each_kind_first(
        sqlite_client: TestClient) -> None:
    """One card a kind of game (its page resumes the newest unfinished one), newest first,
    above the catalogue; another player's games are not offered."""
    ids = {}
    for game, number in [("klondike", 5), ("spider", 6), ("klondike", 7)]:
        view = sqlite_client.post("/api/games", json={"game": game, "number": number}).json()
        ids[number] = view["id"]
    stock = {"type": "stock"}
    assert sqlite_client.post(f"/api/games/{ids[6]}/moves",
                              json={"move": stock, "version": 0}).status_code == 200
    html = sqlite_client.get("/").text
    resume, catalogue = html.split('<section class="games">', 1)
    assert "Continue your games" in resume
    assert re.findall(r'class="game-card" href="/games/([a-z0-9-]+)"', resume) == \
        ["spider", "klondike"]
    assert "deal 6, moves played: 1" in resume and "deal 7, moves played: 0" in resume
    assert "deal 5" not in resume
    assert len(re.findall(r'class="game-card"', catalogue)) == len(CATALOGUE)
    with TestClient(sqlite_client.app) as other:
        assert "Continue your" not in other.get("/").text


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_home_page_has_a_picture_and_a_line_for_every_game(sqlite_client: TestClient,
                                                            lang: str) -> None:
    html = html_unescape(sqlite_client.get("/", headers={"accept-language": lang}).text)
    assert set(BLURBS) == set(CATALOGUE)
    for game in CATALOGUE:
        assert re.search(rf'src="/static/thumbnails/{game}\.svg\?v=[0-9a-f]{{8}}"', html), game
        assert translations(lang).gettext(BLURBS[game]) in html
