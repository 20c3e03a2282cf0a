"""Layer 5, terminal face: the `ogames` command (`app.py`) and its board drawings (`render/`)."""
