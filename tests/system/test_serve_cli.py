"""`reussite serve`: a bad database URL is one line on standard error and exit status 2."""

from __future__ import annotations

import pytest

from reussite.cli import main


@pytest.mark.parametrize("url", ["nonsense", "nosuchdialect://x/y"])
def test_a_bad_database_url_is_a_one_line_error(url: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", url, "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("reussite: error:") and err.count("\n") == 1


def test_a_bad_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "99999"]) == 2
    assert capsys.readouterr().err.startswith("reussite: error:")
