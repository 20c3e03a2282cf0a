"""Omiga's bots and the zen solver, run in the server's AI worker (a process by default) so that the
event loop never waits on them.

A real-time bot looks at the table and decides (`bot_action`); the live game then sends the action
after the bot's reaction time, through the same authority as a person's. The worker keeps the
states of the games it has seen, so each decision replays only the actions that are new to it.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import ogames
from ogames.players import player
from ogames.players.omiga.bots import Bot
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import State

_STATES: OrderedDict[str, State] = OrderedDict()  # game id → the newest state this worker rebuilt
_KEEP = 64


def current_state(key: str, record: dict[str, Any]) -> State:
    """The state a record ends in, continued from this worker's copy when it is a prefix of it."""
    moves = record["moves"]
    known = _STATES.get(key)
    if known is not None and known.ply <= len(moves) and known.history == moves[: known.ply]:
        state = known
        for entry in moves[state.ply :]:
            state.replay_entry(entry)
    else:
        state = ogames.replay(record)
    _STATES[key] = state
    _STATES.move_to_end(key)
    while len(_STATES) > _KEEP:
        _STATES.popitem(last=False)
    return state


def bot_action(key: str, record: dict[str, Any], actor: str, spec: str, seed: int) -> str | None:
    """What a real-time bot (by player spec, e.g. `racer:reaction=0.7`) sends now for an actor, or
    None to wait. `key` names the game (so the worker can keep its state)."""
    state = current_state(key, record)
    if state.is_over or not isinstance(state, RealtimeState):
        return None
    bot = player(spec)
    assert isinstance(bot, Bot)
    return bot.decide(state, actor, random.Random(seed))


def warm_up(spec: str) -> bool:
    """Load a bot's compiled kernels in this worker (the first decision would otherwise spend
    seconds on it while the game runs)."""
    state = ogames.load("omiga", seed=0, width=7, height=5).new_state()
    assert isinstance(state, RealtimeState)
    bot = player(spec)
    assert isinstance(bot, Bot)
    bot.decide(state, "white", random.Random(0))
    return True


@lru_cache(maxsize=64)
def form_verdict(form_key: str) -> tuple[str, str]:
    """Whether a zen form can be completed at all (the solver's status and reason)."""
    from ogames.players.solvers.zen import solve
    from ogames.rules.omiga.zen.forms import form_named

    verdict = solve(form_named(form_key).cells)
    return verdict.status, verdict.reason


__all__ = ["bot_action", "current_state", "form_verdict", "warm_up"]
