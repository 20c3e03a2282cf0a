"""The account's e-mail forms and the links the mails carry.

    POST /account/email            a new address (unverified: a verification link is mailed to it)
    POST /account/email/remove     no address any more
    POST /account/notices          which mails: "your move", "game over" (checkboxes)
    GET  /account/email/verify     ?token=…: the verification link (once; two days)
    GET  /notify/unsubscribe       ?token=…: the unsubscribe link's page, one button …
    POST /notify/unsubscribe       … that stops every mail to that address
    GET  /push/key                 the site's VAPID public key (a page subscribing needs it)
    POST /push/subscribe           {endpoint, keys: {p256dh, auth}}: push "your move" to this browser
    POST /push/unsubscribe         {endpoint}: no more (only the visitor's own subscription)
    GET  /push-worker.js           the service worker that shows a push (at the root: its scope is the site)

The forms are an account's (a guest has no address) and carry their CSRF token like every form.
The links are signed (web/notify/links.py): one changed by hand, expired or already used is
refused (400) with nothing changed. Unsubscribing asks for a click, not only a GET, so that a mail
scanner opening the link does not unsubscribe anyone.
"""

from __future__ import annotations

import asyncio
from email.message import EmailMessage
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from ogames.web.accounts.routes import account_answer, fields
from ogames.web.core.common import Refusal, request_language
from ogames.web.core.deps import WEB, StoreDep, VisitorDep, json_body, page
from ogames.web.limits import ClientLimits
from ogames.web.notify import records
from ogames.web.notify.links import Links, clean_address
from ogames.web.notify.mailer import Mailer
from ogames.web.notify.mails import said
from ogames.web.notify.push import Pusher, valid_endpoint
from ogames.wording import say

router = APIRouter()

# Verification mails: at most VERIFY_MAILS to one address, and from one account, in VERIFY_WINDOW
# seconds. The link goes to whatever address is given, so without this an account (or many: signing
# up is free) posting the form again and again would have the site mail someone else without end.
VERIFY_MAILS = 3
VERIFY_WINDOW = 3600


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
    limits: ClientLimits = request.app.state.verify_limits
    keys = (visitor.id, "to:" + address.lower())  # the account, and the address mailed whoever asks
    if not all([await limits.fits(key) for key in keys]):
        too_many = say("verify-mails", "too many verification mails lately: try again in an hour")
        return await account_answer(request, store, visitor, 429, problem=too_many)
    for key in keys:
        await limits.allow(key)
    nonce = await asyncio.to_thread(records.set_address, store, visitor.id, address)
    settings = request.app.state.settings
    token = links_of(request).verify_token(visitor.id, address, nonce)
    link = f"{settings.site_url.rstrip('/')}/account/email/verify?token={token}"
    language = request_language(request)  # the page's: the person reads it now
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = address
    message["Subject"] = said(language, "mail-verify-subject")
    message.set_content(f"{said(language, 'mail-verify', name=visitor.name)}\n{link}\n\n"
                        f"{said(language, 'mail-verify-not-you')}\n")
    message["Content-Language"] = language  # (after the content: setting it clears the Content- headers)
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


class PushKeys(BaseModel):
    p256dh: str = Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_=-]+$")
    auth: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_=-]+$")


class PushSubscription(BaseModel):
    model_config = {"extra": "ignore"}  # (a browser's subscription also says expirationTime)

    endpoint: str = Field(min_length=8, max_length=512)
    keys: PushKeys


class PushEnd(BaseModel):
    endpoint: str = Field(min_length=8, max_length=512)


def pusher_of(request: Request) -> Pusher:
    pusher: Pusher = request.app.state.pusher
    return pusher


@router.get("/push/key", response_model=None)
async def push_key(request: Request) -> JSONResponse:
    return JSONResponse({"key": pusher_of(request).public_key})


@router.post("/push/subscribe", response_model=None)
async def push_subscribe(request: Request, store: StoreDep, visitor: VisitorDep,
                         asked: Annotated[PushSubscription, Depends(json_body(PushSubscription))]) -> JSONResponse:
    if not valid_endpoint(asked.endpoint, request.app.state.settings.push_local_endpoints):
        raise Refusal(say("bad-endpoint", "this is not a push service's address"), "bad-endpoint", 422)
    subscription = records.Subscription(asked.endpoint, visitor.id, asked.keys.p256dh, asked.keys.auth)
    if not await asyncio.to_thread(records.subscribe, store, subscription):
        raise Refusal(say("endpoint-taken", "this push address belongs to another player's browser"), "endpoint-taken", 409)
    return JSONResponse({"subscribed": True})


@router.post("/push/unsubscribe", response_model=None)
async def push_unsubscribe(store: StoreDep, visitor: VisitorDep,
                           asked: Annotated[PushEnd, Depends(json_body(PushEnd))]) -> JSONResponse:
    return JSONResponse({"unsubscribed": await asyncio.to_thread(records.unsubscribe_push, store, asked.endpoint, visitor.id)})


@router.get("/push-worker.js", include_in_schema=False)
async def push_worker() -> FileResponse:
    return FileResponse(WEB / "static" / "push-worker.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


__all__ = ["VERIFY_MAILS", "VERIFY_WINDOW", "router"]
