"""A chat message's or a report's text as it is stored: control and formatting characters out
(a right-to-left override, a zero-width space, a bell), any run of white space one space, no space
at either end; refused when nothing is left or it is longer than the limit. The page shows it as
text (never as markup), so nothing else needs escaping here."""

from __future__ import annotations

import re
import unicodedata

from ogames.wording import Said, say

MAX_MESSAGE = 300  # characters of a chat message, once cleaned
MAX_REASON = 500  # characters of a report's reason
KEPT_FORMATS = {"\u200d"}  # the zero-width joiner: it holds an emoji's parts together, and hides nothing
SPACES = re.compile(r"\s+")


def cleaned(text: str) -> str:
    """The text with every control, formatting, surrogate, private-use and unassigned character
    removed (each white space character becomes a space first) and white space runs made one space."""
    spaced = SPACES.sub(" ", text)
    kept = "".join(ch for ch in spaced if unicodedata.category(ch)[0] != "C" or ch in KEPT_FORMATS)
    return SPACES.sub(" ", kept).strip()


def text_problem(text: str, limit: int) -> Said | None:
    """Why a cleaned text cannot be stored (empty, or over `limit` characters), or None."""
    if not text:
        return say("chat-empty", "there is nothing to send")
    if len(text) > limit:
        return say("chat-too-long", "at most {limit} characters, please ({length} written)", limit=limit, length=len(text))
    return None


__all__ = ["MAX_MESSAGE", "MAX_REASON", "cleaned", "text_problem"]
