"""Bot-vs-bot Omiga matches on the simulated clock: seeded, reproducible, with records."""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ogames.errors import BadOption
from ogames.players.omiga.bots import Bot
from ogames.rules import REAL_TIME, load
from ogames.rules.omiga.realtime import RealtimeState


class ClockedPlayer(Protocol):
    """What plays on the simulated clock: a bot, or the scripted person of `players/omiga/person.py`."""

    def decide(self, state: RealtimeState, actor: str, rng: random.Random) -> str | None:
        """The action to send now (without the actor), or None to wait."""
        ...

    def delay(self, rng: random.Random) -> float:
        """The time this decision takes."""
        ...


def play_game(state: RealtimeState, bots: Mapping[str, ClockedPlayer], seed: int, max_time: float = 900.0) -> RealtimeState:
    """Let bots (one per actor) play the state on the simulated clock until it ends or time runs out."""
    rng = random.Random(f"omiga-match:{seed}")
    queue: list[tuple[float, int, str, str | None]] = []
    order = 0

    def schedule(actor: str, now: float) -> None:
        nonlocal order
        bot = bots[actor]
        # The bot looks at the table now; its action arrives after its reaction time.
        action = bot.decide(state, actor, rng)
        heapq.heappush(queue, (now + bot.delay(rng), order, actor, action))
        order += 1

    for actor in state.actors:
        schedule(actor, 0.0)
    while queue and not state.is_over:
        t, _, actor, action = heapq.heappop(queue)
        if t > max_time:
            break
        if action is not None:
            state.submit(actor, action, t)
        schedule(actor, t)
    return state


@dataclass
class MatchReport:
    """Wins per bot, draws and unfinished games of a match, with the records."""

    names: tuple[str, str]
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    unfinished: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played."""
        return sum(self.wins) + self.draws + self.unfinished


def run_match(
    bot_a: Bot, bot_b: Bot, games: int = 10, seed: int = 0, options: dict[str, Any] | None = None, max_time: float = 900.0
) -> MatchReport:
    """Play `games` seeded games, bot A taking White in even games and Black in odd ones."""
    report = MatchReport((bot_a.name, bot_b.name))
    for number in range(games):
        game = load("omiga", **{**(options or {}), "seed": seed + number})
        if game.dynamics != REAL_TIME:
            variant = game.options["variant"] + (" with pace=turns" if game.options.get("pace") == "turns" else "")
            raise BadOption(f"bot matches are for the real-time modes (base, 2v2, kids), not {variant}")
        state = game.new_state()
        assert isinstance(state, RealtimeState)  # what REAL_TIME promises; narrows the type
        a_colour = "white" if number % 2 == 0 else "black"
        bots = {actor: bot_a if state.colour_of(actor) == a_colour else bot_b for actor in state.actors}
        play_game(state, bots, seed + number, max_time)
        if state.result is None:
            report.unfinished += 1
        elif state.result.winner == "draw":
            report.draws += 1
        else:
            report.wins[0 if state.result.winner == a_colour else 1] += 1
        report.records.append(state.record())
    return report
