"""Forged tokens for the attack tests: a token with one character changed that is never the
token itself, nor another spelling of it.

A signature's last base64 character carries bits that nothing reads (32 bytes are 43 characters,
and the last one's low two bits are padding), so itsdangerous accepts a token whose last
character changed only in those bits. The character changed here is the first of the token's
last dotted part (its signature, or the whole of a seat token), every bit of which counts."""

from __future__ import annotations


def forge(token: str) -> str:
    """`token` with the first character of its last dotted part swapped for another."""
    head, dot, last = token.rpartition(".")
    swapped = "B" if last[:1] == "A" else "A"
    return head + dot + swapped + last[1:]
