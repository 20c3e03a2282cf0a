"""The attack tests' forged tokens are refused by the signer whatever the token, unlike a token
whose last character is changed."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st
from itsdangerous import BadSignature, URLSafeTimedSerializer

from forgery import forge

SIGNER = URLSafeTimedSerializer("a secret", salt="forgery")


def refused(token: str) -> bool:
    try:
        SIGNER.loads(token)
    except BadSignature:
        return True
    return False


@given(st.integers(0, 10**9))
def test_a_forged_signed_token_is_refused(payload: int) -> None:
    token = SIGNER.dumps({"n": payload})
    assert forge(token) != token and refused(forge(token))


@given(st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=50))
def test_a_forged_seat_token_differs_in_one_character(token: str) -> None:
    altered = forge(token)
    assert altered != token and len(altered) == len(token)
    assert sum(a != b for a, b in zip(altered, token, strict=True)) == 1


def test_the_last_character_alone_is_no_forgery() -> None:
    """Why `forged` leaves the last character: some other last characters are the same token."""
    token = SIGNER.dumps({"n": 1})
    others = [token[:-1] + c for c in string.ascii_letters + string.digits + "-_" if c != token[-1]]
    assert sum(not refused(other) for other in others) == 3
