"""Omega (Néstor Romeral Andrés), RULES.md §3: 2–4 players on a hexagon; each turn places one
stone of every colour in play; a colour scores the product of its group sizes.

How the rule book maps onto the protocol:

- **Turns.** A turn is p consecutive `play(label)` calls by one player: White's stone, then
  Black's, … (`to_move` is the colour of the next stone; `mover` is the seat whose turn it is;
  `player_colour` is the colour that seat holds). `play("e5 c3")` makes several placements at once
  (all or nothing). History and records hold one entry per turn, `{"move": "e5 c3", "by": <colour
  of the player whose turn it was>}`; an unfinished last turn is stored as a shorter entry.
- **End.** Just before White's turn (the start of a round), if fewer than p² cells are empty, the
  game ends. Every round places p² stones, so a game always ends with (cells mod p²) empty cells.
- **Score.** The product of the sizes of all a colour's groups, as an exact Python int; a colour
  without stones scores 1 (the empty product). Highest score wins; among tied colours the one later
  in colour order wins, so a single game is never drawn.
- **Pie rule** (`pie`): seat 0 plays a normal turn; then each later seat in seating order either
  plays a turn or swaps colours with one previous seat (`swap <colour>`, naming the colour that
  seat holds now; plain `swap` when there is only one previous seat, the only form listed in
  2-player games). Afterwards the player of colour n + 1 continues, n = the number of seats that
  played (White if n = p). Seats change, stones never do.
- **Match** (`match`, 2 players only, never with `pie`): two games, colours exchanged for the
  second. The state plays game 1, then game 2 on an empty board with the owners exchanged
  (`game_number`, `game_scores`, `seat_totals`). The player with the higher total wins: `winner` is
  the colour that player holds at the end (in game 2). Equal totals are a draw — the rule book
  gives no tie-break for a match, and the colour tie-break of a single game favours each player
  once over the two games, so it cannot decide.
- **Resign** (always allowed, for the player whose turn it is unless a colour is named): the game
  ends at once and the resigning colour cannot win; among the others the highest current score
  wins, with the usual later-colour tie-break (in 2 players: the other colour). In a match,
  resigning gives up the whole match: the other player wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from ogames.boards import Board, hexagon
from ogames.errors import IllegalMove, UnknownLabel
from ogames.kernels import omega as kernel
from ogames.kernels.flood import components
from ogames.rules.actions import ActionSpace
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import Game, OmegaFacts, Placing, Result, State, _stamp, check_move_text, occupied
from ogames.wording import Each, Said, say

if TYPE_CHECKING:
    from ogames.rules.protocol import Stones

COLOURS = ("white", "black", "red", "blue")


class Omega(Game):
    """Omega: place one stone of every colour per turn; score the product of your group sizes."""

    name = "omega"
    title = "Omega"
    summary = "2–4 players place one stone of every colour each turn; a colour scores the product of its group sizes."
    max_players = 4
    most_colours = MappingProxyType({"players": 4})
    option_set = OptionSet(
        (
            Option("players", "int", 2, "number of players (2–4): white, black, red, blue", minimum=2, maximum=4),
            Option("size", "int", 5, "side of the hexagonal board, 4 to 12 cells", minimum=4, maximum=12),
            Option("pie", "bool", False, "pie rule: after the first turn, later players may swap colours with a previous one"),
            Option("match", "bool", False, "two-game tournament match, colours exchanged for the second; summed scores decide"),
        )
    )

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        if options["match"] and options["pie"]:
            raise self.fail("omega: the pie rule can't be applied in a tournament match (match=on with pie=on)")
        if options["match"] and options["players"] != 2:
            raise self.fail(f"omega: a tournament match is for 2 players, not players={options['players']}")
        return options

    @property
    def colours(self) -> tuple[str, ...]:
        return COLOURS[: self.options["players"]]

    @cached_property
    def board(self) -> Board:
        """The hexagon of side `size`."""
        return hexagon(self.options["size"])

    @cached_property
    def actions(self) -> ActionSpace:
        """The integer action space (`rules/actions.py`): the cells, then with the pie `swap` (two
        players) or `swap <colour>` for every colour (three or four), at n + the colour's index."""
        if not self.options["pie"]:
            specials: list[str] = []
        else:
            specials = ["swap"] if self.options["players"] == 2 else [f"swap {c}" for c in self.colours]
        return ActionSpace(self.board, specials)

    @property
    def star_cells(self) -> frozenset[int]:
        """Omega has no star cells."""
        return frozenset()

    @property
    def end_empty(self) -> int:
        """How many cells every game leaves empty: each round fills p² cells, the game stops below p²."""
        p = int(self.options["players"])
        return len(self.board) % (p * p)

    @property
    def max_game_length(self) -> int:
        """Every cell (a stone is an action) and a swap a seat; a match's two games, every cell each."""
        return 2 * len(self.board) if self.options["match"] else len(self.board) + self.seat_count

    def new_state(self, players: Sequence[str] | None = None) -> OmegaState:
        return OmegaState(self, players)


class OmegaState(State):
    """An Omega position: the stones, whose turn it is, which colour's stone comes next."""

    game: Omega
    mutable_fields = ("stones", "finished")
    last_captures: Sequence[str] = ()  # Omega captures nothing

    def __init__(self, game: Omega, players: Sequence[str] | None = None):
        super().__init__(game, players)
        self.board: Board = game.board
        self.p = len(game.colours)
        self.stones: Stones = np.zeros(len(self.board), dtype=np.int8)  # 0 empty, k + 1 for colour k
        self.stone_index = 0  # colour of the next stone within the current turn
        self.turn_colour = 0  # whose turn it is by colour (outside the pie phase)
        self.pie_seat: int | None = 0 if game.options["pie"] else None  # seat to act in the pie phase
        self.played = 0  # seats that played (rather than swapped) in the pie phase
        self.game_number = 1
        self.finished: list[dict[str, Any]] = []  # match: each finished game's scores, owners and stones

    # ----- whose turn ------------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        return None if self.result else self.game.colours[self.stone_index]

    @property
    def mover(self) -> int | None:
        """The seat whose turn it is: it places every colour's stone of the turn."""
        if self.result:
            return None
        if self.pie_seat is not None:
            return self.pie_seat
        return self.owner[self.game.colours[self.turn_colour]]

    @property
    def player_colour(self) -> str | None:
        """The colour held by the player whose turn it is (what records write as "by")."""
        seat = self.mover
        return None if seat is None else self.colour_of(seat)

    def colour_of(self, seat: int) -> str:
        """The colour a seat holds now (each seat holds exactly one)."""
        return next(colour for colour, owner in self.owner.items() if owner == seat)

    @property
    def placements(self) -> int:
        """Stones on the current game's board."""
        return int(np.count_nonzero(self.stones))

    @property
    def empty_count(self) -> int:
        """Empty cells on the current game's board."""
        return len(self.board) - self.placements

    # ----- board and scores ------------------------------------------------------------------
    def stone_at(self, label: str) -> str | None:
        value = self.stones[self.board.index(label)]
        return None if value == 0 else self.game.colours[value - 1]

    def histogram(self) -> np.ndarray:
        """Group-size histogram of the current board: `[k, s]` = colour k's groups of size s."""
        hist = kernel.new_histogram(self.p, len(self.board))
        kernel.size_histogram(self.stones, self.board.neighbour_table, self.p, hist)
        return hist

    @property
    def scores(self) -> dict[str, int]:
        """Each colour's score on the current board: the product of its group sizes (1 without stones)."""
        return dict(zip(self.game.colours, kernel.scores_from_histogram(self.histogram()), strict=True))

    def groups(self, colour: str) -> list[list[str]]:
        """A colour's groups as lists of labels, largest first."""
        value = self._colour_value(colour)
        labels = np.empty(len(self.board), dtype=np.int32)
        found = components(self.stones != value, self.board.neighbour_table, labels)
        cells: list[list[str]] = [[] for _ in range(found)]
        for cell in np.flatnonzero(labels >= 0):
            cells[labels[cell]].append(self.board.labels[cell])
        return sorted(cells, key=len, reverse=True)

    def group_sizes(self, colour: str) -> list[int]:
        """The sizes of a colour's groups, largest first."""
        return [len(group) for group in self.groups(colour)]

    def _colour_value(self, colour: str) -> int:
        if colour not in self.game.colours:
            raise ValueError(f"{colour!r} is not a colour in this game ({', '.join(self.game.colours)})")
        return self.game.colours.index(colour) + 1

    # ----- what the faces show (BoardState) ----------------------------------------------------
    def winning_cells(self) -> list[str]:
        """The winner's stones once the game has ended by its rules (none after a resignation or
        on a drawn match), sorted."""
        result = self.result
        if result is None or result.winner == "draw" or (self.history and self.history[-1]["move"] == "resign"):
            return []
        value = self._colour_value(result.winner)
        return sorted(self.board.labels[c] for c in np.flatnonzero(self.stones == value))

    def facts(self) -> OmegaFacts:
        """The winner's stones, each colour's group sizes and which stone of the turn comes next."""
        groups = {colour: tuple(self.group_sizes(colour)) for colour in self.game.colours}
        placing = None if self.is_over else Placing(self.stone_index + 1, self.p)
        return OmegaFacts(winning=tuple(self.winning_cells()), groups=groups, placing=placing)

    @property
    def game_scores(self) -> list[dict[str, int]]:
        """Scores by colour of each finished game of a match (the current one excluded)."""
        return [dict(done["scores"]) for done in self.finished]

    @property
    def seat_totals(self) -> list[int]:
        """Per seat, the sum of its scores over the finished games of a match."""
        totals = [0] * len(self.players)
        for done in self.finished:
            for colour, seat in done["owner"].items():
                totals[seat] += done["scores"][colour]
        return totals

    # ----- moves -----------------------------------------------------------------------------
    def swap_options(self) -> list[str]:
        """The swap moves open now (pie phase, at the start of a later seat's turn), canonical form."""
        if self.result or self.pie_seat is None or self.pie_seat == 0 or self.stone_index != 0:
            return []
        if self.pie_seat == 1 and self.p == 2:
            return ["swap"]
        return [f"swap {colour}" for colour in self.game.colours if self.owner[colour] < self.pie_seat]

    def legal_moves(self) -> list[str]:
        if self.result:
            return []
        return [self.board.labels[c] for c in np.flatnonzero(self.stones == 0)] + self.swap_options()

    def apply(self, move: str) -> dict[str, Any]:
        words = move.split()
        if not words:
            raise IllegalMove(move, say("empty-move", "an empty move: give a cell label, swap or resign"))
        if words[0] == "swap":
            return self._swap(move, words[1:])
        if len(words) != 1:
            raise IllegalMove(move, say("one-placement", "one placement at a time here (play() accepts several labels)"))
        try:
            cell = self.board.index(words[0])
        except UnknownLabel as exc:
            raise IllegalMove(move, exc.said) from None
        if self.stones[cell] != 0:
            raise IllegalMove(move, occupied(self.board.labels[cell], self.game.colours[self.stones[cell] - 1]))
        self.stones[cell] = self.stone_index + 1
        self.stone_index += 1
        if self.stone_index == self.p:
            self.stone_index = 0
            self._end_turn(played=True)
        return {"move": self.board.labels[cell]}

    def _swap(self, move: str, rest: list[str]) -> dict[str, Any]:
        if self.pie_seat is None:
            if not self.game.options["pie"]:
                raise IllegalMove(move, say("pie-off", "the pie rule is off in this game"))
            raise IllegalMove(move, say("pie-over",
                                        "the time for swapping is over: only the players of the first round may swap"))
        if self.pie_seat == 0:
            raise IllegalMove(move, say("pie-first-player",
                                        "the first player plays a normal turn: swapping starts with the second"))
        if self.stone_index != 0:
            raise IllegalMove(move, say("swap-whole-turn",
                                        "a swap replaces a whole turn, and stones of this turn are placed already"))
        previous = [c for c in self.game.colours if self.owner[c] < self.pie_seat]
        if len(rest) > 1:
            raise IllegalMove(move, say("swap-form", "write swap or swap <colour>"))
        if not rest:
            if len(previous) != 1:
                raise IllegalMove(move, say("swap-whom", "say whose colour to take: {colours}", colours=previous))
            target = previous[0]
        else:
            target = rest[0]
            if target not in self.game.colours:
                raise IllegalMove(move, say("not-a-colour", "{colour} is not a colour in this game ({colours})",
                                            colour=repr(target), colours=list(self.game.colours)))
            if target not in previous:
                raise IllegalMove(move, say("swap-not-previous",
                                            "{colour} is not played by an earlier player (you may take: {colours})",
                                            colour=target, colours=previous))
        mine = self.colour_of(self.pie_seat)
        self.owner[mine], self.owner[target] = self.owner[target], self.owner[mine]
        self._end_turn(played=False)
        return {"move": "swap" if self.p == 2 else f"swap {target}"}

    def _end_turn(self, *, played: bool) -> None:
        """Pass the turn on; at the start of a round (White's turn), end the game if a round cannot be played."""
        if self.pie_seat is not None:
            self.played += played
            self.pie_seat += 1
            if self.pie_seat < self.p:
                return
            self.pie_seat = None
            self.turn_colour = self.played % self.p  # colour n + 1 (1-based), White when everyone played
        else:
            self.turn_colour = (self.turn_colour + 1) % self.p
        if self.turn_colour == 0 and self.empty_count < self.p * self.p:
            self._finish_game()

    def _finish_game(self) -> None:
        scores = self.scores
        if self.game.options["match"] and self.game_number == 1:
            self.finished.append({"scores": scores, "owner": dict(self.owner), "stones": self.stones.copy()})
            self.game_number = 2
            self.stones = np.zeros_like(self.stones)
            self.turn_colour = self.stone_index = 0
            white, black = self.game.colours
            self.owner[white], self.owner[black] = self.owner[black], self.owner[white]
            return
        if self.game.options["match"]:
            self.finished.append({"scores": scores, "owner": dict(self.owner), "stones": self.stones.copy()})
            self.result = self._match_result()
            return
        winner = best_colour(scores, self.game.colours)
        listed = _score_list(scores)
        tied = Each(colour for colour in scores if colour != winner and scores[colour] == scores[winner])
        if tied:  # the rule a player may not know: say it, and with whom the winner tied
            self.result = Result(winner, say("omega-tie", "tied for the highest score with {colours}, and a tie goes to "
                                             "the colour that places later: {scores}", colours=tied, scores=listed))
        else:
            self.result = Result(winner, say("omega-highest", "highest score: {scores}", scores=listed))

    def _match_result(self) -> Result:
        totals = self.seat_totals
        shown = [say("score-item", "{name} {score}", name=self.players[seat], score=total) for seat, total in enumerate(totals)]
        if totals[0] == totals[1]:
            return Result("draw", say("omega-match-equal", "equal match totals: {scores}", scores=shown))
        best = 0 if totals[0] > totals[1] else 1
        return Result(self.colour_of(best), say("omega-match-higher", "higher match total: {scores}", scores=shown))

    # ----- playing, resigning, undoing, records ----------------------------------------------
    def play(self, move: str, *, t: float | None = None) -> Self:
        """Place the next stone (or several: "e5 c3", all or nothing), swap in the pie phase, or
        resign; `undo` takes back one placement at once."""
        return self.keeping_undo(self._play, move, t)

    def _play(self, move: str, t: float | None) -> Self:
        key = " ".join(check_move_text(move).split())
        stamp = _stamp(t, move)  # the time is checked before anything changes
        if self.result is not None:
            raise IllegalMove(move, say("game-over", "the game is over: {result}", result=self.result.describe()))
        if key == "resign":
            return self.resign(self.player_colour, t=stamp)
        words = key.split()
        if len(words) > 1 and words[0] != "swap":
            return self._play_several(move, words, t)
        by, starts_turn = self.player_colour, self.stone_index == 0
        entry = self.apply(key)
        # One history entry per turn: a placement that does not start a turn extends the last entry
        # (by replacing it: entries are never changed once made, so copies may share them).
        if starts_turn or not self.history:
            self.history.append({**entry, "by": by, "t": stamp})
        else:
            last = self.history[-1]
            self.history[-1] = {**last, "move": last["move"] + " " + entry["move"], "t": stamp}
        return self

    def _play_several(self, move: str, words: list[str], t: float | None) -> Self:
        """Several placements in one call: tried on a copy first, so an error changes nothing."""
        if len(words) > self.p - self.stone_index:
            raise IllegalMove(move, say("stones-left", "stones left to place in this turn: {n}", n=self.p - self.stone_index))
        for word in words:
            if not self.board.has(word):
                raise IllegalMove(move, say("not-a-cell-of-several",
                                            "{word} is not a cell of this board (several words are placements only)",
                                            word=repr(word)))
        trial = self.clone()
        for word in words:
            try:
                trial.play(word, t=t)
            except IllegalMove as exc:
                raise IllegalMove(move, say("placement-refused", "{cell}: {reason}", cell=word, reason=exc.reason)) from None
        self.__dict__.update(trial.__dict__)
        return self

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """The owner of a colour (default: the player whose turn it is) gives up; `undo` takes it back at once."""
        self.keeping_undo(super().resign, self.player_colour if colour is None else colour, t=t)
        return self

    def resign_result(self, colour: str) -> Result:
        """The game ends; the best current score among the other colours wins (later colour on a tie).
        In a match the other player wins the match."""
        if self.game.options["match"]:
            other = next(c for c in self.game.colours if c != colour)
            return Result(other, say("resigned-match", "{colour} resigned the match", colour=colour))
        scores = self.scores
        others = [c for c in self.game.colours if c != colour]
        winner = best_colour({c: scores[c] for c in others}, others)
        if len(others) == 1:
            return Result(winner, say("resigned", "{colour} resigned", colour=colour))
        best = _score_list({c: scores[c] for c in others})
        return Result(winner, say("omega-resigned",
                                  "{colour} resigned; best score among the others: {scores}", colour=colour, scores=best))

    def undo_by_replay(self) -> OmegaState:
        """Take back the last placement (or swap, or resignation), by replaying everything before it."""
        if not self.history:
            raise IllegalMove("undo", say("nothing-to-undo", "there is no move to take back"))
        entries = [dict(e) for e in self.history]
        last = entries.pop()
        words = last["move"].split()
        if words[0] not in ("swap", "resign") and len(words) > 1:
            entries.append({**last, "move": " ".join(words[:-1])})
        return self._become_replayed(entries)

    def replay_entry(self, entry: dict[str, Any]) -> None:
        """Make one recorded turn again (a swap, a resignation, or up to p labels starting a turn)."""
        move, by = entry["move"], entry["by"]
        extra = set(entry) - {"move", "by", "t"}
        if extra:
            raise IllegalMove(move, say("record-unknown-fields", "unknown fields in the entry: {fields}", fields=sorted(extra)))
        if move == "resign":
            self.resign(by, t=entry.get("t"))
            return
        if self.result is not None:
            raise IllegalMove(move, say("game-over", "the game is over: {result}", result=self.result.describe()))
        if self.stone_index != 0:
            raise IllegalMove(move, say("record-partial-turn",
                                        "the previous turn is unfinished: only the last entry may be a partial turn"))
        if by != self.player_colour:
            raise IllegalMove(move, say("record-wrong-mover", "the record says {who} moved, but it was {colour}'s turn",
                                        who=by, colour=self.player_colour))
        words = move.split()
        if not words:
            raise IllegalMove(move, say("record-empty-move", "an empty move"))
        if words[0] != "swap":
            if len(words) > self.p:
                raise IllegalMove(move, say("record-turn-size",
                                            "a turn places {n} stones, not {given}", n=self.p, given=len(words)))
            if len(words) != len(set(words)):
                raise IllegalMove(move, say("record-cell-twice", "a cell is named twice"))
        self.play(move, t=entry.get("t"))
        made = self.history[-1]["move"]
        if made != move:
            raise IllegalMove(move, say("record-turn-written", "the record writes the turn as {given}, the rules write {made}",
                                        given=repr(move), made=repr(made)))

    # ----- search ----------------------------------------------------------------------------
    def random_playout(self, rng: random.Random) -> list[float]:
        """Rewards per seat after a random end of the game, played by the compiled kernel.

        Future swaps of the pie phase are not simulated (they move seats, never stones); in a
        match the rest of game 1 and a whole game 2 are played.
        """
        if self.result is not None:
            return self.rewards()
        table, cells = self.board.neighbour_table, len(self.board)
        hist = kernel.new_histogram(self.p, cells)
        colours = self.game.colours
        seed = rng.getrandbits(31)
        found = kernel.playout_histogram(self.stones, table, self.p, self.stone_index, self.game.end_empty, seed, hist)
        if not self.game.options["match"]:
            if found < 0:  # the kernel's logarithms could not separate the best scores: decide exactly
                found = colours.index(best_colour(dict(zip(colours, kernel.scores_from_histogram(hist), strict=True)), colours))
            winner = self.owner[colours[found]]
            return [1.0 if seat == winner else 0.0 for seat in range(len(self.players))]
        scores = kernel.scores_from_histogram(hist)
        totals = self.seat_totals
        owner = dict(self.owner)
        for colour, score in zip(colours, scores, strict=True):
            totals[owner[colour]] += score
        if self.game_number == 1:
            empty = np.zeros_like(self.stones)
            kernel.playout_histogram(empty, table, self.p, 0, self.game.end_empty, rng.getrandbits(31), hist)
            # Game 2: the colours are exchanged.
            for colour, score in zip(colours, kernel.scores_from_histogram(hist), strict=True):
                totals[1 - owner[colour]] += score
        if totals[0] == totals[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if totals[0] > totals[1] else [0.0, 1.0]


def best_colour(scores: dict[str, int], order: Sequence[str]) -> str:
    """The winning colour: the highest score; among tied colours the one later in `order`."""
    return max(scores, key=lambda colour: (scores[colour], order.index(colour)))


def _score_list(scores: dict[str, int]) -> list[Said]:
    """Each colour's score, as the results list them (`white 12, black 8` in English)."""
    return [say("score-item", "{name} {score}", name=colour, score=score) for colour, score in scores.items()]
