"""The learned move policy's weights for three-player Omega (`kernels/omega_policy.py`), fitted to
the root visits of long searches by `tools/fit_omega_policy.py` and shipped beside this module as
`omega_policy_3.json` (with the fit's held-out log-loss)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ogames.kernels.omega_policy import NF

HERE = Path(__file__).resolve().parent


@cache
def _weights() -> tuple[float, ...]:
    path = HERE / "omega_policy_3.json"
    weights = np.asarray(json.loads(path.read_text(encoding="utf-8"))["weights"], dtype=np.float64)
    if weights.shape != (NF,):
        raise ValueError(f"{path.name}: weights of shape {weights.shape}, not {(NF,)}")
    return tuple(weights)


def policy_weights() -> npt.NDArray[np.float64]:
    """The policy's weights (NF of them), a fresh array."""
    return np.array(_weights(), dtype=np.float64)


__all__ = ["policy_weights"]
