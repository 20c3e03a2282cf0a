"""Compile (or load from numba's cache) every kernel the tests and the server use, once, before
anything runs in parallel: the rules' kernels, the search's for each board game, and Omiga's bots'.

`scripts/test.sh` runs it before pytest, so that on a fresh machine (a cold cache) the test
processes and the servers they start load ready kernels instead of each compiling the same ones
at once, which under load made a first computer move take minutes.
"""

from __future__ import annotations

import time

from tool_cli import Parser

import ogames
from ogames.players.levels import omiga_spec
from ogames.players.mcts import warm_up as warm_search
from ogames.rules import available
from ogames.web.core.warm import CONFIGURATIONS, warm_rules
from ogames.web.omiga.ai import warm_up as warm_bot


def main() -> None:
    Parser(description=__doc__.splitlines()[0]).parse_args()  # no options: a stray one is refused, --help helps
    started = time.monotonic()
    for name in available():
        ogames.load(name)
    warm_rules()
    for name, options in CONFIGURATIONS:
        warm_search(ogames.load(name, **options).new_state())
    for level in range(1, 11):
        warm_bot(omiga_spec(level))
    print(f"kernels ready in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
