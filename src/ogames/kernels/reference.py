"""Plain-Python versions of the compiled kernels: slow, obviously right, and the tests' yardstick."""

from __future__ import annotations

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
