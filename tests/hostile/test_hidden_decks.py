"""A card table's hidden information reaches nobody while the game is on. The rules hide the order of
the cards in each deck (hands and discard piles lie face up), and the `seed` option fixes that
order: with `ogames.load("omiga", seed=…)` anyone could deal the decks again and know which cards
will come. So, against the server as a process, over HTTP and WebSockets:

- a table played against someone (a bot or another person) is dealt from the server's secret seed,
  drawn from the option's whole range; a seed its creator gives is refused by the API (nothing is
  stored), and the form offers it for zen only; only zen, one person alone, may choose its seed;
- while a table of any mode is live, no answer — its view, its page, the record download, its
  socket's messages, the home page, the open games, the board games' routes — nor the server's
  log holds the seed (as a number anywhere in the raw text) or a deck's order; the record download
  leaves the seed null, and replaying such a record is refused with the reason;
- once the game is over, the download is the whole stored record, seed included, and it replays.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import DEADLINE, Server, rows, running, wait_view

import ogames
from conformance.cases import mode_of, modes_of
from ogames.errors import BadRecord

SMALL = {"width": 7, "height": 5}
SLOW_BOT = {"kind": "bot", "level": 1}  # a card every few seconds: the table stays live while it is looked at
HERE, INVITE = {"kind": "here"}, {"kind": "invite"}
TABLES = {
    "base": ({**SMALL}, [HERE, SLOW_BOT]),
    "kids": ({"variant": "kids", **SMALL}, [HERE, INVITE]),
    "kids in turns": ({"variant": "kids", "pace": "turns", **SMALL}, [HERE, {"kind": "bot"}]),
    "2v2": ({"variant": "2v2", **SMALL}, [HERE, SLOW_BOT, INVITE, SLOW_BOT]),
    "toddler": ({"variant": "toddler", "players": 3, **SMALL}, [HERE, {"kind": "bot"}, INVITE]),
    "zen": ({"variant": "zen"}, [HERE]),
}
CHOSEN = 4_503_599_627_370_497  # a seed a creator might give: 2^52 + 1, a number no page holds by chance


def test_a_table_of_every_omiga_mode_is_dealt_here():
    """Every variant and pace of Omiga the registry offers has a table above (its seats are this test's)."""
    assert {mode_of(ogames.load("omiga", seed=1, **options)) for options, _ in TABLES.values()} == modes_of("omiga")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("decks")) as server:
        yield server


def games_stored(server: Server) -> int:
    return int(rows(server, "SELECT count(*) FROM games")[0][0])


def new_table(server: Server, options: dict[str, Any], seats: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[int, str]]:
    """(the creation's answer, every person's token: the creator's and those in the invitations)."""
    status, made = server.call("/api/omiga", {"options": options, "seats": seats})
    assert status == 201, made
    tokens = {int(seat): token for seat, token in made["tokens"].items()}
    tokens.update({int(seat): link.split(f"seats={seat}.")[1] for seat, link in made["invitations"].items()})
    return made, tokens


def an_action(view: dict[str, Any], seat: int) -> str | None:
    """Something the seat may do now, as its page would send it (None: nothing, or not its turn)."""
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    actions = view["seats"][seat]["actions"]
    return actions[0] if actions else None


def played_over_the_socket(server: Server, table_id: str, tokens: dict[int, str]) -> list[str]:
    """The raw text of every message a page holding the table's people's seats receives while it
    waits for the signal and seat 0 acts once (until the verdict)."""
    seen: list[str] = []
    with server.socket(f"/ws/o/{table_id}") as ws:

        def next_message() -> dict[str, Any]:
            seen.append(ws.recv(timeout=DEADLINE))
            return json.loads(seen[-1])

        view = next_message()
        ws.send(json.dumps({"type": "ready", "tokens": list(tokens.values())}))
        while not (view["type"] == "state" and view["started"] and an_action(view, 0) is not None):
            view = next_message()
            assert not view.get("over"), view  # still on: a slow bot does not win this fast
        ws.send(json.dumps({"type": "act", "action": an_action(view, 0), "token": tokens[0], "seq": 1}))
        while (answer := next_message())["type"] != "verdict":
            pass
        assert answer["accepted"], answer
    return seen


def seeds_in(value: Any) -> list[Any]:
    """Every value under a key `seed`, anywhere in decoded JSON."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "seed"] + [s for v in value.values() for s in seeds_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in seeds_in(v)]
    return []


def lists_in(value: Any) -> list[list[Any]]:
    """Every list anywhere in decoded JSON."""
    if isinstance(value, dict):
        return [found for v in value.values() for found in lists_in(v)]
    if isinstance(value, list):
        return [value] + [found for v in value for found in lists_in(v)]
    return []


def everything_shown(server: Server, table_id: str, made: dict[str, Any], socket: list[str]) -> dict[str, str]:
    """The raw text of every answer anyone may get about a table, by where it came from."""
    shown = {"creation": json.dumps(made), "view": json.dumps(server.call(f"/api/omiga/{table_id}")[1])}
    for path in (f"/o/{table_id}", f"/o/{table_id}/record.json", "/", "/api/open-games", f"/g/{table_id}",
                 f"/g/{table_id}/replay", f"/api/games/{table_id}", f"/g/{table_id}/record.json"):
        status, text, _ = server.page(path)
        assert status in (200, 307, 404), (path, status)
        shown[path] = text
    shown.update({f"socket message {n}": text for n, text in enumerate(socket, start=1)})
    return shown


@pytest.mark.parametrize("mode", list(TABLES))
def test_a_live_table_shows_neither_its_seed_nor_a_decks_order_and_its_finished_record_replays(
        server: Server, mode: str) -> None:
    options, seats = TABLES[mode]
    made, tokens = new_table(server, options, seats)
    table_id = made["id"]
    seed = server.record(table_id)["options"]["seed"]  # only the database holds it
    assert isinstance(seed, int) and 0 <= seed < 2**53
    socket = played_over_the_socket(server, table_id, tokens)
    state = ogames.replay(server.record(table_id))
    decks = [list(supply.cards) for supply in state.supplies.values() if len(supply.cards) >= 2]  # type: ignore[attr-defined]
    assert decks

    for where, text in everything_shown(server, table_id, made, socket).items():
        assert str(seed) not in text, where
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError:
            continue  # a page: the number is not in it, which is all it could show
        assert all(value is None for value in seeds_in(decoded)), where
        for found in lists_in(decoded):
            assert all(found not in (deck, deck[::-1]) for deck in decks), (where, found)
    assert str(seed) not in server.log.read_text()

    # The download of the live table: every action so far, with the seed null; it cannot be replayed.
    live = server.call(f"/o/{table_id}/record.json")[1]
    whole = server.record(table_id)  # a bot may have acted since
    assert live["options"] == {**whole["options"], "seed": None} and live["moves"] == whole["moves"][: len(live["moves"])]
    assert live["moves"] and live["result"] is None
    with pytest.raises(BadRecord, match="seed is hidden"):
        ogames.replay(live)
    status, said = server.call("/api/replay/position", {"record": live, "ply": 0})
    assert status == 422 and "seed is hidden" in said["error"], said

    # Over: the record is public, whole, and replays to the stored game.
    status, verdict = server.call(f"/api/omiga/{table_id}/resign", {"token": tokens[0], "seq": 2})
    assert status == 200 and verdict["accepted"], verdict
    over = wait_view(server, f"/api/omiga/{table_id}", lambda view: view["over"])
    assert over["options"]["seed"] == seed
    record = server.call(f"/o/{table_id}/record.json")[1]
    assert record == server.record(table_id) and record["options"]["seed"] == seed and record["result"]
    assert ogames.replay(record).record() == record
    status, shown = server.call("/api/replay/position", {"record": record, "ply": len(record["moves"])})
    assert status == 200 and shown["over"], shown


def test_the_server_draws_seeds_from_the_options_whole_range(server: Server) -> None:
    """Seeds below 2^31 (the library's old default) could be found by trying them all against the
    cards on the table; the server's come from the whole range, 0 to 2^53−1."""
    seeds = {server.record(new_table(server, *TABLES["kids"])[0]["id"])["options"]["seed"] for _ in range(6)}
    assert len(seeds) == 6 and max(seeds) >= 2**31  # all six below 2^31: a chance of 2^-132


@pytest.mark.parametrize("mode", [mode for mode in TABLES if mode != "zen"])
def test_a_creator_may_not_choose_the_seed_of_a_table_against_someone(server: Server, mode: str) -> None:
    options, seats = TABLES[mode]
    before = games_stored(server)
    for seed in (CHOSEN, 0):
        status, said = server.call("/api/omiga", {"options": {**options, "seed": seed}, "seats": seats})
        assert status == 400 and said["code"] == "bad-option", said
        assert "chosen by the server" in said["error"] and "zen" in said["error"], said
    assert games_stored(server) == before


def test_the_form_offers_the_seed_for_zen_only(server: Server) -> None:
    """The seed is a zen field: sent for another mode (a page without its script sends every field),
    it is left out as any field of another mode is, and the server deals the table."""
    status, form, _ = server.page("/new/omiga")
    assert status == 200 and '<div class="field" data-option="seed" data-applies-to="zen">' in form
    for variant, seats, dealt_from_chosen in (("base", {"seat1_kind": "bot", "seat1_level": "1"}, False), ("zen", {}, True)):
        before = games_stored(server)
        fields = {"opt_variant": variant, "opt_seed": str(CHOSEN), "seat0_kind": "here", **seats}
        status, page = _post_form(server, fields)
        assert status == 200 and games_stored(server) == before + 1, page  # the new table's page
        assert (server.record(_newest_table(server))["options"]["seed"] == CHOSEN) is dealt_from_chosen


def test_zen_alone_may_choose_its_seed_and_still_does_not_show_it_while_live(server: Server) -> None:
    made, tokens = new_table(server, {"variant": "zen", "seed": CHOSEN}, [HERE])
    table_id = made["id"]
    assert server.record(table_id)["options"]["seed"] == CHOSEN
    for text in everything_shown(server, table_id, made, []).values():
        assert str(CHOSEN) not in text
    assert server.call(f"/api/omiga/{table_id}/resign", {"token": tokens[0], "seq": 1})[0] == 200
    assert server.call(f"/o/{table_id}/record.json")[1]["options"]["seed"] == CHOSEN


def _newest_table(server: Server) -> str:
    return str(rows(server, "SELECT id FROM games ORDER BY created_at DESC LIMIT 1")[0][0])


def _post_form(server: Server, fields: dict[str, str]) -> tuple[int, str]:
    """(status, page) of the new-table form sent with these fields."""
    request = urllib.request.Request(server.base + "/new/omiga", data=urllib.parse.urlencode(fields).encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
