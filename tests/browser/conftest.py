"""Fixtures of the browser tests: one site and one Chromium per test worker."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from .live import CHROMIUM, launch_chromium, running_server

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            if not os.path.exists(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing "
                                                 "(scripts/ensure-chromium installs it)"))


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    with running_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


def settings_script(**settings: Any) -> str:
    """A script that gives a new player these settings (a player's own later choices stay)."""
    key = "'reussite.settings'"
    return (f"if (localStorage.getItem({key}) === null)"
            f" localStorage.setItem({key}, {json.dumps(json.dumps(settings))});")


@contextlib.contextmanager
def player_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page of a fresh player (own cookies) in a browser context made with ``context``
    (viewport, locale, touch...), auto-collect off; no JavaScript error may happen on it."""
    ctx = browser.new_context(**context)
    ctx.add_init_script(settings_script(autoCollect=False))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    """A fresh player on a 1366×768 screen."""
    with player_page(browser, viewport={"width": 1366, "height": 768}) as page:
        yield page


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh player on a 390×844 touch screen."""
    with player_page(browser, viewport={"width": 390, "height": 844}, has_touch=True,
                     is_mobile=True, device_scale_factor=2) as page:
        yield page
