"""Cheap theme detectors: each names a pattern it can test exactly in the position and the
solution's first move. A puzzle no detector recognises stays without themes (nothing is guessed).

- `mate-in-1`: the move wins at once (in Omega: it is the game's last stone).
- `block`: the opponent would win at once on the move's cell (Omny, Odd-Y, Onyx).
- `double-threat`: after the move its side has two or more cells that win at once.
- `bridge` (Omny, Odd-Y): the move stands two cells from a stone of its own colour, not touching
  it, with both cells between them empty (the connection can no longer be cut by one stone).
- `edge-template` and `ladder` (Omny, Odd-Y): the move's stone is joined to a side by an edge
  template, and the solution's line runs a ladder along a side; defined exactly in `edges.py`.
- `capture` (Onyx): the move completes a square and takes two stones.
- Omega, by the stone the move places: `merge` (a stone of the opponent's colour joins two or more
  of its groups into one, shrinking its product), `isolate` (a stone of the opponent's colour
  touches none of its groups), `split` (the cell touches two or more groups of the mover's own
  colour and the stone placed there is not of that colour: those groups can no longer join there).
"""

from __future__ import annotations

from collections.abc import Sequence

from ogames.players.solvers import onyx_tactics
from ogames.rules.omega import OmegaState
from ogames.rules.onyx import OnyxState
from ogames.rules.protocol import State
from ogames.rules.stones import StoneState
from ogames.teach.puzzles import edges


def themes(state: State, line: Sequence[str]) -> list[str]:
    """The themes of a puzzle in `state` whose solution is `line` (its first move the one that
    wins), sorted."""
    move = line[0]
    if isinstance(state, OmegaState):
        return sorted(_omega(state, move))
    if isinstance(state, OnyxState):
        return sorted(_onyx(state, move))
    assert isinstance(state, StoneState)
    return sorted(_connection(state, line))


def _wins_at_once(state: StoneState, turn: int, cell: int) -> bool:
    """Whether a stone of colour index `turn` on `cell` ends the game with that colour's win."""
    copy = state.clone()
    copy.turn = turn
    copy.play(state.board.labels[cell], t=0.0)
    return copy.result is not None and copy.result.winner == state.game.colours[turn]


def _connection(state: StoneState, line: Sequence[str]) -> set[str]:
    found: set[str] = set()
    board = state.board
    move = line[0]
    cell = board.index(move)
    mine, theirs = state.turn, 1 - state.turn
    if _wins_at_once(state, mine, cell):
        return {"mate-in-1"}
    if _wins_at_once(state, theirs, cell):
        found.add("block")
    after = state.clone()
    after.play(move, t=0.0)
    empty = [c for c in range(len(board)) if after.stones[c] == 0]
    if sum(_wins_at_once(after, mine, c) for c in empty) >= 2:
        found.add("double-threat")
    near = set(board.neighbours[cell])
    for other in range(len(board)):
        if other == cell or other in near or after.stones[other] != mine + 1:
            continue
        between = near & set(board.neighbours[other])
        if len(between) == 2 and all(after.stones[c] == 0 for c in between):
            found.add("bridge")
            break
    if edges.template_side(after, cell) is not None:
        found.add("edge-template")
    if edges.ladder(state, line):
        found.add("ladder")
    return found


def _onyx(state: OnyxState, move: str) -> set[str]:
    position = onyx_tactics.Position.of(state)
    cell = state.board.index(move)
    colour = position.colour
    if cell in position.threats(colour):
        return {"mate-in-1"}
    found = set()
    if cell in position.threats(3 - colour):
        found.add("block")
    after, captured = position.after(cell)
    if captured:
        found.add("capture")
    if len(after.threats(colour)) >= 2:
        found.add("double-threat")
    return found


def _omega(state: OmegaState, move: str) -> set[str]:
    after = state.clone()
    after.play(move, t=0.0)
    if after.is_over:
        return {"mate-in-1"}  # the game's last stone
    cell = state.board.index(move)
    stone = state.stone_index + 1  # the value of the colour placed now
    own = state.game.colours.index(state.player_colour or "") + 1
    groups = _touching_groups(state, cell)
    found = set()
    if stone != own:
        if len(groups.get(stone, ())) >= 2:
            found.add("merge")
        if not groups.get(stone):
            found.add("isolate")
    if stone != own and len(groups.get(own, ())) >= 2:
        found.add("split")
    return found


def _touching_groups(state: OmegaState, cell: int) -> dict[int, set[int]]:
    """Per colour value, the groups (named by their smallest cell) next to `cell`."""
    stones = state.stones
    neighbours = state.board.neighbours
    found: dict[int, set[int]] = {}
    for start in neighbours[cell]:
        value = int(stones[start])
        if value == 0:
            continue
        seen, frontier = {start}, [start]
        while frontier:
            c = frontier.pop()
            for o in neighbours[c]:
                if o not in seen and stones[o] == value:
                    seen.add(o)
                    frontier.append(o)
        found.setdefault(value, set()).add(min(seen))
    return found
