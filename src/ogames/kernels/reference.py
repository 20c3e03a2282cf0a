"""Plain-Python versions of the compiled kernels: slow, obviously right, and the tests' yardstick."""

from __future__ import annotations

import math
from collections.abc import Sequence


def group_of(stones: Sequence[int], neighbours: Sequence[Sequence[int]], start: int) -> set[int]:
    """The cells of start's group: same value, connected."""
    value = stones[start]
    group, frontier = {start}, [start]
    while frontier:
        cell = frontier.pop()
        for other in neighbours[cell]:
            if other not in group and stones[other] == value:
                group.add(other)
                frontier.append(other)
    return group


def components(blocked: Sequence[bool], neighbours: Sequence[Sequence[int]]) -> list[set[int]]:
    """The connected components of the cells that are not blocked."""
    seen: set[int] = set()
    parts = []
    for seed in range(len(blocked)):
        if blocked[seed] or seed in seen:
            continue
        part, frontier = {seed}, [seed]
        while frontier:
            cell = frontier.pop()
            for other in neighbours[cell]:
                if not blocked[other] and other not in part:
                    part.add(other)
                    frontier.append(other)
        seen |= part
        parts.append(part)
    return parts


def score_share_rewards(
    rewards: Sequence[float], log_scores: Sequence[float], owner: Sequence[int], weight: float
) -> list[float]:
    """A playout's rewards by seat with each seat's share of the scores blended in (the search's
    `share`): (1 − weight) × reward + weight × score / (sum of scores), each colour's score being
    the product of its group sizes, given here as the sum of their logarithms, and counted for the
    seat that owns the colour."""
    scores = [math.exp(value - max(log_scores)) for value in log_scores]
    blended = [(1.0 - weight) * reward for reward in rewards]
    for colour, score in enumerate(scores):
        blended[owner[colour]] += weight * score / sum(scores)
    return blended
