"""Where numba keeps the compiled kernels: a folder named after the kernels' own source.

numba's `cache=True` checks only the source file of the function it loads, not the kernels that
function calls in other modules, so after a change to `kernels/flood.py` a cached MCTS kernel
would go on running the old fill. Keying the cache folder by a digest of every module that
compiles kernels makes any such change start from a fresh cache (compiled once, then reused).
Set NUMBA_CACHE_DIR yourself to choose another place.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def kernel_digest(root: Path = PACKAGE) -> str:
    """A digest of every module under `root` that uses numba (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:16]


def configure() -> None:
    """Point numba's cache at the folder of the current kernels, unless NUMBA_CACHE_DIR is set."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = str(base / "ogames" / "numba" / kernel_digest())
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before ogames: its settings are read already
        numba.config.CACHE_DIR = folder


configure()  # on import: `ogames/__init__.py` imports this module before any kernel
