"""The words of the site's mails, in the recipient's language: the pages' catalogue holds their
translations (src/ogames/locale), as it holds the pages' words. An account's mails are written in
its language (`accounts.language`: the one it signed up in or last chose on the site, as lichess
keeps it); an address being verified is written to in the language of the page it was given on.
A game's title is its name, the same in every language."""

from __future__ import annotations

from ogames.web.catalogue import N_, translations
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.i18n import LANGUAGES

WORDS = dict([
    N_("mail-move-subject", "Your move: {title}"),
    N_("mail-move", "It is your move in a game of {title}."),
    N_("mail-move-by", "It is your move in a game of {title}, before {until}."),
    N_("mail-over-subject", "Game over: {title}"),
    N_("mail-over", "Your game of {title} is over: {result}."),
    N_("mail-footer", "You asked for these mails on your account page. No more of them:"),
    N_("mail-verify-subject", "ogames: is this your address?"),
    N_("mail-verify", "Someone (you, we hope) gave this address to the account {name} on ogames.\n"
                      "To receive its notifications, open this link within two days:"),
    N_("mail-verify-not-you", "If it was not you, do nothing: no mail will follow."),
])


def mail_language(language: str | None) -> str:
    """The language a mail is written in: the one given if the site speaks it, else English."""
    return language if language in LANGUAGES else ENGLISH


def said(language: str, key: str, **values: str) -> str:
    """A mail's text in a language, its values filled in (after the translation: a name or a title
    with braces in it stays as it is)."""
    return str(translations(mail_language(language)).pgettext(key, WORDS[key])).format(**values)


__all__ = ["WORDS", "mail_language", "said"]
