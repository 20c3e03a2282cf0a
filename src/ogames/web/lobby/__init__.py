"""The lobby (docs/web.md, "Lobby"): seeks offered to anyone (or challenges to one player, or quick
pairing) and listed live on every lobby page, on one server process or several; and rematches.

    records.py    the open seeks in the games database (migration 0008); taking one is one deletion
    protocol.py   the lobby socket's messages
    lobby.py      `Lobby`: this process's lobby pages, posting, accepting and withdrawing seeks, and
                  spreading what happened to the other processes through Redis
    routes.py     GET /lobby, WS /ws/lobby
    rematch.py    a rematch at the end of a game between two people: /api/games/{id}/rematch
"""
