"""The computer as a teacher: a finished game's review (`review`), with the search's win chance
calibrated against self-play (`calibration`). See docs/review.md."""

from ogames.teach.review import (
    DEFAULT_BUDGET,
    MARKS,
    REVIEW_FORMAT,
    REVIEW_VERSION,
    BadReview,
    MoveReview,
    Review,
    review,
)

__all__ = [
    "DEFAULT_BUDGET",
    "MARKS",
    "REVIEW_FORMAT",
    "REVIEW_VERSION",
    "BadReview",
    "MoveReview",
    "Review",
    "review",
]
