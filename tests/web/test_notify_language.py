"""Each notification mail in its recipient's language (web/notify/mails.py), against a local SMTP
sink: an account signed up in Russian gets its address check, "your move" and the loss on time in
Russian, one signed up in English gets them in English, and an account that chooses another
language on the site (`?lang=`) gets its next mail in that one; an account made before languages
were kept takes the one it logs in with."""

from __future__ import annotations

import re
from email.message import EmailMessage

from fastapi.testclient import TestClient

from ogames.web.accounts import records as accounts

from .mailsink import Sink, body
from .test_accounts import eventually
from .test_correspondence import Days, new_game, play, sweep
from .test_notify import DAY, _visitor, client, days, sink

__all__ = ["client", "days", "sink"]  # the fixtures, used below


def signed_up_with_mails(client: TestClient, sink: Sink, name: str, address: str, language: str) -> str:
    """A new account signed up on pages in `language`, its address verified by the link mailed to
    it, asking for every mail; the address check's subject."""
    client.cookies.clear()
    client.cookies.set("lang", language)
    answer = client.post("/signup", data={"name": name, "password": "correct horse", "again": "correct horse"})
    assert answer.status_code == 200, answer.text
    assert client.post("/account/email", data={"address": address}).status_code == 200
    check = sink.wait_for(lambda mail: mail["To"] == address)
    assert check["Content-Language"] == language
    link = re.search(r"http://games\.example\.org(/account/email/verify\?token=\S+)", body(check))
    assert link is not None and client.get(link.group(1)).status_code == 200
    assert client.post("/account/notices", data={"your_move": "1", "game_over": "1"}).status_code == 200
    return str(check["Subject"])


def your_move(client: TestClient, sink: Sink, address: str, days: int = 1) -> tuple[str, EmailMessage]:
    """A correspondence game against a friend (no account) who moves: the account's turn; its id and mail."""
    game_id, tokens = new_game(client, days=days)
    play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
    return game_id, sink.wait_for(lambda mail: mail["To"] == address and f"/g/{game_id}" in body(mail))


def test_a_russian_account_gets_russian_mails_and_an_english_one_english(client: TestClient, sink: Sink, days: Days) -> None:
    assert signed_up_with_mails(client, sink, "Boris", "boris@example.org", "ru") == "ogames: это ваш адрес?"
    _, mail = your_move(client, sink, "boris@example.org")
    assert str(mail["Subject"]).startswith("Ваш ход: ") and mail["Content-Language"] == "ru"
    assert "Ваш ход в партии" in body(mail) and "Отписаться" in body(mail) and "your move" not in body(mail).lower()
    days.ahead(1.5 * DAY)
    sweep(client)  # the friend's days ran out: Boris won on time
    over = sink.wait_for(lambda mail: mail["To"] == "boris@example.org" and str(mail["Subject"]).startswith("Партия окончена"))
    assert "вышло время" in body(over) and "on time" not in body(over)

    assert signed_up_with_mails(client, sink, "Ada", "ada@example.org", "en") == "ogames: is this your address?"
    _, mail = your_move(client, sink, "ada@example.org", days=3)
    assert str(mail["Subject"]).startswith("Your move: ") and mail["Content-Language"] == "en"
    assert "It is your move in a game of" in body(mail) and "No more of them" in body(mail)


def test_an_account_that_chooses_another_language_gets_its_next_mail_in_it(client: TestClient, sink: Sink) -> None:
    signed_up_with_mails(client, sink, "Cyd", "cyd@example.org", "en")
    store = client.app.state.store  # type: ignore[attr-defined]
    cyd = _visitor(client)
    assert accounts.language_of(store, cyd) == "en"
    assert client.get("/?lang=ru").status_code == 200  # the header's language link
    eventually(lambda: accounts.language_of(store, cyd) == "ru", "the choice is kept")
    _, mail = your_move(client, sink, "cyd@example.org")
    assert str(mail["Subject"]).startswith("Ваш ход: ")
    client.cookies.clear()  # a guest's choice keeps nothing, and changes no account
    assert client.get("/?lang=en").status_code == 200
    assert accounts.language_of(store, cyd) == "ru"


def test_an_account_from_before_languages_takes_the_one_it_logs_in_with(client: TestClient) -> None:
    from ogames.web.accounts.names import name_key
    from ogames.web.accounts.passwords import hash_password

    store = client.app.state.store  # type: ignore[attr-defined]
    old = accounts.create_account(store, "Dora", name_key("Dora"), hash_password("correct horse"))  # no language stored
    assert accounts.language_of(store, old.id) is None
    client.cookies.clear()
    client.cookies.set("lang", "ru")
    assert client.post("/login", data={"name": "Dora", "password": "correct horse"}).status_code == 200
    assert accounts.language_of(store, old.id) == "ru"
    client.cookies.clear()
    client.cookies.set("lang", "en")  # a later log-in in another language changes nothing: choosing does
    assert client.post("/login", data={"name": "Dora", "password": "correct horse"}).status_code == 200
    assert accounts.language_of(store, old.id) == "ru"
