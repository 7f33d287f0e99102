"""Every text of the site is translated into French and Russian.

The catalogues must hold every text of the templates and the code (extracted here as
``scripts/update-messages`` does), each with a non-empty translation; and the pages rendered
in French and Russian must show none of the English texts.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from reussite.games import CATALOGUE
from reussite.web.i18n import lang_of, parse_accept_language

WEB = resources.files("reussite.web")


def catalogue(lang: str):  # type: ignore[no-untyped-def]
    with (WEB / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def source_ids() -> set[str]:
    keywords = dict(DEFAULT_KEYWORDS, N_=None)
    jinja = {"extensions": "jinja2.ext.i18n", "trim_blocks": "True", "lstrip_blocks": "True"}
    found = extract_from_dir(str(WEB), method_map=[("**.py", "python"),
                                                   ("templates/**.html", "jinja2")],
                             options_map={"templates/**.html": jinja}, keywords=keywords)
    ids = set()
    for _file, _line, message, _comments, _context in found:
        ids.add(message if isinstance(message, str) else message[0])
    return ids


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_text_has_a_translation(lang: str) -> None:
    cat = catalogue(lang)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}
    missing_from_catalogue = source_ids() - ids
    assert not missing_from_catalogue, "run scripts/update-messages and translate"
    for m in cat:
        if not m.id:
            continue
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert len(strings) >= 1 and all(s.strip() for s in strings), m.id
        assert not m.fuzzy, m.id


def english_fragments() -> list[str]:
    """The English texts (their fixed parts, around placeholders) that fr and ru change."""
    out = []
    fr, ru = catalogue("fr"), catalogue("ru")
    for m in fr:
        if not m.id:
            continue
        mid = m.id if isinstance(m.id, str) else m.id[0]
        other = ru.get(m.id)
        if m.string == m.id or (other is not None and other.string == m.id):
            continue  # the same word in that language ("Score", "Animations")
        parts = [p.strip(" .,:?!") for p in re.split(r"%\(\w+\)s|\{\w+\}", mid)]
        fragment = max(parts, key=len)
        if len(fragment) >= 3:
            out.append(fragment)
    return out


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_pages_in_french_and_russian_show_no_english_text(sqlite_client: TestClient,
                                                          lang: str) -> None:
    c = sqlite_client
    view = c.post("/api/games", json={"game": "klondike", "number": 1}).json()
    c.post(f"/api/games/{view['id']}/moves", json={"move": {"type": "stock"}, "version": 0})
    paths = ["/", "/stats", "/games/nothing-here", *(f"/games/{g}" for g in CATALOGUE)]
    fragments = english_fragments()
    assert len(fragments) > 50
    for path in paths:
        html = c.get(path, headers={"accept-language": lang, "accept": "text/html"}).text
        html = re.sub(r'<section class="rules".*?</section>', "", html, flags=re.S)
        # The client's texts are checked by value (their keys are English on purpose).
        for m in re.finditer(r'<script type="application/json" id="[a-z-]+-strings">(.*?)'
                             r'</script>', html, re.S):
            values = "\n".join(json.loads(m.group(1)).values())
            # a placeholder ({abandoned}) is a name, not text shown
            html = html.replace(m.group(0), re.sub(r"\{\w+\}", "", values))
        for fragment in fragments:
            assert not re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", html), \
                f"{path} in {lang} shows the English {fragment!r}"
    hint = c.get(f"/api/games/{view['id']}/hint", headers={"accept-language": lang}).json()
    assert not hint["text"].startswith(("Move", "Click"))


def test_the_language_of_a_request_query_then_cookie_then_accept_language() -> None:
    accept = (b"accept-language", b"ru, fr;q=0.5")
    assert lang_of([]) == "en"
    assert lang_of([accept]) == "ru"
    assert lang_of([(b"cookie", b"a=1; reussite_lang=fr"), accept]) == "fr"
    assert lang_of([(b"cookie", b"reussite_lang=fr"), accept], query="en") == "en"
    assert lang_of([(b"cookie", b"reussite_lang=de"), accept], query="xx") == "ru"
    # Read as browsers write cookies: a malformed neighbour does not hide the language.
    assert lang_of([(b"cookie", b'x="; reussite_lang=fr')]) == "fr"
    # The first header of each name counts.
    assert lang_of([accept, (b"accept-language", b"fr")]) == "ru"


def test_accept_language_is_read_with_its_weights() -> None:
    assert parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8") == "fr"
    assert parse_accept_language("en;q=0.5, ru;q=0.7") == "ru"
    assert parse_accept_language("de, *;q=0.1") is None
    assert parse_accept_language("ru;q=abc, fr;q=0") is None


def engine_refusals() -> set[str]:
    """Every fixed sentence the engine gives for a refused move (its formatted ones aside)."""
    import ast
    import inspect

    import reussite.engine

    tree = ast.parse(inspect.getsource(reussite.engine))
    found: set[str] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in (
                "why_illegal", "_stock_refusal", "_foundation_refusal", "_tableau_refusal"):
            for node in ast.walk(fn):
                if isinstance(node, ast.Return) and node.value is not None:
                    values = [node.value]
                    if isinstance(node.value, ast.IfExp):
                        values = [node.value.body, node.value.orelse]
                    if isinstance(node.value, ast.BoolOp):
                        values = list(node.value.values)
                    found |= {v.value for v in values
                              if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def test_every_refusal_of_the_engine_can_be_translated() -> None:
    from reussite.web.i18n import REFUSALS

    sentences = engine_refusals()
    assert len(sentences) > 30
    assert sentences <= set(REFUSALS), sentences - set(REFUSALS)


def test_an_illegal_move_is_refused_in_the_players_language(sqlite_client: TestClient) -> None:
    c = sqlite_client
    view = c.post("/api/games", json={"game": "astrocyte", "number": 7}).json()
    move = {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": 1}
    details = {}
    for lang in ("en", "fr", "ru"):
        r = c.post(f"/api/games/{view['id']}/moves", json={"move": move, "version": 0},
                   headers={"accept-language": lang})
        assert r.status_code == 422
        details[lang] = r.json()["detail"]
    assert details["en"].startswith("Single cards never go to a foundation")
    assert details["fr"].startswith("Une carte seule ne va jamais sur une fondation")
    assert details["ru"].startswith("Отдельные карты в дом не идут")
    r = c.post(f"/api/games/{view['id']}/undo", json={"version": 0},
               headers={"accept-language": "fr"})
    assert r.json()["detail"] == "Aucun coup à annuler"


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_hint_without_a_move_says_why_in_the_players_language(lang: str) -> None:
    from typing import get_args

    from reussite.solver.hints import Reason
    from reussite.web.actions import hint_json
    from reussite.web.i18n import HINT_REASONS, translate

    assert sorted(HINT_REASONS) == sorted(get_args(Reason))
    headers = [(b"accept-language", lang.encode())]
    texts = set()
    for reason, sentence in HINT_REASONS.items():
        answer = json.loads(hint_json(None, reason, headers))
        assert answer == {"move": None, "text": translate(lang, sentence), "reason": reason}
        assert lang == "en" or answer["text"] != sentence
        texts.add(answer["text"])
    assert len(texts) == len(HINT_REASONS)
    assert json.loads(hint_json(None, None, headers))["reason"] is None
