"""The computer as a teacher: an opening explorer (`explorer`), game reviews and puzzles."""
