"""Identity without friction: every visitor is a guest at once (a signed cookie, a generated name)
and may make an account (a name and a password) that keeps the guest's games.

    visitor.py    `Visitor` (id, name, is_guest, role), what a session cookie holds
    identity.py   the middleware: sessions, a guest at once, CSRF, WebSocket origins
    names.py      account names' rules, guests' generated names
    passwords.py  argon2id hashes (pwdlib), timing-safe checks
    guessing.py   the log-in's lock against guessing (the `limits` package)
    records.py    the accounts, who sat in each seat, the site's secret (migration 0006)
    seats.py      recording the visitor in the seats they take
    routes.py     /signup, /login, /logout, /account…

Routes ask for the visitor with `VisitorDep` (web/core/deps.py).
"""
