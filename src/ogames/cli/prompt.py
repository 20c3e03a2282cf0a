"""Reading a line at the command line's prompts: line editing, history, and questions that only
take what is typed after they are asked.

Loading the standard library's `readline` makes `input()` edit the line at a terminal (arrows,
Home/End, Ctrl-A/E/K/W …) and remember the lines typed in this session (up and down arrows). The
prompt is handed to `input()` itself rather than printed before it, so that readline knows where
the line starts and redraws it in place; the prompt's colours are marked as taking no columns.
Where there is no terminal (a pipe, a test), `input()` reads plain lines and nothing here changes
what it reads.

Keys typed ahead reach the next prompt of the same kind (a move typed while the computer thinks is
the next move). A *question* that the game asks at its end is different: what was typed before it
appeared was meant for something else (the move prompt that is gone), so `ask(..., fresh=True)`
throws it away first and says so, rather than taking a move as a file name.
"""

from __future__ import annotations

import re
import sys

from rich.console import Console

try:
    import readline  # loaded for its effect: input() edits lines and keeps a history
except ImportError:  # no readline (e.g. Windows): input() still reads whole lines
    readline = None  # type: ignore[assignment]

try:
    import fcntl
    import termios
except ImportError:  # not a POSIX terminal: nothing typed ahead can be told apart or set aside
    termios = None  # type: ignore[assignment]

_ESCAPE = re.compile(r"(\x1b\[[0-9;]*[A-Za-z])")
SET_ASIDE = "(what was typed before this question was set aside)"


def at_terminal() -> bool:
    """Whether `input()` reads from a terminal through readline: stdin and stdout are the process's
    own terminal (not a pipe, a file or a test's capture)."""
    try:
        return sys.stdin.fileno() == 0 and sys.stdout.fileno() == 1 and sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, OSError, ValueError):  # replaced streams without a file descriptor
        return False


def read_line(prompt: str = "") -> str:
    """`input(prompt)` with line editing and history at a terminal; EOFError at the end of input."""
    return input(prompt)


def prompt_text(console: Console, markup: str) -> str:
    """A prompt's markup as the text `input()` prints: with the console's colours, each escape
    sequence wrapped in readline's "takes no columns" marks when readline draws it."""
    with console.capture() as captured:
        console.print(markup, end="", highlight=False, soft_wrap=True)
    text = captured.get()
    if readline is not None and at_terminal():
        text = _ESCAPE.sub("\x01\\1\x02", text)
    return text


def set_aside_typeahead() -> bool:
    """Throw away what was typed at the terminal but not read yet; whether whole lines were among
    it. Nothing happens where stdin is no terminal: piped answers are meant in advance."""
    if termios is None or not at_terminal():
        return False
    fd = sys.stdin.fileno()
    try:
        waiting = int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, bytes(4)), sys.byteorder)
        termios.tcflush(fd, termios.TCIFLUSH)
    except OSError:
        return False
    return waiting > 0


def ask(console: Console, markup: str, *, fresh: bool = False) -> str | None:
    """One line from the person after a prompt (rich markup), or None at the end of input.
    `fresh`: a question whose answer must be typed after it appeared (see the module's doc)."""
    if fresh and set_aside_typeahead():
        console.print(f"[dim]{SET_ASIDE}[/]")
    try:
        return read_line(prompt_text(console, markup))
    except EOFError:
        return None
