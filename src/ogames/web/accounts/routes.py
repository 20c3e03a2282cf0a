"""The account pages: sign up, log in, log out, the account page (its games, a password change,
deleting the account). Every form is a POST with its CSRF token (checked before these routes run:
web/accounts/identity.py) answered by a redirect, or by the form again with the reason.

    GET  /signup, POST /signup        a new account (a guest keeps the guest's games)
    GET  /login,  POST /login         log in (locked after repeated wrong passwords: guessing.py)
    POST /logout                      back to a new guest
    GET  /account                     the visitor's name and games; the forms below
    POST /account/password            a new password (every other log-in of the account ends)
    POST /account/delete              delete the account (its games stay, anonymised)

A successful log-in or sign-up replaces the whole session (no session fixation: nothing of the
session before it is kept but the guest's games, which move to the account).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

from ogames.web.accounts import records
from ogames.web.accounts.guessing import Guessing, locked, too_many_signups
from ogames.web.accounts.names import MAX_LENGTH, name_key, name_problem
from ogames.web.accounts.passwords import check_password, hash_password, password_problem
from ogames.web.accounts.visitor import Visitor, new_guest
from ogames.web.core.common import catalogue, request_language
from ogames.web.core.deps import StoreDep, VisitorDep, page
from ogames.web.core.store import Store
from ogames.web.limits import client_address
from ogames.wording import Said, say

router = APIRouter()

FORM_FIELD_LIMIT = 1024  # characters of any one field read from these forms


def guessing_of(connection: HTTPConnection) -> Guessing:
    guessing: Guessing = connection.app.state.guessing
    return guessing


GuessingDep = Annotated[Guessing, Depends(guessing_of)]


async def fields(request: Request, *names: str) -> dict[str, str]:
    """The named text fields of a posted form ('' for a missing one, each cut to a sane length)."""
    form = await request.form()
    return {name: str(form.get(name) or "")[:FORM_FIELD_LIMIT] for name in names}


def start_session(request: Request, visitor: Visitor, session_id: str | None = None) -> None:
    """Replace the session cookie's content with one for this visitor."""
    request.session.clear()
    request.session.update(visitor.session(session_id))


async def log_in(request: Request, store: Store, account: records.Account) -> None:
    """A new session of the account, in place of whatever the cookie held."""
    session_id = await asyncio.to_thread(records.start_session, store, account.id)
    start_session(request, Visitor(account.id, account.name, False, account.role), session_id)


async def log_out(request: Request, store: Store) -> None:
    """End the account's session (a copy of its cookie names nobody now); the browser is a new guest."""
    session_id = request.session.get("sid")
    if isinstance(session_id, str):
        await asyncio.to_thread(records.end_session, store, session_id)
    start_session(request, new_guest())


def wrong_login() -> Said:
    return say("login-wrong", "wrong name or password")


@router.get("/signup", response_class=HTMLResponse)
async def signup_form(request: Request) -> HTMLResponse:
    return page(request, "signup.html", problem=None, entered="", max_length=MAX_LENGTH)


@router.post("/signup", response_model=None)
async def signup(request: Request, store: StoreDep, visitor: VisitorDep, guessing: GuessingDep) -> Response:
    form = await fields(request, "name", "password", "again")
    name = form["name"].strip()
    problem = name_problem(name) or password_problem(form["password"])
    if problem is None and form["password"] != form["again"]:
        problem = say("password-mismatch", "the two passwords differ")
    if problem is None:  # a form that would be hashed: counted for its address
        wait = await guessing.sign_up(client_address(request.scope))
        if wait is not None:
            response = page(request, "signup.html", 429, problem=too_many_signups(wait), entered=name, max_length=MAX_LENGTH)
            response.headers["Retry-After"] = str(int(wait) + 1)
            return response
        hashed = await asyncio.to_thread(hash_password, form["password"])
        try:
            account = await asyncio.to_thread(records.create_account, store, name, name_key(name), hashed,
                                              request_language(request))  # its mails' language, as lichess keeps it
        except records.NameTaken:
            problem = say("name-taken", "the name {name} is taken", name=name)
    if problem is not None:
        return page(request, "signup.html", 400, problem=problem, entered=name, max_length=MAX_LENGTH)
    await take_over(store, visitor, account.id)
    await log_in(request, store, account)
    return RedirectResponse("/account", status_code=303)


async def take_over(store: Store, visitor: Visitor, account_id: str) -> None:
    """A guest who signs up or logs in keeps the guest's games."""
    if visitor.is_guest:
        await asyncio.to_thread(records.claim_guest_seats, store, visitor.id, account_id)


@router.get("/login", response_class=HTMLResponse)
async def login_form(request: Request) -> HTMLResponse:
    return page(request, "login.html", problem=None, entered="")


@router.post("/login", response_model=None)
async def login(request: Request, store: StoreDep, visitor: VisitorDep, guessing: GuessingDep) -> Response:
    form = await fields(request, "name", "password")
    name = form["name"].strip()
    key = name_key(name)
    wait = await guessing.wait(client_address(request.scope), key)
    if wait is not None:
        response = page(request, "login.html", 429, problem=locked(wait), entered=name)
        response.headers["Retry-After"] = str(int(wait) + 1)
        return response
    account = await asyncio.to_thread(records.account_by_key, store, key)
    # (a name nobody has is checked against a decoy hash: the same time, the same answer)
    matched, rehashed = await asyncio.to_thread(check_password, form["password"], account.password_hash if account else None)
    if account is None or not matched:
        await guessing.failed(key)
        return page(request, "login.html", 401, problem=wrong_login(), entered=name)
    if rehashed is not None:
        await asyncio.to_thread(records.rehash_password, store, account.id, rehashed)
    await take_over(store, visitor, account.id)
    await log_in(request, store, account)
    # An account from before languages were kept (migration 0011) takes the one it logs in with.
    await asyncio.to_thread(records.set_language, store, account.id, request_language(request), only_if_none=True)
    return RedirectResponse("/account", status_code=303)


@router.post("/logout", response_model=None)
async def logout(request: Request, store: StoreDep) -> Response:
    await log_out(request, store)
    return RedirectResponse("/", status_code=303)


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, store: StoreDep, visitor: VisitorDep) -> HTMLResponse:
    return await account_answer(request, store, visitor)


async def account_answer(request: Request, store: Store, visitor: Visitor, status: int = 200,
                         problem: Said | None = None, done: Said | None = None) -> HTMLResponse:
    played = await asyncio.to_thread(records.games_of, store, visitor.id)
    from ogames.web.notify.records import address_of  # (notify's routes import this module)

    email = None if visitor.is_guest else await asyncio.to_thread(address_of, store, visitor.id)
    titles = {game["name"]: game["title"] for game in catalogue()}
    return page(request, "account.html", status, visitor=visitor, played=played, titles=titles, problem=problem, done=done,
                email=email, mail_enabled=request.app.state.mailer.enabled)


async def verified(store: Store, visitor: Visitor, password: str) -> records.Account | None:
    """The visitor's account if `password` is its password, else None."""
    if visitor.is_guest:
        return None
    account = await asyncio.to_thread(records.account_by_id, store, visitor.id)
    matched, _ = await asyncio.to_thread(check_password, password, account.password_hash if account else None)
    return account if matched else None


@router.post("/account/password", response_model=None)
async def change_password(request: Request, store: StoreDep, visitor: VisitorDep, guessing: GuessingDep) -> Response:
    form = await fields(request, "current", "password", "again")
    wait = await guessing.wait(client_address(request.scope), name_key(visitor.name))
    if wait is not None:
        return await account_answer(request, store, visitor, 429, problem=locked(wait))
    account = await verified(store, visitor, form["current"])
    problem = password_problem(form["password"])
    if account is None:
        await guessing.failed(name_key(visitor.name))
        problem = say("password-wrong", "the current password is wrong")
    elif problem is None and form["password"] != form["again"]:
        problem = say("password-mismatch", "the two passwords differ")
    if account is None or problem is not None:
        return await account_answer(request, store, visitor, 400, problem=problem)
    hashed = await asyncio.to_thread(hash_password, form["password"])
    # Every log-in of the account ends (a copy of this very cookie too); this browser gets a new one.
    await asyncio.to_thread(records.set_password, store, account.id, hashed)
    await log_in(request, store, account)
    return await account_answer(request, store, visitor, done=say("password-changed", "the password is changed"))


@router.post("/account/delete", response_model=None)
async def delete_account(request: Request, store: StoreDep, visitor: VisitorDep, guessing: GuessingDep) -> Response:
    form = await fields(request, "password")
    wait = await guessing.wait(client_address(request.scope), name_key(visitor.name))
    if wait is not None:
        return await account_answer(request, store, visitor, 429, problem=locked(wait))
    account = await verified(store, visitor, form["password"])
    if account is None:
        await guessing.failed(name_key(visitor.name))
        return await account_answer(request, store, visitor, 400, problem=say("password-wrong", "the current password is wrong"))
    await asyncio.to_thread(records.delete_account, store, account.id)
    start_session(request, new_guest())
    return RedirectResponse("/", status_code=303)


__all__ = ["router"]
