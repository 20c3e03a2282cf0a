"""Every Russian page in a real browser (Playwright driving Debian's Chromium) holds no English:
the home page, the rules pages, every new-game form (and a refused one), each board game in every
phase (a refused move shown, an earlier position looked at, the analysis, a clock, a loss on
time, a resignation, a win, against the computer, online with invitation links and an open seat,
a take-back asked), Omiga's tables of each mode (before the signal, a refused card, finished,
zen), the replay and upload pages and the error pages.

On each page the words a person meets are collected — the text of the document (hidden parts too:
they show later), the title, SVG tooltips (`<title>`), `aria-label`, `title`, `placeholder` and
`alt` attributes — and every word of two or more Latin letters is reported unless it is on the
allowed list (the games' names, the site's name, cell labels such as c3). Text marked as code
(`code`, `pre`, `kbd`, `samp`: commands and record notation quoted by the rules) or marked as
another language (`lang="en"`: the language switch's "English") is not Russian text to translate.
Screenshots go to $OGAMES_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ogames.rules import BOARD, REGISTRY, game_class

from .serving import call
from .test_browser import PHONE, WIDE, expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

ALLOWED = {"omny", "odd-y", "omega", "onyx", "omiga", "flanx", "ogames", "json", "sgf"}  # names, and formats
CELL_LABEL = re.compile(r"^[a-z]{1,3}[0-9]{1,3}$", re.IGNORECASE)
WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
LIVE = "на связи"  # the link state once the page's socket is open

# The words a person meets on the page, as (where, text): not inside code or another language.
COLLECT = """() => {
  const out = [];
  const foreign = (el) => {
    if (!el || el.closest('script, style, noscript, template, code, pre, kbd, samp')) return true;
    const marked = el.closest('[lang]');
    return !!(marked && !marked.getAttribute('lang').toLowerCase().startsWith('ru'));
  };
  const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.getAttribute('class') ? '.' + String(el.getAttribute('class')).trim().split(/\\s+/)[0] : '');
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    if (text && !foreign(node.parentElement)) out.push([where(node.parentElement), text]);
  }
  const named = '[aria-label], [title], [placeholder], [alt], input[type=submit], input[type=button]';
  for (const el of document.querySelectorAll(named)) {
    if (foreign(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) out.push([where(el) + '@' + name, value]);
    }
    if (el.matches('input[type=submit], input[type=button]') && el.value) out.push([where(el) + '@value', el.value]);
  }
  return out;
}"""


def english(text: str) -> list[str]:
    """The words of a text that are not Russian and not allowed: two or more Latin letters."""
    found = []
    for word in WORD.findall(text):
        letters = sum(ch.isascii() and ch.isalpha() for ch in word)
        if letters >= 2 and word.lower() not in ALLOWED and not CELL_LABEL.match(word):
            found.append(word)
    return found


def test_the_word_finder() -> None:
    assert english("Ходят чёрные · c3 занята") == []
    assert english("Omny · Odd-Y · ogames (JSON) a1 aa12 · 5 × 4 · R") == []
    assert english("player 2 · side 0") == ["player", "side"]
    assert english("Ход c3: it does not fit") == ["it", "does", "not", "fit"]


class Walk:
    """The pages visited and the English found on them (reported all together at the end)."""

    def __init__(self, browser: Any, server: str, shots: Path):
        self.server = server
        self.shots = shots
        self.context = browser.new_context(viewport=WIDE, locale="en-US")  # the cookie, not the browser, asks for Russian
        self.context.set_default_timeout(30_000)
        self.context.add_cookies([{"name": "lang", "value": "ru", "url": server}])
        self.page = self.context.new_page()
        self.found: dict[str, list[tuple[str, str]]] = {}
        self.visited: list[str] = []

    def goto(self, path: str, live: bool = False) -> Any:
        self.page.goto(self.server + path)
        if live:
            expect(self.page.locator("#link-state")).to_have_text(LIVE)
        return self.page

    def check(self, name: str) -> None:
        """Collect the English on the page as it is now, under a name for the report."""
        self.visited.append(name)
        assert self.page.evaluate("document.documentElement.lang") == "ru", name
        for where, text in self.page.evaluate(COLLECT):
            words = english(text)
            if words:
                self.found.setdefault(name, []).append((where, text[:160]))

    def shot(self, name: str, full: bool = True) -> None:
        self.page.screenshot(path=str(self.shots / f"ru-{name}.png"), full_page=full)

    def report(self) -> None:
        """Fail with every page's English, each text once (cell labels and numbers aside), the first dozen a page."""
        self.context.close()
        lines = []
        for name, items in self.found.items():
            seen: dict[str, str] = {}
            for where, text in items:
                seen.setdefault(re.sub(r"[0-9]+", "N", re.sub(r"\b[a-z]{1,3}[0-9]+\b", "CELL", text)), f"{where}: {text!r}")
            shown = list(seen.values())
            more = f"\n    … {len(shown) - 12} more" if len(shown) > 12 else ""
            lines.append(f"{name}:\n" + "\n".join(f"    {line}" for line in shown[:12]) + more)
        assert not self.found, f"English on {len(self.found)} of {len(self.visited)} Russian pages:\n" + "\n".join(lines)


@pytest.fixture
def walk(browser: Any, server: str, shots: Path) -> Any:
    return Walk(browser, server, shots)


# ----- games set up through the JSON API ------------------------------------------------------------


def create(server: str, game: str, options: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    status, made = call(server, "/api/games", {"game": game, "options": options or {}, **more})
    assert status == 201, made
    return made


def move(server: str, made: dict[str, Any], view: dict[str, Any], chosen: str, seat: int | None = None) -> dict[str, Any]:
    seat = view["mover"] if seat is None else seat
    token = made["tokens"].get(str(seat)) or made["invitations"][str(seat)]["token"]
    status, after = call(server, f"/api/games/{made['id']}/moves", {"move": chosen, "token": token, "version": view["version"]})
    assert status == 200, after
    return after


def play_out(server: str, made: dict[str, Any], view: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    """Random moves until the game is over (from `view`, else the start); the last view."""
    rng = random.Random(seed)
    view = view or made["view"]
    for _ in range(10_000):
        if view["over"]:
            break
        cells = view["legal"] or view["specials"]
        view = move(server, made, view, rng.choice(cells))
    return view


def advance(server: str, made: dict[str, Any], view: dict[str, Any], turns: int) -> dict[str, Any]:
    """Play the first legal move until `turns` whole turns are made (Omega's turn places a stone of
    every colour); the last view."""
    def turn_starts(view: dict[str, Any]) -> bool:
        placing = (view.get("board") or {}).get("placing")
        return placing is None or placing["index"] == 1

    while len(view["moves"]) < turns or not turn_starts(view):
        view = move(server, made, view, view["legal"][0])
    return view


def options_colours(made: dict[str, Any]) -> list[str]:
    return list(made["view"]["colours"])


def seats_fragment(made: dict[str, Any]) -> str:
    here = ",".join(f"{seat}.{token}" for seat, token in made["tokens"].items())
    invited = ",".join(f"{seat}.{item['token']}" for seat, item in made["invitations"].items())
    return "#" + "&".join(part for part in (f"seats={here}" if here else "", f"invites={invited}" if invited else "") if part)


BOARD_GAMES: dict[str, dict[str, Any]] = {
    "omny": {"variant": "y", "size": 3},
    "oddy": {"sides": 5, "size": 3},
    "omega": {"players": 3, "size": 4, "pie": True},
    "onyx": {"pie": True},
}


def board_game_pages(walk: Walk, game: str) -> None:
    server = walk.server
    options = BOARD_GAMES[game]
    page = walk.page
    # On one screen: a refused move, an earlier position, the analysis.
    made = create(server, game, options)
    view = made["view"]
    first = view["legal"][0]
    view = advance(server, made, view, 2)  # two turns: the first one is an earlier position
    walk.goto(f"/g/{made['id']}{seats_fragment(made)}", live=True)
    walk.check(f"{game}: a new game on one screen")
    page.click(f'#board [data-cell="{first}"]')  # taken already
    expect(page.locator("#message")).to_be_visible()
    walk.check(f"{game}: a refused move")
    walk.shot(f"{game}-refused")
    page.locator("#moves button").first.click()
    expect(page.locator("#review")).to_be_visible()
    walk.check(f"{game}: looking at an earlier position")
    page.click("#review-live")
    page.click("#analyse")
    expect(page.locator(".analysis .best-move")).to_be_visible(timeout=240_000)
    walk.check(f"{game}: the analysis")
    # Special moves offered to the player to move: the swap (pie rule), Omny's komi to choose.
    special = create(server, game, {**options, "komi_choice": True} if game == "omny" else options)
    if game != "omny":
        advance(server, special, special["view"], 1)  # the first turn: the next player may swap
    walk.goto(f"/g/{special['id']}{seats_fragment(special)}", live=True)
    expect(page.locator("#specials button").first).to_be_visible()
    walk.check(f"{game}: special moves offered")
    if game == "omny":
        page.locator("#board g.cell").first.click()  # komi comes first
        expect(page.locator("#message")).to_be_visible()
        walk.check(f"{game}: a move before the komi is chosen")
    # Played to its end, and resigned.
    over = play_out(server, made, view)
    walk.goto(f"/g/{made['id']}", live=True)
    expect(page.locator("#status.result")).to_be_visible()
    walk.check(f"{game}: a finished game ({over['result']['reason']})")
    resigned = create(server, game, options)
    token = resigned["tokens"]["0"]
    status, _ = call(server, f"/api/games/{resigned['id']}/resign", {"token": token, "version": 0})
    assert status == 200
    walk.goto(f"/g/{resigned['id']}", live=True)
    walk.check(f"{game}: a resigned game")
    # With a clock, and lost on time (3 seconds a player).
    timed = create(server, game, options, clock={"minutes": 5, "increment": 2})
    move(server, timed, timed["view"], timed["view"]["legal"][0])
    walk.goto(f"/g/{timed['id']}{seats_fragment(timed)}", live=True)
    expect(page.locator("#clocks")).to_be_visible()
    walk.check(f"{game}: with a clock")
    flagged = create(server, game, options, clock={"minutes": 0.05, "increment": 0})
    advance(server, flagged, flagged["view"], len(flagged["view"]["seats"]))  # a seat's clock runs from its second turn
    walk.goto(f"/g/{flagged['id']}", live=True)
    expect(page.locator("#status.result")).to_be_visible(timeout=30_000)
    walk.check(f"{game}: lost on time")
    # Against the computer.
    against = create(server, game, options, mode="ai", seat=0, level=1)
    walk.goto(f"/g/{against['id']}{seats_fragment(against)}", live=True)
    for placed in range(1, len(options_colours(against)) + 1 if game == "omega" else 2):  # Omega: a stone of every colour
        page.locator("#board g.cell[data-legal]").first.click()
        page.wait_for_function("n => document.querySelectorAll('#board g.cell[data-stone]').length >= n", arg=placed)
    page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 2", timeout=120_000)  # the computer moved
    walk.check(f"{game}: against the computer")
    # Online: a friend invited by a link, an open seat; a take-back asked.
    seats = ["here", "invite", "open"][: 3 if game == "omega" else 2]
    online = create(server, game, options, seats=seats if game == "omega" else ["here", "invite"])
    walk.goto(f"/g/{online['id']}{seats_fragment(online)}", live=True)
    expect(page.locator("#invitations")).to_be_visible()
    walk.check(f"{game}: online, with an invitation link")
    opened = create(server, game, options, seats=["here", "open", *(["here"] if game == "omega" else [])])
    walk.goto(f"/g/{opened['id']}", live=True)
    expect(page.locator("[data-take-seat]")).to_have_count(1)
    walk.check(f"{game}: an open seat to take")
    view = move(server, online, online["view"], online["view"]["legal"][0])
    view = move(server, online, view, view["legal"][1] if game != "omega" else view["legal"][0])
    asker = 0 if game != "omega" else view["mover"]
    asker_token = online["tokens"].get(str(asker)) or online["invitations"][str(asker)]["token"]
    status, asked = call(server, f"/api/games/{online['id']}/undo", {"token": asker_token, "version": view["version"]})
    assert status == 200 and asked["undo_request"], asked
    invited = online["invitations"]["1"]["token"]
    walk.goto(f"/g/{online['id']}#seats=1.{invited}", live=True)
    expect(page.locator("#undo-request")).to_be_visible()
    walk.check(f"{game}: a take-back asked of the other player")
    walk.shot(f"{game}-undo-asked")


def test_every_board_game_of_the_registry_is_walked_in_russian() -> None:
    board_games = {name for name in REGISTRY if game_class(name).played_on == BOARD}
    missing = board_games - set(BOARD_GAMES)
    assert not missing, f"no Russian walk through {', '.join(sorted(missing))}: give it options in BOARD_GAMES"


@pytest.mark.parametrize("game", list(BOARD_GAMES))
def test_a_board_game_in_russian(walk: Walk, game: str) -> None:
    board_game_pages(walk, game)
    walk.report()


def test_home_rules_forms_replay_and_errors_in_russian(walk: Walk, server: str) -> None:
    page = walk.page
    finished = create(server, "omny", {"variant": "y", "size": 3})
    play_out(server, finished)
    create(server, "oddy", {}, seats=["here", "open"])  # an open game on the home page
    playing = create(server, "onyx", {})
    move(server, playing, playing["view"], playing["view"]["legal"][0])
    walk.goto("/")
    walk.check("the home page")
    walk.shot("home")
    for game in REGISTRY:
        walk.goto(f"/rules/{game}")
        walk.check(f"the rules of {game}")
        walk.goto(f"/new/{game}")
        walk.check(f"the new-game form of {game}")
        variants = page.locator("#opt_variant option")
        for index in range(variants.count()):
            value = variants.nth(index).get_attribute("value")
            page.select_option("#opt_variant", value)
            walk.check(f"the new-game form of {game}, variant {value}")
    walk.goto("/new/omny")
    page.check("input[name=mode][value=seats]")
    walk.check("the new-game form, seat by seat")
    page.select_option("#opt_variant", "custom")
    page.fill("#opt_cells", "a1 zz99")
    page.click("button[type=submit]")
    expect(page.locator(".problem")).to_be_visible()
    walk.check("a refused new-game form")
    walk.goto("/new/omiga")
    page.select_option("#opt_variant", "zen")
    page.fill("#opt_form", "Бармаглот")  # a form nobody knows (the refusal quotes it)
    page.click("button[type=submit]")
    expect(page.locator(".problem")).to_be_visible()
    walk.check("a refused Omiga form")
    # Replay and analysis.
    walk.goto(f"/g/{finished['id']}/replay")
    walk.check("the replay page")
    page.click("#previous")
    page.click("#analyse")
    expect(page.locator(".analysis .best-move")).to_be_visible(timeout=240_000)
    walk.check("the replay page's analysis")
    walk.shot("replay")
    walk.goto("/games/mine")
    walk.check("my games")
    walk.goto("/archive?player=nobody")
    walk.check("the archive's search form")
    walk.goto("/replay")
    walk.check("the upload page")
    record = call(server, f"/g/{finished['id']}/record.json")[1]
    bad = json.dumps({**record, "moves": [{"move": "zz9", "by": "black"}]}).encode()  # a cell that is not on the board
    page.set_input_files("#record", files=[{"name": "bad.json", "mimeType": "application/json", "buffer": bad}])
    page.click("form.upload button[type=submit]")
    expect(page.locator(".problem")).to_be_visible()
    walk.check("a refused upload")
    walk.goto("/replay/open?game=%21%21")
    walk.check("a refused game link")
    for path in ("/g/no-such-game", "/o/no-such-game", "/no-such-page", "/rules/chess", "/new/chess", "/g/no-such-game/replay"):
        walk.goto(path)
        walk.check(f"the error page {path}")
    walk.report()


# ----- Omiga's tables --------------------------------------------------------------------------------


def table(server: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    status, made = call(server, "/api/omiga", {"options": options, "seats": seats})
    assert status == 201, made
    return made


def table_fragment(made: dict[str, Any]) -> str:
    here = ",".join(f"{seat}.{token}" for seat, token in made["tokens"].items())
    invites = ",".join(f"{seat}.{link.rsplit('.', 1)[1]}" for seat, link in made.get("invitations", {}).items())
    return "#" + "&".join(part for part in (f"seats={here}" if here else "", f"invite={invites}" if invites else "") if part)


def wait_until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the page did not get there in time"
        time.sleep(0.1)


def test_omiga_tables_in_russian(walk: Walk, server: str) -> None:
    page = walk.page
    slow_bot = {"kind": "bot", "strategy": "random", "speed": "toddler"}
    # Before the signal: the invited friend has not opened the table.
    waiting = table(server, {"variant": "base", "width": 6, "height": 5}, [{"kind": "here"}, {"kind": "invite"}])
    walk.goto(f"/o/{waiting['id']}{table_fragment(waiting)}", live=True)
    expect(page.locator("#invites")).to_be_visible()
    walk.check("Omiga: waiting for the invited player")
    # Live against a slow bot, with a refused card.
    live = table(server, {"variant": "base", "width": 6, "height": 5}, [{"kind": "here"}, slow_bot])
    walk.goto(f"/o/{live['id']}{table_fragment(live)}", live=True)
    expect(page.locator("#status .countdown")).to_be_visible()
    walk.check("Omiga: the countdown to the signal")
    expect(page.locator("#actions button, #my-hands .hand-card").first).to_be_visible()
    wait_until(lambda: page.evaluate("() => !document.querySelector('#status .countdown')"))
    page.locator("#my-hands .hand-card").first.click()
    page.locator("#table [data-cell]:not([data-fits])").last.click()
    expect(page.locator("#message")).to_be_visible()
    walk.check("Omiga: a refused card")
    walk.shot("omiga-refused")
    status, _ = call(server, f"/api/omiga/{live['id']}/resign", {"token": live["tokens"]["0"], "seq": int(time.time() * 1e6)})
    assert status == 200
    expect(page.locator("#status.result")).to_be_visible()
    walk.check("Omiga: a finished table")
    # The other modes.
    for name, options, seats in (
        ("2v2", {"variant": "2v2", "width": 6, "height": 5}, [{"kind": "here"}, slow_bot, slow_bot, slow_bot]),
        ("kids", {"variant": "kids", "pace": "turns"}, [{"kind": "here"}, {"kind": "bot"}]),
        ("toddler", {"variant": "toddler", "players": 3}, [{"kind": "here"}, {"kind": "bot"}, {"kind": "bot"}]),
        ("zen", {"variant": "zen"}, [{"kind": "here"}]),
    ):
        made = table(server, options, seats)
        walk.goto(f"/o/{made['id']}{table_fragment(made)}", live=True)
        walk.check(f"Omiga {name}")
        if name == "zen":
            page.click("#zen-hint-button")
            page.locator("#actions button").first.click()  # start with a colour
            expect(page.locator("#moves li")).to_have_count(1)
            page.locator("#actions button").first.click()  # draw
            expect(page.locator("#my-hands .hand-card").first).to_be_visible()
            walk.check("Omiga zen, cards drawn")
            walk.shot("omiga-zen")
            page.locator("#table [data-cell]").first.click()
            walk.check("Omiga zen, a refused card")
    walk.report()


def test_some_russian_pages_on_a_phone(browser: Any, server: str, shots: Path) -> None:
    """Screenshots at a phone's size (looked at by hand); the words are the same as on a wide page."""
    made = create(server, "oddy", BOARD_GAMES["oddy"])
    page = new_page(browser, PHONE)
    page.context.add_cookies([{"name": "lang", "value": "ru", "url": server}])
    page.goto(f"{server}/g/{made['id']}{seats_fragment(made)}")
    expect(page.locator("#link-state")).to_have_text(LIVE)
    page.screenshot(path=str(shots / "ru-oddy-phone.png"), full_page=True)
    page.goto(server + "/new/omny")
    page.screenshot(path=str(shots / "ru-new-omny-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
