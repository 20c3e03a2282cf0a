"""Notifications by e-mail, opt-in: an account's verified address (`records.py`, `links.py`), the
mails "your move" and "game over" for correspondence games (`notifier.py`), sent in the background
through an SMTP server (`mailer.py`); the account's forms, the verification and unsubscribe links
(`routes.py`)."""
