"""Links a visitor can be sent to, against a server process: a page asked for by a crafted path
(`//evil.example`, `/%2F%2Fevil.example`, `/\\evil.example`) never links off the site. Its header's
language links once repeated the path, so the "Русский" link of such a 404 page led to another
host (browsers read `//host`, `///host` and `/\\host` as another host's address)."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from hostile_web import Server, running

# Paths whose text, written into an href as it stands, names another host.
CRAFTED = ["//evil.example", "//evil.example/x", "/%2F%2Fevil.example", "/%5Cevil.example", "/%5C%5Cevil.example",
           "/%2F%5Cevil.example"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("links")) as server:
        yield server


def raw_get(server: Server, path: str) -> str:
    """The answer to a GET of `path` sent as it stands (an HTTP client would tidy `//host`)."""
    parts = urlsplit(server.base)
    assert parts.hostname and parts.port
    with socket.create_connection((parts.hostname, parts.port), timeout=60) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer.decode("utf-8", "replace")


def stays_on_the_site(href: str) -> bool:
    """Whether a browser resolves `href` on a page of this site to this site: a query, a fragment,
    or a path whose start a browser cannot read as a host (not `//`, `/\\`, `\\`)."""
    if href.startswith(("?", "#")):
        return True
    return href.startswith("/") and href[1:2] not in ("/", "\\")


@pytest.mark.parametrize("path", CRAFTED)
def test_no_language_link_of_a_crafted_path_leads_off_the_site(server: Server, path: str) -> None:
    answer = raw_get(server, path)
    assert answer.startswith("HTTP/1.1 404"), answer[:200]
    links = re.findall(r'<a href="([^"]*)"[^>]*hreflang=', answer)
    assert links, answer[-2000:]  # the page has its language links
    assert all(stays_on_the_site(href) for href in links), links
    assert "evil.example?" not in answer


def test_the_language_links_keep_the_page(server: Server) -> None:
    """A language link still opens the same page in the other language (and keeps the choice)."""
    status, text, _ = server.page("/puzzles")
    assert status == 200
    (link,) = re.findall(r'<a href="([^"]*)"[^>]*hreflang="ru"', text)
    status, russian, headers = server.page("/puzzles" + link if link.startswith("?") else link)
    assert status == 200 and '<html lang="ru">' in russian
    assert "lang=ru" in headers.get("set-cookie", "")
