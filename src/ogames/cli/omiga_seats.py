"""Who sits at `ogames play omiga`: people and Omiga's own bots, not the board games' players.

The turn-based modes (toddler; kids with `--pace turns`) seat the climber, the simple bot the web
site seats there too (`players.omiga.climber`). Real-time kids seats a real-time bot: a strategy
with a reaction time on the simulated clock (`racer:reaction=child`, see `players.omiga.bots`), or
a level of the web site's ladder (`bot:level=4`, `players.levels.omiga_spec`). `bot` alone is the
mode's usual bot. Zen is played alone. Anything else is refused, naming what a seat may be.
"""

from __future__ import annotations

from ogames.errors import BadOption
from ogames.players import parse_spec
from ogames.players.levels import HIGHEST, LOWEST, omiga_spec
from ogames.players.omiga.bots import STRATEGIES, Bot

CLIMBER = "climber"
DEFAULT_OPPONENT = "racer:reaction=toddler"  # a bot giving a person at a keyboard about 5 s per card
REAL_TIME_KINDS = "|".join(STRATEGIES)
# What a seat may be, in the words of `ogames games` and `ogames play omiga --help`.
SEAT_KINDS = (
    f"human or a bot: {CLIMBER} (turn-based modes), {REAL_TIME_KINDS}[:reaction=SPEED] or "
    f"bot:level={LOWEST}–{HIGHEST} (real-time kids); bot alone is the mode's usual one"
)


def seat_bot(spec: str, real_time: bool) -> str | None:
    """The bot a seat's spec names — None for a person, `climber` in turns, a real-time bot's spec
    (checked) in real time; BadOption saying what a seat may be for anything else."""
    kind, settings = parse_spec(spec)
    if kind == "human" and not settings:
        return None
    if not real_time:
        if kind in ("bot", CLIMBER) and not settings:
            return CLIMBER
        raise BadOption(f"in Omiga's turn-based modes a seat is human or {CLIMBER} (or bot)")
    if kind == "bot" and set(settings) <= {"level"}:
        if not settings:
            return DEFAULT_OPPONENT
        try:
            return omiga_spec(int(settings["level"]))
        except ValueError:
            raise BadOption(f"a bot's level is a whole number from {LOWEST} to {HIGHEST}") from None
    if kind not in STRATEGIES:
        raise BadOption(f"in real-time Omiga a seat is human, bot[:level=N] or {REAL_TIME_KINDS}[:reaction=SPEED]")
    try:
        Bot.make(spec)
    except ValueError as exc:  # a bad reaction or setting, said by the bots
        raise BadOption(str(exc)) from None
    return spec
