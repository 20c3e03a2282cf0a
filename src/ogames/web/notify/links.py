"""The links a mail carries, signed with the site's secret (itsdangerous): the address's
verification link (its account, the address and a one-time part the database keeps until it is
used; valid two days) and the unsubscribe link (its account and address; valid as long as the
address is the account's). A link changed by hand fails its signature: it names nobody."""

from __future__ import annotations

import re
from typing import Any

from itsdangerous import BadData, URLSafeTimedSerializer

VERIFY_SECONDS = 2 * 86_400
MAX_ADDRESS = 254

# An address as the site accepts it: one local part and one domain with a dot, nothing that could
# end a header line or add a recipient (no spaces, commas, angle brackets, quotes or control
# characters). Stricter than RFC 5322 on purpose: what passes is written into a header as it is.
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")


def clean_address(text: str) -> str | None:
    """The address written (outer spaces removed) if the site accepts it, else None."""
    address = text.strip()
    if len(address) > MAX_ADDRESS or ADDRESS.fullmatch(address) is None:
        return None
    return address


class Links:
    """Signs and reads the mails' links with the site's secret."""

    def __init__(self, secret: str):
        self.verifying = URLSafeTimedSerializer(secret, salt="ogames-email-verify")
        self.leaving = URLSafeTimedSerializer(secret, salt="ogames-email-unsubscribe")

    def verify_token(self, account_id: str, address: str, nonce: str) -> str:
        return self.verifying.dumps({"a": account_id, "e": address, "n": nonce})

    def read_verify(self, token: str) -> tuple[str, str, str] | None:
        """(account id, address, one-time part) of a verification link, or None (forged, expired, garbled)."""
        data = self._read(self.verifying, token, VERIFY_SECONDS)
        if data is None or not all(isinstance(data.get(key), str) for key in "aen"):
            return None
        return data["a"], data["e"], data["n"]

    def unsubscribe_token(self, account_id: str, address: str) -> str:
        return self.leaving.dumps({"a": account_id, "e": address})

    def read_unsubscribe(self, token: str) -> tuple[str, str] | None:
        data = self._read(self.leaving, token, None)
        if data is None or not all(isinstance(data.get(key), str) for key in "ae"):
            return None
        return data["a"], data["e"]

    @staticmethod
    def _read(serializer: URLSafeTimedSerializer, token: str, max_age: int | None) -> dict[str, Any] | None:
        try:
            data = serializer.loads(token[:2048], max_age=max_age)
        except BadData:
            return None
        return data if isinstance(data, dict) else None


__all__ = ["Links", "clean_address"]
