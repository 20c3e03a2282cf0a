"""The board games' face of the web server (Omny, Odd-Y, Omega, Onyx): the live hub, the board's
view and drawing, replays, analysis and hints, and their routes."""
