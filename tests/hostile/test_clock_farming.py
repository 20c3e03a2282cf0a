"""Take-backs give nobody time. Undo and play again never earns a Fischer increment twice (against
the computer, 60 s grew to 200 s in six such cycles): a person keeps the time it has used and loses
the increments of the moves taken back; the computer's clock goes back to what it had at the
position taken back to. A take-back that would leave a person no time, one after a loss on time,
and an agreement to a request the flag has overtaken are refused and change nothing. The clocks
and their marks survive a restart. The server runs as a process, driven over HTTP."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, new_game, play, running, settled, wait_view

FISCHER = {"minutes": 1, "increment": 30}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("clocks")) as server:
        yield server


def undo(server: Server, game_id: str, token: str) -> tuple[int, dict[str, Any]]:
    version = server.call(f"/api/games/{game_id}")[1]["version"]
    return server.call(f"/api/games/{game_id}/undo", {"token": token, "version": version})


def never_grows(times: list[float]) -> bool:
    return all(later <= earlier for earlier, later in itertools.pairwise(times))


def a_free_cell(view: dict[str, Any]) -> str:
    return next(cell for cell in ("b2", "d2", "b3", "c2", "a3", "e1") if cell in view["legal"])


def test_undo_and_play_again_against_the_computer_earns_nothing(server: Server) -> None:
    made = new_game(server, seats=["here", "computer:1"], clock=FISCHER)
    game_id, token = made["id"], made["tokens"]["0"]
    play(server, game_id, token, "c3")  # each side's first turn is not timed
    settled(server, game_id)
    person, computer = [], []
    for _ in range(6):
        view = play(server, game_id, token, a_free_cell(settled(server, game_id)))
        settled(server, game_id)  # the computer replies; both have earned an increment
        status, view = undo(server, game_id, token)
        assert status == 200 and view["ply"] == 2, view
        stored = server.clock(game_id)
        person.append(stored["remaining"][0])
        computer.append(stored["remaining"][1])
    assert never_grows(person), person
    assert person[-1] <= 60 and computer == [60.0] * 6, (person, computer)  # as at the position taken back to


def test_undo_and_play_again_on_one_screen_earns_nothing(server: Server) -> None:
    made = new_game(server, clock=FISCHER)
    game_id, tokens = made["id"], made["tokens"]
    play(server, game_id, tokens["0"], "c3")
    play(server, game_id, tokens["1"], "a1")
    left = []
    for _ in range(6):
        assert play(server, game_id, tokens["0"], "b2")["clock"]["remaining"][0] > 60  # the increment, earned
        status, view = undo(server, game_id, tokens["1"])
        assert status == 200 and view["ply"] == 2
        left.append(server.clock(game_id)["remaining"][0])
    assert never_grows(left) and left[-1] <= 60, left


def test_an_agreed_take_back_between_people_earns_nothing(server: Server) -> None:
    made = new_game(server, seats=["here", "invite"], clock=FISCHER)
    game_id, host, guest = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    play(server, game_id, host, "c3")
    play(server, game_id, guest, "a1")
    seen = []
    for _ in range(3):
        play(server, game_id, host, "b2")
        play(server, game_id, guest, "e1")  # both have earned an increment
        assert undo(server, game_id, host)[1]["undo_request"] == {"seat": 0, "agreed": []}
        status, view = undo(server, game_id, guest)  # agreed: b2 and e1 go
        assert status == 200 and view["ply"] == 2
        seen.append(server.clock(game_id)["remaining"])
    for seat in (0, 1):
        times = [remaining[seat] for remaining in seen]
        assert never_grows(times) and times[-1] <= 60, seen


def test_a_take_back_that_would_leave_a_person_no_time_is_refused(server: Server) -> None:
    made = new_game(server, seats=["here", "computer:1"], clock={"minutes": 0.05, "increment": 30})  # 3 s + 30
    game_id, token = made["id"], made["tokens"]["0"]
    play(server, game_id, token, "c3")
    play(server, game_id, token, a_free_cell(settled(server, game_id)))  # timed: about 33 s left
    view = settled(server, game_id)
    # The person thinks longer than its 3 s: only the increment keeps its clock going.
    view = wait_view(server, f"/api/games/{game_id}", lambda view: view["clock"]["remaining"][0] < 29.5)
    play(server, game_id, token, a_free_cell(view))
    settled(server, game_id)
    status, view = undo(server, game_id, token)  # the last move: the person keeps what it had before it
    assert status == 200 and view["ply"] == 4 and 0 < server.clock(game_id)["remaining"][0] < 29.5
    before = server.stored(game_id)
    status, said = undo(server, game_id, token)  # the one before too: without its increment, no time is left
    assert status == 409 and said["code"] == "no-undo" and "no time" in said["error"], said
    assert server.stored(game_id) == before


@pytest.mark.parametrize("who", ["hotseat", "computer"])
def test_no_take_back_after_a_loss_on_time(server: Server, who: str) -> None:
    seats = ["here", "computer:1"] if who == "computer" else ["here", "here"]
    made = new_game(server, seats=seats, clock={"minutes": 0.05})  # 3 s
    game_id, tokens = made["id"], made["tokens"]
    play(server, game_id, tokens["0"], "c3")
    if who == "computer":
        settled(server, game_id)
        play(server, game_id, tokens["0"], a_free_cell(settled(server, game_id)))
        settled(server, game_id)  # the person's clock runs, and runs out
    else:
        play(server, game_id, tokens["1"], "a1")
    view = wait_view(server, f"/api/games/{game_id}", lambda view: view["over"])
    assert view["result"]["on_time"]
    before = server.stored(game_id)
    for token in tokens.values():
        status, said = undo(server, game_id, token)
        assert status == 409 and said["code"] == "no-undo" and "lost on time" in said["error"], said
    assert server.stored(game_id) == before


def test_the_flag_falls_while_a_take_back_waits_and_the_late_agreement_is_refused(server: Server) -> None:
    made = new_game(server, seats=["here", "invite"], clock={"minutes": 0.05})  # 3 s
    game_id, host, guest = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    play(server, game_id, host, "c3")
    play(server, game_id, guest, "a1")
    play(server, game_id, host, "b2")  # the guest's clock runs
    assert undo(server, game_id, host)[1]["undo_request"] == {"seat": 0, "agreed": []}
    view = wait_view(server, f"/api/games/{game_id}", lambda view: view["over"])  # a request stops no clock
    assert view["result"]["reason"] == "white lost on time" and view["undo_request"] is None
    before = server.stored(game_id)
    status, said = undo(server, game_id, guest)
    assert status == 409 and said["code"] == "no-undo", said
    assert server.stored(game_id) == before


def test_a_restarted_server_takes_back_with_the_clocks_it_stored(server: Server) -> None:
    made = new_game(server, seats=["here", "computer:1"], clock=FISCHER)
    game_id, token = made["id"], made["tokens"]["0"]
    play(server, game_id, token, "c3")
    play(server, game_id, token, a_free_cell(settled(server, game_id)))
    settled(server, game_id)
    stored = server.clock(game_id)
    assert stored["remaining"][0] > 60 and stored["remaining"][1] > 60  # both earned an increment
    server.restart()
    assert server.clock(game_id) == stored
    status, view = undo(server, game_id, token)
    assert status == 200 and view["ply"] == 2
    after = server.clock(game_id)
    assert after["remaining"][1] == 60.0  # the computer: as at the position taken back to
    assert after["remaining"][0] <= stored["remaining"][0] - 30  # the person: its increment gone, its time used
    assert sorted(after["marks"]) == ["0", "1", "2"]
