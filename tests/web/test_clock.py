"""Fischer clocks and take-backs (web/boards/clock.py), on any sequence of moves and take-backs: a person's
time is always its base, less every second it has used, plus the increments of the moves still
on the board (so undo and play again never earns one twice); a computer's clock after a take-back
is what it was at that position; a clock survives being stored."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from ogames.web.boards.clock import Clock, NoTakeBack

STEP = 0.125  # thinking times in eighths of a second: sums stay exact at the clock's 3 decimals

actions = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 48)),  # a move after that many eighths of a second
        st.tuples(st.just("undo"), st.integers(1, 4), st.integers(0, 48)),  # take back that many, after thinking
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(actions, st.sampled_from([6.0, 600.0]), st.sampled_from([0.0, 1.0, 30.0]), st.booleans())
def test_take_backs_give_nobody_time(steps: list[tuple], base: float, increment: float, computer_plays: bool) -> None:
    computers = {1} if computer_plays else set()
    clock = Clock.start(base / 60, increment, 2)
    now = 1_000_000.0
    line: list[tuple[int, bool]] = []  # the moves on the board: (seat, whether its clock ran)
    spent = [0.0, 0.0]  # every second each seat has been charged, take-backs or not
    computer_at = {0: base}  # the computer's time when each position of the line arose
    for step in steps:
        mover = len(line) % 2  # seats take turns
        thought = step[-1] * STEP
        if clock.left(mover, mover, now + thought) <= 0:
            continue  # its flag would fall (the hub ends the game)
        if clock.runs(mover):
            spent[mover] += thought  # time passes whatever the seat then asks
        now += thought
        if step[0] == "move":
            ran = clock.runs(mover)
            clock = clock.after_action(mover, 1 - mover, over=False, now=now, ply=len(line) + 1)
            line.append((mover, ran))
            computer_at[len(line)] = clock.remaining[1]
        elif (target := len(line) - step[1]) >= 0:
            try:
                clock = clock.taken_back(target, mover, target % 2, computers, now=now)
            except NoTakeBack:  # only when a person would be left with no time
                event("refused: no time left")
                since = line[target:]
                assert min(clock.left(seat, mover, now) - increment * sum(ran for owner, ran in since if owner == seat)
                           for seat in (0, 1) if seat not in computers) <= 0
                continue
            line = line[:target]
            if computer_plays:
                assert clock.remaining[1] == computer_at[target]  # its time, as it was there
            computer_at = {ply: left for ply, left in computer_at.items() if ply <= target}
        for seat in (0, 1):
            earned = increment * sum(ran for owner, ran in line if owner == seat)
            assert clock.earned[seat] == earned
            if seat not in computers:
                assert clock.left(seat, len(line) % 2, now) == base - spent[seat] + earned
        assert Clock.from_stored(clock.stored()) == clock


def test_a_clock_stored_before_take_backs_kept_marks_refuses_one_and_still_plays() -> None:
    old = {"base": 60.0, "increment": 2.0, "remaining": [58.0, 61.0], "since": 100.0, "flagged": None, "started": [0, 1]}
    clock = Clock.from_stored(old)
    assert clock is not None and clock.earned == (0.0, 0.0)
    try:
        clock.taken_back(2, 0, 0, set(), now=101.0)
    except NoTakeBack as refusal:
        assert "older server" in str(refusal)
    else:
        raise AssertionError("a take-back without the position's clocks was made")
    later = clock.after_action(0, 1, over=False, now=101.0, ply=5)
    assert later.remaining == (59.0, 61.0) and later.earned == (2.0, 0.0) and set(later.marks) == {5}
