"""The learned evaluation's weights for Omega with three and four players (`kernels/omega_eval.py`),
fitted to self-play by `tools/fit_omega_eval.py` and shipped beside this module as
`omega_eval_<players>.json` (with the fit's log-loss on held-out games)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ogames.kernels.omega_eval import NF, PHASES

HERE = Path(__file__).resolve().parent


@cache
def _weights(players: int) -> tuple[float, ...]:
    path = HERE / f"omega_eval_{players}.json"
    table = np.asarray(json.loads(path.read_text(encoding="utf-8"))["weights"], dtype=np.float64)
    if table.shape != (PHASES, NF):
        raise ValueError(f"{path.name}: weights of shape {table.shape}, not {(PHASES, NF)}")
    return tuple(table.ravel())


def omega_weights(players: int) -> npt.NDArray[np.float64]:
    """The flat weights (PHASES × NF) for a table of `players` (3 or 4); four players use their own."""
    return np.array(_weights(min(max(players, 3), 4)), dtype=np.float64)


__all__ = ["omega_weights"]
