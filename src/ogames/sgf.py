"""SGF for the hex-board games, in the form HexGui and other Hex tools read (JSON stays the
primary record; SGF is an export and an import).

What is written, for Omny (every board is a hex patch) and Odd-Y on the triangle:

    (;FF[4]GM[11]AP[ogames:0.1.0]SZ[5]PB[ann]PW[bob]RE[W+]OG[oddy]OO[{"board":"triangle",…}]
    ;B[c2];W[swap-sides];W[b3];B[resign])

- `GM[11]` (Hex) and `SZ[w]` or `SZ[w:h]`: the smallest Hex rhombus holding the board (our cell
  labels are HexGui's: column letter, row number, the same six neighbours), so a Hex viewer shows
  every move on its cell; the cells outside the board are simply never played.
- Moves `;B[c3]` / `;W[c3]` by the colour placed; the pie rule is HexGui's `swap-sides` (the
  players exchange colours, the stone stays: after it the same colour moves again); `resign`.
- `PB`/`PW`: the players who started with Black and White; `RE[B+]`, `RE[W+R]` on resignation;
  `KM` the komi in force at the start.
- Private properties carry what Hex has no word for: `OG` the ogames game, `OO` its options (JSON),
  `KC[1.5]` an Omny komi chosen in play (a node of its own). Move times are not kept.

Reading accepts any SGF whose main line is such a game: the game and options come from `OG`/`OO`
or are given by the caller (a plain Hex file has none). Every move is played by the rules and the
result checked against `RE`; anything wrong raises `BadRecord` naming the fault.
"""

from __future__ import annotations

import json
from typing import Any

import ogames
from ogames.boards.graph import HEX
from ogames.boards.hexes import parse_label
from ogames.errors import BadRecord, OgamesError, shown
from ogames.rules.protocol import Game, State, is_board_game, is_board_state

MAX_TEXT = 2_000_000  # characters of an SGF file
MAX_NODES = 20_000
MAX_DEPTH = 1_000  # nested variations
_SWAP = "swap-sides"
_LETTERS = {"black": "B", "white": "W"}
_COLOURS = {"B": "black", "W": "white"}


# ----- writing -------------------------------------------------------------------------------


def writes(game: Game) -> bool:
    """Whether SGF is written for a game: one that declares it (`Game.sgf`), played on a hex board
    with hex labels (not Odd-Y's polar boards)."""
    return game.sgf and is_board_game(game) and game.board.geometry == HEX


def hex_board_check(state: State) -> None:
    """BadRecord unless the game is played on a hex board with hex labels."""
    game = state.game
    if not writes(game):
        what = f"{game.name} {_brief(game.options)}".strip()
        raise BadRecord(f"SGF is written for hex-board games only (omny, oddy on the triangle), not {what}")


def board_size(state: State) -> tuple[int, int]:
    """Columns and rows of the smallest Hex board (rhombus) that holds every cell."""
    if not is_board_state(state):
        raise BadRecord(f"SGF is written for hex-board games only, not {state.game.name}")
    cells = [parse_label(label) for label in state.board.labels]
    return max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1


def to_sgf(record: dict[str, Any] | State) -> str:
    """The SGF text of a record (checked by replaying it first) or of a state."""
    state = record if isinstance(record, State) else ogames.replay(record)
    hex_board_check(state)
    width, height = board_size(state)
    root = {
        "FF": "4",
        "GM": "11",
        "AP": f"ogames:{ogames.__version__}",
        "SZ": str(width) if width == height else f"{width}:{height}",
        "PB": state.players[0],
        "PW": state.players[1],
    }
    if state.result is not None:
        root["RE"] = _LETTERS[state.result.winner] + "+" + ("R" if state.history[-1]["move"] == "resign" else "")
    if "komi" in state.game.options and not state.game.options.get("komi_choice"):  # komi settled before play
        root["KM"] = _number(state.game.options["komi"])
    root["OG"] = state.game.name
    root["OO"] = json.dumps(state.game.jsonable_options(), separators=(",", ":"), sort_keys=True)
    nodes = [";" + "".join(f"{key}[{_escape(value)}]" for key, value in root.items())]
    for entry in state.history:
        move, colour = entry["move"], _LETTERS[entry["by"]]
        if move.startswith("komi="):
            nodes.append(f";KC[{move.partition('=')[2]}]")
        elif move == "swap":
            nodes.append(f";{colour}[{_SWAP}]")
        else:
            nodes.append(f";{colour}[{move}]")
    return _wrap(nodes)


def _wrap(nodes: list[str]) -> str:
    """The game tree with lines of at most about 72 characters, as HexGui writes them."""
    lines, line = [], "("
    for node in nodes:
        if len(line) + len(node) > 72 and line != "(":
            lines.append(line)
            line = ""
        line += node
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _brief(options: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items() if k in ("variant", "board", "sides"))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# ----- reading -------------------------------------------------------------------------------


def parse(text: str | bytes) -> list[list[dict[str, list[str]]]]:
    """The main line of each game tree in an SGF collection: per node, property → values.
    BadRecord (with the position) for anything that is not SGF."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_TEXT:
            raise BadRecord(f"the SGF is larger than {MAX_TEXT // 1_000_000} MB")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadRecord(f"the SGF is not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise BadRecord(f"an SGF is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise BadRecord(f"the SGF is larger than {MAX_TEXT // 1_000_000} MB")
    return _Parser(text).collection()


class _Parser:
    """A small SGF reader (FF[4] grammar) that keeps the first variation of every tree."""

    def __init__(self, text: str):
        self.text, self.at, self.nodes = text, 0, 0

    def fail(self, why: str) -> BadRecord:
        line = self.text.count("\n", 0, self.at) + 1
        return BadRecord(f"not a valid SGF: {why} (line {line}, character {self.at + 1})")

    def skip_space(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at].isspace():
            at += 1
        self.at = at

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.at] if self.at < len(self.text) else ""

    def collection(self) -> list[list[dict[str, list[str]]]]:
        trees = []
        if self.peek() != "(":
            raise self.fail("an SGF starts with '('")
        while self.peek() == "(":
            trees.append(self.tree())
        if self.peek():
            raise self.fail(f"unexpected {shown(self.text[self.at : self.at + 10])} after the game tree")
        return trees

    def tree(self) -> list[dict[str, list[str]]]:
        """One game tree read to its closing parenthesis; its main line (first variations)."""
        main: list[dict[str, list[str]]] = []
        depth, keep = 0, True  # keep: inside the first variation at every level so far
        firsts: list[bool] = []  # per open level: has its first variation been read yet
        while True:
            char = self.peek()
            if char == "(":
                if depth >= MAX_DEPTH:
                    raise self.fail(f"variations nested more than {MAX_DEPTH} deep")
                if firsts and firsts[-1]:
                    keep = False  # a second variation at this level
                firsts.append(False)
                depth += 1
                self.at += 1
                if self.peek() != ";":
                    raise self.fail("a game tree starts with a node ';'")
            elif char == ";":
                if depth == 0:
                    raise self.fail("a node outside any game tree")
                self.at += 1
                node = self.properties()
                self.nodes += 1
                if self.nodes > MAX_NODES:
                    raise self.fail(f"more than {MAX_NODES} nodes")
                if keep:
                    main.append(node)
            elif char == ")":
                self.at += 1
                depth -= 1
                firsts.pop()
                if firsts:
                    firsts[-1] = True
                keep = all(not f for f in firsts)
                if depth == 0:
                    return main
            elif char == "":
                raise self.fail("the file ends inside a game tree (a ')' is missing)")
            else:
                raise self.fail(f"unexpected {shown(char)}")

    def properties(self) -> dict[str, list[str]]:
        node: dict[str, list[str]] = {}
        while True:
            self.skip_space()
            start = self.at
            text = self.text
            while self.at < len(text) and text[self.at].isascii() and text[self.at].isalpha():
                self.at += 1
            name = text[start : self.at]
            if not name:
                return node
            if not name.isupper() or len(name) > 12:
                self.at = start
                raise self.fail(f"property names are capital letters, not {shown(name)}")
            if name in node:
                raise self.fail(f"property {name} twice in one node")
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.fail(f"property {name} has no [value]")
            node[name] = values

    def value(self) -> str:
        self.at += 1  # "["
        out, text, at = [], self.text, self.at
        while True:
            end = text.find("]", at)
            slash = text.find("\\", at)
            if end < 0:
                self.at = len(text)
                raise self.fail("a property value is not closed with ']'")
            if 0 <= slash < end:
                out.append(text[at:slash])  # (a "]" follows, so the escaped character exists)
                out.append("" if text[slash + 1] == "\n" else text[slash + 1])  # a soft line break
                at = slash + 2
                continue
            out.append(text[at:end])
            self.at = end + 1
            return "".join(out)


def from_sgf(text: str | bytes, game: str | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ogames record (version 1, without move times) of an SGF game: its first game tree's
    main line, played by the rules. The game and options come from the file's OG/OO properties or
    from the arguments (which win). BadRecord naming the fault for anything wrong."""
    trees = parse(text)
    nodes = trees[0]
    if not nodes:
        raise BadRecord("the SGF holds no node")
    root = nodes[0]
    if _one(root, "GM", "11") != "11":
        raise BadRecord(f"GM[{_one(root, 'GM')}] is not Hex (GM[11]): only hex-board games are read")
    if _one(root, "FF", "4") not in ("3", "4"):
        raise BadRecord(f"FF[{_one(root, 'FF')}] is not an SGF version read here (3 or 4)")
    state = _start(root, game, options)
    hex_board_check(state)
    _check_size(root, state)
    for number, node in enumerate(nodes, start=0):
        _play_node(state, node, number, root_node=number == 0)
    _check_result(root, state)
    record = state.record()
    for entry in record["moves"]:
        entry.pop("t", None)
    return ogames.replay(record).record()


def _one(node: dict[str, list[str]], name: str, default: str | None = None) -> str | None:
    values = node.get(name)
    if values is None:
        return default
    if len(values) != 1:
        raise BadRecord(f"property {name} has {len(values)} values, one is expected")
    return values[0].strip()


def _start(root: dict[str, list[str]], game: str | None, options: dict[str, Any] | None) -> State:
    name = game if game is not None else _one(root, "OG")
    if name is None:
        raise BadRecord("the SGF does not say which ogames game it is (no OG property): give the game and its options")
    written: dict[str, Any] = {}
    if options is None and _one(root, "OO") is not None:
        try:
            written = json.loads(_one(root, "OO") or "")
        except (ValueError, RecursionError):
            raise BadRecord("the OO property (the game's options) is not JSON") from None
        if not isinstance(written, dict):
            raise BadRecord("the OO property (the game's options) is not a JSON object")
    players = [_one(root, "PB", "player 1") or "player 1", _one(root, "PW", "player 2") or "player 2"]
    if any(len(p) > 200 for p in players):
        raise BadRecord("a player name (PB, PW) is longer than 200 characters")
    try:
        return ogames.load(name, **(written if options is None else options)).new_state(players)
    except OgamesError as exc:
        raise BadRecord(f"the SGF's game cannot be set up: {exc}") from None
    except TypeError as exc:
        raise BadRecord(f"the SGF's game options are not valid: {exc}") from None


def _check_size(root: dict[str, list[str]], state: State) -> None:
    size = _one(root, "SZ")
    if size is None:
        return
    width, height = board_size(state)
    expected = str(width) if width == height else f"{width}:{height}"
    if size.replace(" ", "") != expected:
        raise BadRecord(f"SZ[{shown(size)}] does not fit the board of {state.game.name}: the board needs SZ[{expected}]")


def _play_node(state: State, node: dict[str, list[str]], number: int, root_node: bool) -> None:
    moves = [key for key in ("B", "W", "KC") if key in node]
    if len(moves) > 1:
        raise BadRecord(f"node {number} makes more than one move ({', '.join(moves)})")
    if not moves:
        for setup in ("AB", "AW", "AE"):
            if setup in node:
                raise BadRecord(f"node {number}: set-up stones ({setup}) are not moves of a game and cannot be read")
        return
    key = moves[0]
    value = _one(node, key) or ""
    where = f"node {number}"
    if key == "KC":
        _play(state, f"komi={value}", where)
        return
    colour = _COLOURS[key]
    move = value.lower()
    if move == "resign":
        if state.is_over:
            raise BadRecord(f"{where}: {key}[resign] after the game ended")
        state.resign(colour, t=0.0)
        return
    if state.to_move != colour and not state.is_over:
        raise BadRecord(f"{where}: {key}[{shown(value)}] but it is {state.to_move}'s turn")
    if move == "swap-pieces" or move == "swap":
        why = "(the stone reflected and recoloured) is not the pie rule here; write swap-sides"
        raise BadRecord(f"{where}: {shown(value)} {why}")
    if move == _SWAP:
        move = "swap"
    elif not move:
        raise BadRecord(f"{where}: {key}[] (a pass) is not a move in {state.game.title}")
    _play(state, move, where)


def _play(state: State, move: str, where: str) -> None:
    try:
        state.play(move, t=0.0)
    except OgamesError as exc:
        raise BadRecord(f"{where}: {exc}") from None


def _check_result(root: dict[str, list[str]], state: State) -> None:
    said = _one(root, "RE")
    if said is None or said.strip() in ("", "?", "Void"):
        return
    text = said.strip().upper()
    if text[:2] not in ("B+", "W+"):
        raise BadRecord(f"RE[{shown(said)}] is not a result of this game (B+ or W+)")
    winner = _COLOURS[text[0]]
    if state.result is None and text[2:] in ("R", "RESIGN"):
        state.resign("white" if winner == "black" else "black", t=0.0)  # a resignation written only in RE
    if state.winner != winner:
        got = state.winner or "nobody yet"
        raise BadRecord(f"RE[{shown(said)}] says {winner} won, but the moves give {got}")
