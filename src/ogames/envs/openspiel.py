"""The board games as OpenSpiel Python games, so that OpenSpiel's own algorithms (MCTS, CFR,
exhaustive search, its random-simulation checks) run on our rules.

Importing this module registers `ogames_omny`, `ogames_oddy`, `ogames_omega` and `ogames_onyx`
with `pyspiel.register_game`; load them the OpenSpiel way with the games' options as parameters:

    import pyspiel, ogames.envs.openspiel
    game = pyspiel.load_game("ogames_omny", {"variant": "sunder", "size": 3})

Parameters are the options of `ogames.load`; an integer 0 or an empty text means "the game's
default" (OpenSpiel needs a default of a fixed type for each), and Omny's pair of side lengths is
written `sides="5x6"` (a comma would split OpenSpiel's game string). Actions and observation tensors are
those of `ogames.envs.encoding` (the tensor is the planes flattened, shape (planes × cells)).
Returns: +1 for the winner's seat and −1/(p−1) for each other seat (zero-sum), 0 for all on a
draw; Omega also takes `returns="score"`, whose returns are each seat's score (the product of its
colour's group sizes; a match's totals), a general-sum game. OpenSpiel is the optional extra
`openspiel`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import ogames
from ogames.envs.encoding import Encoding, encoding, outcome
from ogames.errors import BadOption
from ogames.rules.omega import OmegaState
from ogames.rules.omny import OmnyState
from ogames.rules.protocol import State, is_board_state
from ogames.rules.stones import StoneState

# Per game: the parameters with OpenSpiel defaults (0 / "" = the rules' own default).
PARAMETERS: dict[str, dict[str, Any]] = {
    "omny": {
        "variant": "y",
        "size": 0,
        "sides": "",
        "shape": "",
        "cells": "",
        "stars": "",
        "komi": 0.0,
        "pie": False,
        "komi_choice": False,
    },
    "oddy": {"sides": 3, "size": 0, "board": "", "pie": True},
    "omega": {"players": 2, "size": 5, "pie": False, "match": False, "returns": "win"},
    "onyx": {"pie": False},
}
_RETURNS = ("win", "score")


def _game_type(name: str, utility: Any = pyspiel.GameType.Utility.ZERO_SUM) -> pyspiel.GameType:
    rules = ogames.rules.game_class(name)
    return pyspiel.GameType(
        short_name=f"ogames_{name}",
        long_name=f"ogames {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[name],
    )


def ogames_options(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The `ogames.load` options of OpenSpiel parameters: defaults dropped, `returns` left out."""
    unset = {key for key, default in PARAMETERS[name].items() if default in (0, "") and not isinstance(default, float)}
    options = {key: value for key, value in params.items() if key != "returns" and not (key in unset and value in (0, ""))}
    if isinstance(options.get("sides"), str):  # Omny's pair of side lengths, "5x6": a comma would split OpenSpiel's game string
        options["sides"] = options["sides"].replace("x", ",")
    return options


def _max_product(stones: int) -> int:
    """The largest product of group sizes `stones` stones can make (threes, and a two or two twos)."""
    if stones <= 4:
        return max(stones, 1)
    threes, rest = divmod(stones, 3)
    if rest == 1:
        return 3 ** (threes - 1) * 4
    return 3**threes * (2 if rest == 2 else 1)


class OgamesGame(pyspiel.Game):
    """One ogames board game with its options, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None):
        params = {**PARAMETERS[name], **(params or {})}
        self.returns_kind = str(params.get("returns", "win"))
        if self.returns_kind not in _RETURNS:
            raise BadOption(f"returns must be one of {', '.join(_RETURNS)}, not {self.returns_kind!r}")
        self.rules = ogames.load(name, **ogames_options(name, params))
        self.encoding: Encoding = encoding(self.rules)
        seats = self.rules.seat_count
        cells = self.encoding.num_cells
        length = self.rules.max_game_length
        utility, low, high, total = pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0, 0.0
        if self.returns_kind == "score":
            games = 2 if self.rules.options["match"] else 1
            utility, low = pyspiel.GameType.Utility.GENERAL_SUM, float(games)
            high = float(games * _max_product(-(-cells // seats)))
            total = 0.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=seats,
            min_utility=low,
            max_utility=high,
            utility_sum=None if utility == pyspiel.GameType.Utility.GENERAL_SUM else total,
            max_game_length=length,
        )
        super().__init__(_game_type(name, utility), info, params)

    def new_initial_state(self, state: Any = None) -> OgamesState:
        """The start of a game."""
        return OgamesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The planes of `ogames.envs.encoding` for the public-information view, else OpenSpiel's own."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PlanesObserver(self.encoding, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Held:
    """The ogames state inside an OpenSpiel state: OpenSpiel clones states by deep-copying their
    attributes and serialises them by pickling; this makes the copy a cheap `clone()` and the
    pickle a record."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return (_held_from_record, (self.state.record(),))


def _held_from_record(record: dict[str, Any]) -> _Held:
    return _Held(ogames.replay(record))


class OgamesState(pyspiel.State):
    """A position of an ogames game, speaking OpenSpiel's state API."""

    def __init__(self, game: OgamesGame):
        super().__init__(game)
        self._held = _Held(game.rules.new_state())
        self._encoding = game.encoding
        self._returns_kind = game.returns_kind

    @property
    def rules_state(self) -> State:
        """The ogames state (read it, do not change it: OpenSpiel keeps its own history)."""
        return self._held.state

    def current_player(self) -> int:
        """The seat to act, or TERMINAL."""
        state = self._held.state
        return pyspiel.PlayerId.TERMINAL if state.is_over else int(state.mover)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.state
        if state.is_over or player != state.mover:
            return []
        return self._encoding.legal_actions(state)

    def _apply_action(self, action: int) -> None:
        self._held.state.play(self._encoding.move(int(action)), t=0.0)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._encoding.move(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._held.state.is_over

    def returns(self) -> list[float]:
        """Per seat: the outcome at the end (0 before), or the scores with returns="score"."""
        state = self._held.state
        if not state.is_over:
            return [0.0] * len(state.players)  # rewards come only at the end
        return _score_returns(state) if self._returns_kind == "score" else outcome(state)

    def __str__(self) -> str:
        return position_text(self._held.state)


def _score_returns(state: Any) -> list[float]:
    """Omega at the end: each seat's score (of the colour it holds; a match: its total over both games)."""
    if state.game.options["match"] and state.game_number == 2 and len(state.finished) == 2:
        return [float(t) for t in state.seat_totals]
    totals = [float(t) for t in state.seat_totals]
    scores = state.scores
    for colour, seat in state.owner.items():
        totals[seat] += scores[colour]
    return totals


def position_text(state: State) -> str:
    """A position in one text: the stones cell by cell (`.` empty, 1… the colour), who is to move,
    who holds which colour, and what else decides the legal moves (komi, the pie phase, the game of a match)."""
    if not is_board_state(state):
        raise TypeError(f"OpenSpiel plays the board games, not {state.game.title}")
    board = "".join("." if v == 0 else str(int(v)) for v in state.stones)
    owners = " ".join(f"{c}={s}" for c, s in state.owner.items())
    extra: list[str] = []
    if isinstance(state, OmnyState):
        extra.append(f"komi={state.komi}")
    if isinstance(state, OmegaState):
        extra += [f"pie_seat={state.pie_seat}", f"game_number={state.game_number}"]
    if isinstance(state, StoneState):
        extra.append(f"swapped={state.swapped}")
    status = f"winner={state.winner}" if state.is_over else f"to_move={state.to_move} mover={state.mover}"
    return f"{board} {status} {owners} {' '.join(extra)}".rstrip()


class PlanesObserver:
    """OpenSpiel's observer interface over the encoding's planes (`tensor` flat, `dict` shaped)."""

    def __init__(self, enc: Encoding, params: Any):
        if params:
            raise BadOption(f"the observer takes no parameters, not {params!r}")
        self._encoding = enc
        self.tensor = np.zeros(int(np.prod(enc.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(enc.shape)}

    def set_from(self, state: OgamesState, player: int) -> None:
        """The planes of a state seen by a seat."""
        self.dict["observation"][:] = self._encoding.observation(state.rules_state, player)

    def string_from(self, state: OgamesState, player: int) -> str:
        """The position as text (the game is of perfect information)."""
        return position_text(state.rules_state)


def _register(name: str) -> None:
    class Game(OgamesGame):
        def __init__(self, params: dict[str, Any] | None = None):
            super().__init__(name, params)

    Game.__name__ = Game.__qualname__ = f"Ogames{name.capitalize()}Game"
    pyspiel.register_game(_game_type(name), Game)


GAMES = ("omny", "oddy", "omega", "onyx")
for _name in GAMES:
    if f"ogames_{_name}" not in pyspiel.registered_names():
        _register(_name)
