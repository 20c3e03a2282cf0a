"""The account's e-mail forms and the links the mails carry.

    POST /account/email            a new address (unverified: a verification link is mailed to it)
    POST /account/email/remove     no address any more
    POST /account/notices          which mails: "your move", "game over" (checkboxes)
    GET  /account/email/verify     ?token=…: the verification link (once; two days)
    GET  /notify/unsubscribe       ?token=…: the unsubscribe link's page, one button …
    POST /notify/unsubscribe       … that stops every mail to that address

The forms are an account's (a guest has no address) and carry their CSRF token like every form.
The links are signed (web/notify/links.py): one changed by hand, expired or already used is
refused (400) with nothing changed. Unsubscribing asks for a click, not only a GET, so that a mail
scanner opening the link does not unsubscribe anyone.
"""

from __future__ import annotations

import asyncio
from email.message import EmailMessage

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ogames.web.accounts.routes import account_answer, fields
from ogames.web.core.deps import StoreDep, VisitorDep, page
from ogames.web.notify import records
from ogames.web.notify.links import Links, clean_address
from ogames.web.notify.mailer import Mailer
from ogames.wording import say

router = APIRouter()


def links_of(request: Request) -> Links:
    links: Links = request.app.state.links
    return links


def mailer_of(request: Request) -> Mailer:
    mailer: Mailer = request.app.state.mailer
    return mailer


def refused(request: Request) -> HTMLResponse:
    return page(request, "error.html", 400, message=say("bad-link", "this link is not valid (changed, expired or used already)"))


@router.post("/account/email", response_model=None)
async def set_email(request: Request, store: StoreDep, visitor: VisitorDep) -> Response:
    if visitor.is_guest or not mailer_of(request).enabled:
        return RedirectResponse("/account", status_code=303)
    address = clean_address((await fields(request, "address"))["address"])
    if address is None:
        return await account_answer(request, store, visitor, 400, problem=say("bad-address", "this is not an e-mail address"))
    nonce = await asyncio.to_thread(records.set_address, store, visitor.id, address)
    settings = request.app.state.settings
    token = links_of(request).verify_token(visitor.id, address, nonce)
    link = f"{settings.site_url.rstrip('/')}/account/email/verify?token={token}"
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = address
    message["Subject"] = "ogames: is this your address?"
    message.set_content(f"Someone (you, we hope) gave this address to the account {visitor.name} on ogames.\n"
                        f"To receive its notifications, open this link within two days:\n{link}\n\n"
                        "If it was not you, do nothing: no mail will follow.\n")
    mailer_of(request).submit(message)
    sent = say("address-sent", "a link was sent to {address}: open it to verify", address=address)
    return await account_answer(request, store, visitor, done=sent)


@router.post("/account/email/remove", response_model=None)
async def remove_email(request: Request, store: StoreDep, visitor: VisitorDep) -> Response:
    if not visitor.is_guest:
        await asyncio.to_thread(records.remove_address, store, visitor.id)
    return RedirectResponse("/account", status_code=303)


@router.post("/account/notices", response_model=None)
async def choose_notices(request: Request, store: StoreDep, visitor: VisitorDep) -> Response:
    if not visitor.is_guest:
        chosen = await fields(request, "your_move", "game_over")
        await asyncio.to_thread(records.choose, store, visitor.id, your_move=bool(chosen["your_move"]),
                                game_over=bool(chosen["game_over"]))
    return RedirectResponse("/account", status_code=303)


@router.get("/account/email/verify", response_class=HTMLResponse)
async def verify_email(request: Request, store: StoreDep, token: str = "") -> HTMLResponse:
    read = links_of(request).read_verify(token)
    if read is None or not await asyncio.to_thread(records.verify, store, *read):
        return refused(request)
    return page(request, "notice.html", message=say("address-verified", "the address {address} is verified", address=read[1]))


@router.get("/notify/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, token: str = "") -> HTMLResponse:
    read = links_of(request).read_unsubscribe(token)
    if read is None:
        return refused(request)
    return page(request, "unsubscribe.html", token=token, address=read[1])


@router.post("/notify/unsubscribe", response_model=None)
async def unsubscribe(request: Request, store: StoreDep) -> Response:
    read = links_of(request).read_unsubscribe((await fields(request, "token"))["token"])
    if read is None or not await asyncio.to_thread(records.unsubscribe, store, *read):
        return refused(request)
    return page(request, "notice.html", message=say("unsubscribed", "no more mails will be sent to {address}", address=read[1]))


__all__ = ["router"]
