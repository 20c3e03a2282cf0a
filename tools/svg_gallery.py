"""Draw every board kind as SVG (and, with --png, as PNG through a headless Chromium) to look at
them: one seeded random position per game and board kind, e.g.

    .venv/bin/python tools/svg_gallery.py /tmp/gallery --png
    .venv/bin/python tools/svg_gallery.py /tmp/gallery --png --only omny-gyre,onyx --width 560

The pictures in docs/images/ are PNGs made by this script.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from tool_cli import Parser, fail, refused, whole

import ogames
from ogames.draw.svg import board_svg

# name → (game, options, seed, plies): a position some way into a seeded random game (plies
# None: play to the end, so that the winning group shows).
SHOWCASE: dict[str, tuple[str, dict, int, int | None]] = {
    "omny-gyre": ("omny", {"variant": "gyre", "size": 5}, 7, 24),
    "omny-y": ("omny", {"variant": "y", "size": 7}, 1, 26),
    "oddy-5": ("oddy", {"sides": 5, "size": 5}, 2, 28),
    "oddy-7": ("oddy", {"sides": 7, "size": 4}, 4, None),
    "omega-3": ("omega", {"players": 3, "size": 5}, 3, 12),
    "omega-4": ("omega", {"players": 4, "size": 6}, 5, 24),
    "onyx": ("onyx", {}, 11, 70),
    "omiga-base": ("omiga", {"seed": 21}, 21, 60),
    "omiga-toddler": ("omiga", {"variant": "toddler", "players": 4, "width": 12, "height": 7, "seed": 8}, 8, 44),
    "omiga-zen": ("omiga", {"variant": "zen", "seed": 3}, 3, 9),
}


def position(name: str) -> ogames.State:
    """The showcase position of a name: random moves (Omiga: placements first) that do not end
    the game for `plies` moves, or to the end when `plies` is None."""
    game_name, options, seed, plies = SHOWCASE[name]
    state = ogames.load(game_name, **options).new_state()
    rng = random.Random(seed)
    count = 0
    while not state.is_over and (plies is None or count < plies):
        moves = state.legal_moves()
        places = [m for m in moves if "place" in m] if game_name == "omiga" else moves
        choices = places or moves
        rng.shuffle(choices)
        if plies is not None:  # a position in the middle of a game: keep it going (discarding if need be)
            rng.shuffle(moves)
            choices = sorted(moves, key=lambda m: (state.clone().play(m).is_over, m not in places))
        state.play(choices[0])
        count += 1
    return state


def png(svg_file: Path, out: Path, width: int) -> None:
    """A PNG of an SVG file, `width` pixels wide, through headless Chromium."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("no Chromium found (apt-get install chromium)")
    text = svg_file.read_text(encoding="utf-8")
    box = text.split('viewBox="', 1)[1].split('"', 1)[0].split()
    height = round(width * float(box[3]) / float(box[2]))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(
            f"<html><body style='margin:0;background:#fff'><img src='{svg_file.resolve().as_uri()}' "
            f"style='width:{width}px;height:{height}px;display:block'></body></html>",
            encoding="utf-8",
        )
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--screenshot={out.resolve()}",
             f"--window-size={width},{height}", page.as_uri()],
            check=True, capture_output=True, timeout=120,
        )


def main() -> None:
    """Write the SVGs (and PNGs) of the showcase positions."""
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--png", action="store_true", help="also write PNGs (needs Chromium)")
    parser.add_argument("--only", default="", help="comma-separated names (default: all)")
    parser.add_argument("--width", type=whole(16, 4096), default=640, help="PNG width in pixels")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(SHOWCASE)
    unknown = [n for n in names if n not in SHOWCASE]
    if unknown:
        fail(f"no showcase named {unknown[0]!r} (known: {', '.join(SHOWCASE)})")
    if args.folder.exists() and not args.folder.is_dir():
        fail(f"{args.folder} is a file, not a folder")
    with refused(OSError):
        args.folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        state = position(name)
        print(f"{name}: {state!r}")
        target = args.folder / f"{name}.svg"
        target.write_text(board_svg(state), encoding="utf-8")
        if args.png:
            png(target, args.folder / f"{name}.png", args.width)


if __name__ == "__main__":
    main()
