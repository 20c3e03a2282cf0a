"""Talking: a chat per game for its players and one for its spectators, reports of games, and the
operators who read the reports and mute, ban or hide (docs/web.md, "Chat and reports").

    text.py      a message's text cleaned (control characters out, one line, a length limit)
    records.py   what is stored: messages, reports, sanctions, hidden chats (migration 0009)
    rooms.py     who may read and write which room of a game's chat
    live.py      the pages listening to a game's chat, and the relay between server processes
    routes.py    the chat's API and WebSocket, reports, and the operator's pages
"""
