"""numba's cache folder follows the kernels' source, so a changed kernel is never run stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ogames.kernel_cache import kernel_digest


def test_the_digest_changes_with_any_kernel_module_and_only_with_them(tmp_path: Path) -> None:
    (tmp_path / "kernels").mkdir()
    kernel = tmp_path / "kernels" / "flood.py"
    kernel.write_text("from numba import njit\n\ndef fill():\n    return 1\n")
    (tmp_path / "cli.py").write_text("print('no kernels here')\n")
    first = kernel_digest(tmp_path)
    (tmp_path / "cli.py").write_text("print('still no kernels')\n")
    assert kernel_digest(tmp_path) == first  # other code does not throw the cache away
    kernel.write_text("from numba import njit\n\ndef fill():\n    return 2\n")
    assert kernel_digest(tmp_path) != first


def test_importing_ogames_points_numba_at_the_digest_folder() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    code = "import ogames, numba; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith(os.path.join("ogames", "numba", kernel_digest()))


def test_a_chosen_cache_folder_is_kept(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = "import ogames, numba; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path)


def test_numba_imported_first_still_gets_the_folder() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    code = "import numba, ogames; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith(os.path.join("ogames", "numba", kernel_digest()))
