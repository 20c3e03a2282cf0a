"""The Game of Y three ways: Omny variant `y` (komi 0, no pie), Odd-Y with 3 sides on the triangle,
and "some group touches all three sides" computed here from the labels alone. On every random game
they must agree on the winner and on the ply at which the game ends."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.boards import parse_label


def touches_all_three_sides(black: set[tuple[int, int]], white: set[tuple[int, int]], n: int) -> str | None:
    """The colour with a group touching x = 0, y = 0 and x + y = n − 1 (flood fill on axial cells)."""
    directions = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    for colour, stones in (("black", black), ("white", white)):
        seen: set[tuple[int, int]] = set()
        for seed in stones:
            if seed in seen:
                continue
            group, frontier = {seed}, [seed]
            while frontier:
                x, y = frontier.pop()
                for dx, dy in directions:
                    other = (x + dx, y + dy)
                    if other in stones and other not in group:
                        group.add(other)
                        frontier.append(other)
            seen |= group
            if any(x == 0 for x, _ in group) and any(y == 0 for _, y in group) and any(x + y == n - 1 for x, y in group):
                return colour
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 9))
def test_omny_y_and_three_sided_odd_y_agree_on_every_random_game(seed, n):
    play_both(seed, n)


@pytest.mark.parametrize("seed", range(4))
def test_they_agree_on_the_big_triangle(seed):
    play_both(seed, 13)


def play_both(seed: int, n: int) -> None:
    """One random game on both engines, checked after every move against the direct test."""
    omny = ogames.load("omny", variant="y", size=n, komi=0, pie=False).new_state()
    oddy = ogames.load("oddy", sides=3, size=n, board="triangle", pie=False).new_state()
    assert sorted(omny.legal_moves()) == sorted(oddy.legal_moves())  # the same board and labels
    order = oddy.legal_moves()
    random.Random(seed).shuffle(order)
    stones: dict[str, set[tuple[int, int]]] = {"black": set(), "white": set()}
    for move in order:
        colour = oddy.to_move
        assert omny.to_move == colour
        omny.play(move)
        oddy.play(move)
        stones[colour].add(parse_label(move))
        direct = touches_all_three_sides(stones["black"], stones["white"], n)
        assert omny.winner == oddy.winner == direct, (move, omny.ply)
        if oddy.is_over:
            break
    assert oddy.is_over and omny.is_over and omny.ply == oddy.ply
    assert set(omny.winning_group) == set(oddy.winning_group)
