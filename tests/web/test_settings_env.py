"""The settings an operator gives as whole numbers in the environment (web/core/settings.py
`whole_env`): the open sockets per client address, the sign-ups per address an hour and the pages
per address in a burst."""

from __future__ import annotations

import pytest

from ogames.web.core.settings import PAGES_ENV, SIGNUPS_ENV, SOCKETS_ENV, Settings


@pytest.mark.parametrize(("variable", "name", "default"), [(SOCKETS_ENV, "sockets_per_client", 64),
                                                           (SIGNUPS_ENV, "signups_per_hour", 20),
                                                           (PAGES_ENV, "page_burst", 200)])
def test_a_whole_number_setting_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, variable: str, name: str,
                                                           default: int) -> None:
    monkeypatch.delenv(variable, raising=False)
    assert getattr(Settings(), name) == default
    monkeypatch.setenv(variable, "500")
    assert getattr(Settings(), name) == 500
    for bad in ("0", "-3", "2.5", "many"):
        monkeypatch.setenv(variable, bad)
        with pytest.raises(ValueError, match=variable):
            Settings()
    monkeypatch.delenv(variable)
    with pytest.raises(ValueError, match=r"at least 1|rate limits"):
        Settings(**{name: 0})
