"""Monte-Carlo tree search: the `mcts` player (`CompiledMcts`, compiled whole for Omny, Odd-Y,
Omega and Onyx) and the plain UCT it falls back on (`MctsPlayer`, kind `uct`).

The package, by concern:
- `settings.py`: every setting of the search declared once (kind, default, range, help, group),
  and the retired ones with the reason;
- `search.py`: the player (budgets, levels, the connection solver, the opponent model);
- `tree.py`: one tree, kept between moves and searched in batches;
- `parallel.py`: root parallelism, trees in threads merged at the root;
- `report.py` and `info.py`: the move chosen from a root, and `info()`'s typed `SearchInfo`;
- `adapter.py`: one adapter per game between a state and the kernel's arrays and move codes;
- `kernel.py`: the compiled tree search; the games' moves and playouts it calls are the games'
  own (`ogames.kernels.step`, a table of `kernels/<game>.py`'s turn kernels keyed by the game's id);
- `uct.py`: plain UCT in Python for any game of the protocol.
"""

from ogames.players.mcts.info import MIN_PLAYOUTS_FOR_VALUE, Probe, SearchInfo
from ogames.players.mcts.search import CompiledMcts, warm_up
from ogames.players.mcts.settings import RETIRED, SETTINGS, Setting
from ogames.players.mcts.uct import MctsPlayer, Node, Playout, default_playout

__all__ = [
    "MIN_PLAYOUTS_FOR_VALUE",
    "RETIRED",
    "SETTINGS",
    "CompiledMcts",
    "MctsPlayer",
    "Node",
    "Playout",
    "Probe",
    "SearchInfo",
    "Setting",
    "default_playout",
    "warm_up",
]
