"""The web pages in a real browser (Playwright driving Debian's Chromium): the server runs as its
own process on a free loopback port, and the tests click cells as a person would.

Screenshots of every page go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder); the
fixtures (`server`, `browser`, `shots`) are in conftest.py.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ogames.rules import BOARD, REGISTRY, game_class
from ogames.web.core.delta import apply_delta

from .serving import CHROMIUM, COMPUTER_WAIT_MS

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
    pytest.mark.slow,
]
expect = playwright_api.expect
WIDE = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}


def new_page(browser: Any, viewport: dict[str, int] = WIDE) -> Any:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    return context.new_page()


def words_fit(page: Any, selector: str) -> bool:
    """Whether the element's words stand inside its box (not squeezed over its borders, as a button
    with no line height draws them)."""
    return bool(page.locator(selector).evaluate(
        """element => {
          const box = element.getBoundingClientRect(), range = document.createRange();
          range.selectNodeContents(element);
          const words = range.getBoundingClientRect();
          return words.height > 0 && words.top >= box.top - 0.5 && words.bottom <= box.bottom + 0.5;
        }"""))


def in_sight(page: Any, label: str) -> bool:
    """Whether the cell is inside the board's frame as it is scrolled now."""
    return bool(page.evaluate(
        """label => {
          const frame = document.getElementById("board").getBoundingClientRect();
          const cell = document.querySelector(`#board g.cell[data-cell="${label}"]`).getBoundingClientRect();
          return cell.left >= frame.left && cell.right <= frame.right && cell.top >= frame.top && cell.bottom <= frame.bottom;
        }""", label))


def start_omny(page: Any, server: str, size: int = 3, **who: str) -> None:
    """Fill the Omny form (variant y) and start the game; the page is live when this returns."""
    page.goto(server + "/new/omny")
    page.fill("#opt_size", str(size))
    if who.get("mode") == "ai":
        page.check("input[name=mode][value=ai]")
        page.select_option("#level", who.get("level", "3"))
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")


def test_hotseat_omny_from_first_click_to_result(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    start_omny(page, server)
    assert "#" not in page.url  # the tokens left the address bar for the browser's storage
    status = page.locator("#status")
    expect(status).to_contain_text("Black to move")
    page.click('[data-cell="a1"]')
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "black")
    expect(status).to_contain_text("White to move")
    # An illegal click: the server's reason is shown and nothing changes.
    page.click('[data-cell="a1"]')
    expect(page.locator("#message")).to_contain_text("a1 is occupied by black")
    expect(status).to_contain_text("White to move")
    expect(page.locator("#moves li")).to_have_count(1)
    for cell, colour in (("b1", "white"), ("a2", "black"), ("c1", "white")):
        page.click(f'[data-cell="{cell}"]')
        expect(page.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-stone", colour)
    expect(page.locator("#message")).to_be_hidden()
    page.click('[data-cell="a3"]')
    expect(status).to_contain_text("Black won")
    expect(page.locator('[data-cell="a1"]')).to_have_attribute("data-winning", "true")
    expect(page.locator("#moves li")).to_have_count(5)
    expect(page.locator("#resign")).to_be_hidden()
    page.screenshot(path=str(shots / "web-hotseat-over.png"))
    # Reloaded, the page shows the same finished game (from the server, not from memory).
    page.reload()
    expect(page.locator("#status")).to_contain_text("Black won")
    page.context.close()


class HeldSocket:
    """The game page's WebSocket routed through the test: what the page sends is recorded, and
    what the server sends is held back while `hold` is set (`release` lets it through in order),
    so a test decides when the answer to a click arrives, whatever the machine's load."""

    def __init__(self, page: Any):
        self.page = page
        self.hold = False
        self.held: list[str | bytes] = []
        self.sent: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []  # the views the page was given
        self.route: Any = None
        page.route_web_socket("**/ws/g/**", self._connect)

    def _connect(self, route: Any) -> None:
        server = route.connect_to_server()
        self.route = route

        def from_page(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if self.hold:
                self.held.append(message)
            else:
                self._deliver(message)

        route.on_message(from_page)
        server.on_message(from_server)

    def release(self) -> None:
        self.hold = False
        for message in self.held:
            self._deliver(message)
        self.held.clear()

    def _deliver(self, message: str | bytes) -> None:
        answer = json.loads(message)
        if answer.get("type") == "state":
            self.views.append(answer)
        elif answer.get("type") == "delta":  # what changed since the view before (web/core/delta.py)
            self.views.append(apply_delta(self.views[-1], answer))
        self.route.send(message)

    def moves(self) -> list[tuple[str, int]]:
        """Every move the page has sent: (move, the version it was made for)."""
        return [(m["move"], m["version"]) for m in self.sent if m.get("type") == "move"]

    def wait_until(self, condition: Callable[[], bool], timeout: float = 20.0) -> None:
        """Until the condition holds: the route's messages reach the test while Playwright works."""
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "the condition did not hold in time"
            self.page.wait_for_timeout(20)  # a poll: lets Playwright deliver the route's messages

    def drawn(self) -> None:
        """Until the page has drawn the views it was given (it draws once a frame)."""
        self.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def test_a_click_while_a_move_is_on_its_way_waits_for_the_answer(browser: Any, server: str) -> None:
    """Two quick clicks on one screen both play (the second with the version the first made); a
    double click, or the same cell clicked again before the answer, plays once; a refused move
    drops the click that waited for it. The server's answers are held back by the test, so this
    holds however slow the machine is."""
    page = new_page(browser)
    socket = HeldSocket(page)
    start_omny(page, server, size=4)
    moves = page.locator("#moves li")

    socket.hold = True
    page.click('[data-cell="a1"]')
    socket.wait_until(lambda: len(socket.moves()) == 1)
    page.click('[data-cell="b1"]')  # before a1's answer: waits for it
    page.click('[data-cell="a1"]')  # the move on its way, again: nothing more
    socket.release()
    expect(moves).to_have_count(2)
    expect(page.locator('[data-cell="b1"]')).to_have_attribute("data-stone", "white")

    socket.hold = True  # (both clicks of the double click come before c1's answer, however fast it is)
    page.dblclick('[data-cell="c1"]')
    socket.wait_until(lambda: len(socket.moves()) == 3)
    socket.release()
    expect(moves).to_have_count(3)
    socket.hold = True
    page.click('[data-cell="a1"]')  # taken: refused
    socket.wait_until(lambda: len(socket.moves()) == 4)
    page.click('[data-cell="d1"]')  # waits for the refusal, then is dropped
    socket.release()
    expect(page.locator("#message")).to_contain_text("a1 is occupied")
    page.click('[data-cell="a2"]')  # sent after anything the page could still have sent
    expect(moves).to_have_count(4)
    socket.wait_until(lambda: len(socket.moves()) == 5)
    assert socket.moves() == [("a1", 0), ("b1", 1), ("c1", 2), ("a1", 3), ("a2", 3)]
    expect(page.locator('[data-cell="d1"]')).not_to_have_attribute("data-stone", "white")

    # Undo clicked while a move is on its way takes back that move, once it is made.
    socket.hold = True
    page.click('[data-cell="b2"]')
    socket.wait_until(lambda: len(socket.moves()) == 6)
    page.click("#undo")
    socket.release()
    socket.wait_until(lambda: any(view["version"] == 6 for view in socket.views))  # b2 made (5) and taken back (6)
    expect(moves).to_have_count(4)
    expect(page.locator('[data-cell="b2"]')).not_to_have_attribute("data-stone", "black")
    expect(page.locator("#message")).to_be_hidden()
    undo = next(m for m in socket.sent if m.get("type") == "undo")
    assert socket.moves()[-1] == ("b2", 4) and undo["version"] == 5
    page.context.close()


# Before the page's scripts run: its WebSockets look still connecting (and their "open" is held
# back) until `window.openSockets()` is called, however fast the server answers.
HOLD_OPENING = """
(() => {
  const Real = window.WebSocket;
  let holding = true;
  const held = [];
  class Opening extends Real {
    get readyState() { return holding && super.readyState === Real.OPEN ? Real.CONNECTING : super.readyState; }
    addEventListener(type, listener, options) {
      if (type !== "open") return super.addEventListener(type, listener, options);
      const socket = this;
      super.addEventListener("open", function (event) {
        if (holding) held.push(() => listener.call(socket, event)); else listener.call(socket, event);
      }, options);
    }
  }
  window.WebSocket = Opening;
  window.openSockets = () => { holding = false; held.splice(0).forEach((deliver) => deliver()); };
})();
"""


def test_a_click_made_as_the_page_opens_is_played_once_connected(browser: Any, server: str) -> None:
    """A cell clicked while the page's socket is still connecting (the page just loaded, or
    reloaded) is not lost with a "not connected": it is sent once the socket is open."""
    page = new_page(browser)
    start_omny(page, server, size=4)
    page.add_init_script(HOLD_OPENING)
    page.reload()
    expect(page.locator("#link-state")).not_to_have_text("live")
    page.click('[data-cell="b2"]')
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#moves li")).to_have_count(0)
    page.evaluate("window.openSockets()")
    expect(page.locator("#link-state")).to_have_text("live")
    expect(page.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#moves li")).to_have_count(1)
    page.context.close()


def test_against_the_computer_to_the_end(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    start_omny(page, server, size=4, mode="ai", level="7")
    expect(page.locator("#seats li").nth(1)).to_contain_text("computer (level 7)")
    page.click('[data-cell="b2"]')
    expect(page.locator(".thinking")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(2, timeout=COMPUTER_WAIT_MS)
    expect(page.locator("#status")).to_contain_text("your turn")
    page.screenshot(path=str(shots / "web-game.png"))
    for _ in range(12):
        if page.locator("#status.result").count():
            break
        count = page.locator("#moves li").count()
        page.locator("[data-cell][data-legal]").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('#moves li').length >= n + 2 || document.querySelector('#status.result')", arg=count
        )
    expect(page.locator("#status.result")).to_contain_text("won")
    page.context.close()


def test_resign_swap_and_the_record_download(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/new/omny")
    page.fill("#opt_size", "3")
    page.select_option("#opt_pie", "true")
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    page.click('[data-cell="b2"]')
    page.click("#specials button[data-move=swap]")
    expect(page.locator("#seats li").first).to_contain_text("White")
    with page.expect_download() as download:
        page.click("a[download]")
    path = download.value.path()
    import ogames

    assert [m["move"] for m in ogames.replay(Path(path).read_text()).record()["moves"]] == ["b2", "swap"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("resigned")
    page.context.close()


def test_a_watcher_sees_moves_but_cannot_make_them(browser: Any, server: str) -> None:
    player = new_page(browser)
    start_omny(player, server)
    watcher = new_page(browser)  # another browser context: no tokens
    watcher.goto(player.url)
    expect(watcher.locator("#link-state")).to_have_text("live")
    watcher.click('[data-cell="b2"]')
    expect(watcher.locator("#message")).to_contain_text("watching")
    expect(watcher.locator("#resign")).to_be_hidden()
    player.click('[data-cell="b2"]')
    expect(watcher.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    player.context.close()
    watcher.context.close()


@pytest.mark.parametrize(("viewport", "name"), [(WIDE, "wide"), (PHONE, "phone")])
def test_pages_fit_the_screen(browser: Any, server: str, shots: Path, viewport: dict[str, int], name: str) -> None:
    page = new_page(browser, viewport)
    for path, title in (("/", "home"), ("/new/omny", "new-omny"), ("/new/omiga", "new-omiga"), ("/?lang=ru", "home-ru")):
        page.goto(server + path)
        page.screenshot(path=str(shots / f"web-{title}-{name}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
    expect(page.locator("h1").first).to_have_text("Игры")
    page.goto(server + "/?lang=en")  # back to English (the choice is kept in a cookie)
    start_omny(page, server, size=5)
    for cell in ("c3", "b2", "d1"):
        page.click(f'[data-cell="{cell}"]')
        expect(page.locator(f'[data-cell="{cell}"][data-stone]')).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(shots / f"web-game-{name}.png"), full_page=True)
    for game in [name for name in REGISTRY if game_class(name).played_on == BOARD and name != "omny"]:  # (Omny above)
        page.goto(f"{server}/new/{game}")
        page.click("button[type=submit]")
        expect(page.locator("#link-state")).to_have_text("live")
        page.locator("[data-cell][data-legal]").first.click()
        expect(page.locator("#moves li")).to_have_count(1)
        page.screenshot(path=str(shots / f"web-{game}-{name}.png"), full_page=True)
    page.context.close()


def test_komi_choice_offers_its_values_in_one_menu(browser: Any, server: str) -> None:
    page = new_page(browser)
    socket = HeldSocket(page)
    page.goto(server + "/new/omny")
    page.select_option("#opt_variant", "sunder")
    page.fill("#opt_size", "3")
    page.select_option("#opt_komi_choice", "true")
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    options = page.locator("#komi-choice option")
    assert options.count() > 4 and options.first.get_attribute("value") == "komi=0"
    page.select_option("#komi-choice", "komi=1.5")
    # Views keep arriving while the menu is open (here: a second page on the game, which every
    # page is told of); each redraws the specials, and the komi picked must stay picked.
    watcher = new_page(browser)
    watcher.goto(page.url)
    expect(watcher.locator("#link-state")).to_have_text("live")
    socket.wait_until(lambda: any(view["pages"] == 2 for view in socket.views))  # the view that counts it
    socket.drawn()
    expect(page.locator("#komi-choice")).to_have_value("komi=1.5")
    watcher.context.close()
    page.click("#specials button")
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#moves li").first).to_contain_text("komi=1.5")
    expect(page.locator("#specials button[data-move=swap]")).to_be_visible()
    page.context.close()
