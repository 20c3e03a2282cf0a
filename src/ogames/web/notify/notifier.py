"""The notices a correspondence game sends. Mails: "your move" to the account whose turn begins, "game over"
to every account that played it (a loss on time too), each only to a verified address that asked
for it, each with the game's link (never a seat token: the account's own log-in opens its seat)
and an unsubscribe link, each in the account's language (web/notify/mails.py). Pushes
(web/notify/push.py): "your move" to every browser that subscribed for the player whose turn
begins, an account or a guest; the payload holds the game's title and link, nothing else.

The recorder calls `committed` after every stored change of a game (web/boards/recorder.py); the
work (who sat there, who asked, the claim, the mail) runs on the side, so a move never waits for
it and a failure only costs its mail. With several server processes each notice is claimed once
in the database (`records.claim`): the first process to claim it sends the mail.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from email.message import EmailMessage

from ogames.web.accounts.records import seat_players_of
from ogames.web.boards.correspondence import DaysClock
from ogames.web.boards.live import LiveGame, describe_result
from ogames.web.core.background import Background
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store
from ogames.web.messages import word
from ogames.web.notify import records
from ogames.web.notify.links import Links
from ogames.web.notify.mailer import Mailer
from ogames.web.notify.mails import mail_language, said
from ogames.web.notify.push import Pusher

log = logging.getLogger("ogames.web.notify")

YOUR_MOVE, GAME_OVER = "your_move", "game_over"


class Notifier:
    """Turns a correspondence game's changes into mails."""

    def __init__(self, store: Store, settings: Settings, mailer: Mailer, links: Links, pusher: Pusher | None = None):
        self.store = store
        self.settings = settings
        self.mailer = mailer
        self.links = links
        self.pusher = pusher
        self.background = Background("notifier")

    async def close(self) -> None:
        await self.background.close()

    def committed(self, live: LiveGame) -> None:
        """A game's change was stored: the notices it calls for, on the side (never waits)."""
        if not isinstance(live.clock, DaysClock):
            return
        game = live.state.game
        if live.ended:
            seats = [seat for seat in range(len(live.seat_kinds)) if not live.is_computer(seat)]
            work = self._notify(live.id, game.title, GAME_OVER, seats, f"over:{live.id}", describe_result(live), None)
        else:
            mover = live.state.mover
            if mover is None or live.is_computer(mover):
                return
            work = self._notify(live.id, game.title, YOUR_MOVE, [mover], f"move:{live.id}:{live.version}", "",
                                live.clock.deadline)
        self.background.spawn(work, f"notify {live.id}")

    async def _notify(self, game_id: str, title: str, kind: str, seats: list[int], event: str, result: object,
                      deadline: float | None) -> None:
        try:
            players = await asyncio.to_thread(seat_players_of, self.store, game_id)
            seated = sorted({player for seat in seats if (player := players.get(seat))})
            accounts = [player for player in seated if player.startswith("a")]
            if self.mailer.enabled:
                for address in await asyncio.to_thread(records.recipients, self.store, accounts, kind):
                    if await asyncio.to_thread(records.claim, self.store, f"{event}:{address.account_id}"):
                        self.mailer.submit(self.message(address, game_id, title, kind, result, deadline))
            if self.pusher is not None and kind == YOUR_MOVE:
                payload = {"title": title, "kind": kind, "url": f"/g/{game_id}"}
                for subscription in await asyncio.to_thread(records.subscriptions_of, self.store, seated):
                    if await asyncio.to_thread(records.claim, self.store, f"{event}:push:{subscription.endpoint[-60:]}"):
                        await self.pusher.send(subscription, payload)
        except Exception as exc:  # the database failed us: this notice is lost, the game goes on
            log.warning("game %s: notice %s not sent: %s", game_id, kind, type(exc).__name__)

    def message(self, address: records.Address, game_id: str, title: str, kind: str, result: object,
                deadline: float | None) -> EmailMessage:
        """The mail to one address, in its account's language; `result` the game's result sentence."""
        language = mail_language(address.language)
        site = self.settings.site_url.rstrip("/")
        leave = f"{site}/notify/unsubscribe?token={self.links.unsubscribe_token(address.account_id, address.address)}"
        message = EmailMessage()
        message["From"] = self.settings.smtp_from
        message["To"] = address.address
        message["List-Unsubscribe"] = f"<{leave}>"
        if kind == YOUR_MOVE:
            message["Subject"] = said(language, "mail-move-subject", title=title)
            until = "" if deadline is None else dt.datetime.fromtimestamp(deadline, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
            body = (said(language, "mail-move-by", title=title, until=until) if until
                    else said(language, "mail-move", title=title))
        else:
            message["Subject"] = said(language, "mail-over-subject", title=title)
            body = said(language, "mail-over", title=title, result=word(result, language))
        message.set_content(f"{body}\n\n{site}/g/{game_id}\n\n{said(language, 'mail-footer')}\n{leave}\n")
        message["Content-Language"] = language  # (after the content: setting it clears the Content- headers)
        return message


__all__ = ["GAME_OVER", "YOUR_MOVE", "Notifier"]
