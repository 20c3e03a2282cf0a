"""Playing together in real browsers (Playwright driving Debian's Chromium): two players in their own
browser contexts joined by an invitation link, a spectator who sees every move but cannot move,
a page whose socket drops and comes back to the whole game, undo, and a clock that ticks and falls.

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .serving import COMPUTER_WAIT_MS
from .test_browser import expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py


def start_by_seat(page: Any, server: str, game: str, who: list[str], **fields: str) -> None:
    """Fill a new-game form choosing each seat, and start the game; the page is live on return."""
    page.goto(f"{server}/new/{game}")
    for name, value in fields.items():
        if page.locator(f"select#{name}").count():
            page.select_option(f"#{name}", value)
        else:
            page.fill(f"#{name}", value)
    page.check("input[name=mode][value=seats]")
    for n, choice in enumerate(who, start=1):
        page.select_option(f"#who_{n}", choice)
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")


def frames_of(page: Any) -> list[str]:
    """Every WebSocket frame the page receives from now on."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


def test_two_players_by_invitation_and_a_spectator(browser: Any, server: str, shots: Path) -> None:
    host = new_page(browser)
    start_by_seat(host, server, "omny", ["here", "invite"], opt_size="3")
    link = host.locator("#invite-1").input_value()
    assert link.startswith(server + "/g/") and "#seats=1." in link
    token = link.split("#seats=1.")[1]
    host.screenshot(path=str(shots / "web-invitation.png"))
    expect(host.locator("#seats li").nth(1).locator(".away")).to_have_text(" · not here")  # no page on seat 2 yet
    guest = new_page(browser)  # another browser context: its own storage, no tokens but the link's
    guest.goto(link)
    expect(guest.locator("#link-state")).to_have_text("live")
    expect(host.locator("#seats .away")).to_have_count(0)  # the guest's page is open: here
    assert "#" not in guest.url  # the token left the address bar
    watcher = new_page(browser)
    frames = frames_of(watcher)
    watcher.goto(host.locator("#spectator-link").input_value())
    expect(watcher.locator("#link-state")).to_have_text("live")

    host.click('[data-cell="b2"]')
    expect(guest.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    expect(guest.locator("#status")).to_contain_text("your turn")
    expect(host.locator("#undo")).to_be_visible()  # the host has a move to take back, the guest none yet
    expect(guest.locator("#undo")).to_be_hidden()
    host.click('[data-cell="a1"]')  # not the host's turn: refused, nothing changes
    expect(host.locator("#message")).to_contain_text("not your turn")
    guest.click('[data-cell="a1"]')
    expect(host.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "white")
    expect(watcher.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "white")
    expect(watcher.locator("#moves li")).to_have_count(2)
    # The spectator cannot move, resign or undo; the invitation link is nobody's business but the host's.
    watcher.click('[data-cell="c1"]')
    expect(watcher.locator("#message")).to_contain_text("watching")
    expect(watcher.locator("#resign")).to_be_hidden()
    expect(watcher.locator("#undo")).to_be_hidden()
    expect(watcher.locator("#invitations")).to_be_hidden()
    expect(guest.locator("#invitations")).to_be_hidden()
    watcher.screenshot(path=str(shots / "web-spectator.png"))
    # Between invited people an undo is asked for and agreed to.
    expect(guest.locator("#undo")).to_be_visible()
    host.click("#undo")
    expect(host.locator("#undo-request")).to_contain_text("waiting for the others")
    expect(host.locator("#undo")).to_be_hidden()  # asked already
    expect(guest.locator("#undo-request")).to_contain_text("player 1 asks to take back")
    expect(watcher.locator("#undo-accept")).to_have_count(0)  # a spectator has no say
    guest.screenshot(path=str(shots / "web-undo-request.png"))
    guest.click("#undo-accept")
    expect(host.locator("#moves li")).to_have_count(0)  # the host's move and the guest's reply
    expect(watcher.locator("#moves li")).to_have_count(0)
    expect(guest.locator("#undo-request")).to_be_hidden()
    assert frames and all(token not in frame for frame in frames)
    assert token not in watcher.content()
    for page in (host, guest, watcher):
        page.context.close()


def test_an_open_seat_is_taken_from_the_game_page(browser: Any, server: str) -> None:
    host = new_page(browser)
    start_by_seat(host, server, "omny", ["here", "open"], opt_size="3")
    other = new_page(browser)
    other.goto(host.url)
    expect(other.locator("[data-take-seat='1']")).to_be_visible()
    other.click("[data-take-seat='1']")
    expect(other.locator("[data-take-seat]")).to_have_count(0)
    expect(host.locator("[data-take-seat]")).to_have_count(0)  # taken: gone for everyone
    expect(host.locator("#seats li").nth(1)).to_be_visible()
    expect(host.locator("#seats .away")).to_have_count(0)  # the page that took it says it is here
    host.click('[data-cell="b2"]')
    expect(other.locator("#status")).to_contain_text("your turn")
    other.click('[data-cell="a1"]')
    expect(host.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "white")
    host.context.close()
    other.context.close()


def test_a_dropped_socket_reconnects_to_the_whole_game(browser: Any, server: str) -> None:
    host = new_page(browser)
    start_by_seat(host, server, "omny", ["here", "invite"], opt_size="3")
    link = host.locator("#invite-1").input_value()
    guest = new_page(browser)
    sockets: list[Any] = []
    allowed = {"now": True}

    def route(ws: Any) -> None:  # between the page and the server, so that the test can cut it
        if not allowed["now"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    guest.route_web_socket("**/ws/g/**", route)
    guest.goto(link)
    expect(guest.locator("#link-state")).to_have_text("live")
    host.click('[data-cell="b2"]')
    expect(guest.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    allowed["now"] = False
    sockets[-1].close()  # the connection drops
    expect(guest.locator("#link-state")).to_have_text("reconnecting…")
    guest.click('[data-cell="a1"]')  # while it is down, nothing is sent
    expect(guest.locator("#message")).to_contain_text("reconnecting")
    expect(host.locator("#moves li")).to_have_count(1)
    allowed["now"] = True  # the next retry gets through
    expect(guest.locator("#link-state")).to_have_text("live", timeout=30_000)
    expect(guest.locator("#status")).to_contain_text("your turn")
    guest.click('[data-cell="a1"]')
    expect(host.locator('[data-cell="a1"]')).to_have_attribute("data-stone", "white")
    expect(guest.locator("#moves li")).to_have_count(2)  # its own move's view came back before the drop
    # The host's move made while the guest was away arrives whole when it comes back.
    allowed["now"] = False
    sockets[-1].close()
    expect(guest.locator("#link-state")).to_have_text("reconnecting…")
    expect(host.locator("#seats .away")).to_have_count(1)  # the host sees the guest gone (and the page settled)
    host.click('[data-cell="c1"]')
    expect(host.locator("#moves li")).to_have_count(3)
    expect(guest.locator("#moves li")).to_have_count(2)
    allowed["now"] = True
    expect(guest.locator("#link-state")).to_have_text("live", timeout=30_000)
    expect(guest.locator('[data-cell="c1"]')).to_have_attribute("data-stone", "black")
    expect(guest.locator("#moves li")).to_have_count(3)
    expect(guest.locator("#status")).to_contain_text("your turn")
    host.context.close()
    guest.context.close()


def test_undo_in_hotseat(browser: Any, server: str) -> None:
    page = new_page(browser)
    start_by_seat(page, server, "omny", ["here", "here"], opt_size="3")
    expect(page.locator("#undo")).to_be_hidden()  # nothing to take back yet
    page.click('[data-cell="a1"]')
    page.click('[data-cell="b1"]')  # a quick second click waits for a1's answer (test_browser.py tries it held back)
    expect(page.locator("#moves li")).to_have_count(2)
    page.click("#undo")
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator('[data-cell="b1"]')).not_to_have_attribute("data-stone", "white")
    expect(page.locator("#status")).to_contain_text("White to move")
    page.reload()  # taken back on the server, not only on the page
    expect(page.locator("#moves li")).to_have_count(1)
    page.context.close()


def test_undo_against_the_computer_and_omega_with_three_seats(browser: Any, server: str) -> None:
    page = new_page(browser)
    start_by_seat(page, server, "omega", ["here", "computer:3", "here"], opt_players="3", opt_size="4")
    expect(page.locator("#seats li")).to_have_count(3)
    expect(page.locator("#seats li").nth(1)).to_contain_text("computer (level 3)")
    for _ in range(3):  # seat 1 places one stone of each colour, then the computer plays seat 2
        count = page.locator("[data-cell][data-stone]").count()
        page.locator("[data-cell][data-legal]").first.click()
        expect(page.locator("[data-cell][data-stone]")).to_have_count(count + 1)
    expect(page.locator("#moves li")).to_have_count(2, timeout=COMPUTER_WAIT_MS)
    expect(page.locator("#status")).to_contain_text("your turn")
    # Seat 3 places a stone of every colour: the status names the seat's colour and the stone's.
    expect(page.locator("#status")).to_contain_text("Red to move: the White stone, 1 of 3")
    expect(page.locator("#seats li.to-move")).to_contain_text("player 3")
    page.click("#undo")  # seat 3 is to move: the computer's turn and seat 1's last stone come back
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("[data-cell][data-stone]")).to_have_count(2)
    page.context.close()


def test_a_declined_take_back_is_told_to_the_asker(browser: Any, server: str, shots: Path) -> None:
    host = new_page(browser)
    start_by_seat(host, server, "onyx", ["here", "invite"])
    guest = new_page(browser)
    guest.goto(host.locator("#invite-1").input_value())
    expect(guest.locator("#link-state")).to_have_text("live")
    host.locator("[data-cell][data-legal]").first.click()
    expect(guest.locator("#moves li")).to_have_count(1)
    guest.locator("[data-cell][data-legal]").first.click()
    expect(host.locator("#moves li")).to_have_count(2)
    guest.click("#undo")
    expect(host.locator("#undo-request")).to_contain_text("asks to take back")
    host.click("#undo-decline")
    expect(guest.locator("#undo-request")).to_have_text("Your request to take back your move was declined.")
    expect(host.locator("#undo-request")).to_be_hidden()  # only the asker is told
    expect(guest.locator("#moves li")).to_have_count(2)
    guest.screenshot(path=str(shots / "web-undo-declined.png"))
    host.locator("[data-cell][data-legal]").first.click()  # the game moves on: the notice goes
    expect(guest.locator("#moves li")).to_have_count(3)
    expect(guest.locator("#undo-request")).to_be_hidden()
    host.context.close()
    guest.context.close()


def test_undo_waits_for_a_persons_move_when_the_computer_opens(browser: Any, server: str) -> None:
    page = new_page(browser)
    start_by_seat(page, server, "onyx", ["computer:1", "here"])
    expect(page.locator("#status")).to_contain_text("your turn", timeout=COMPUTER_WAIT_MS)
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#undo")).to_be_hidden()  # the computer's opening is not the person's to take back
    page.locator("[data-cell][data-legal]").first.click()
    expect(page.locator("#moves li")).to_have_count(3, timeout=COMPUTER_WAIT_MS)
    expect(page.locator("#undo")).to_be_visible()
    page.click("#undo")
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#undo")).to_be_hidden()
    page.context.close()


def test_a_clock_ticks_and_a_flag_falls(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    start_by_seat(page, server, "omny", ["here", "here"], opt_size="3", clock_minutes="0.1", clock_increment="0")
    clocks = page.locator("#clocks li")
    expect(clocks).to_have_count(2)
    expect(clocks.first.locator(".time")).to_have_text("6.0")
    page.click('[data-cell="b2"]')  # each seat's first turn is not timed
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#clocks li[data-running]")).to_have_count(0)
    page.click('[data-cell="a1"]')  # now Black's clock runs
    running = page.locator("#clocks li[data-running] .time")
    expect(running).to_be_visible()
    first = float(running.inner_text())
    # It counts down: a second less shows (whenever a busy machine gets round to drawing it).
    page.wait_for_function(
        "([selector, below]) => { const shown = document.querySelector(selector);"
        " return shown && parseFloat(shown.textContent) <= below; }",
        arg=["#clocks li[data-running] .time", first - 1.0],
    )
    page.screenshot(path=str(shots / "web-clock.png"))
    expect(page.locator("#status")).to_contain_text("black lost on time", timeout=15_000)
    expect(page.locator("#clocks li[data-flagged]")).to_contain_text("0.0")
    expect(page.locator("#clocks li[data-running]")).to_have_count(0)
    page.screenshot(path=str(shots / "web-clock-flag.png"))
    page.click('[data-cell="c1"]')
    expect(page.locator("#message")).to_contain_text("over")
    page.context.close()
