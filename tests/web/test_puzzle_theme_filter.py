"""The /puzzles theme filter over the shipped set offers the edge themes (ogames/teach/puzzles/
edges.py) by their names in each language, and choosing one lists only puzzles that carry it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from ogames.teach.puzzles import PuzzleSet
from ogames.web import create_app

from .conftest import quick_settings


def test_the_filter_offers_ladders_and_edge_templates_in_english_and_russian(tmp_path: Path) -> None:
    shipped = PuzzleSet.load()
    with TestClient(create_app(quick_settings(tmp_path / "f.sqlite3", warm_rules=False, puzzles_path=""))) as site:
        english = site.get("/puzzles?lang=en").text
        assert '<option value="ladder">ladder</option>' in english
        assert '<option value="edge-template">edge template</option>' in english
        russian = site.get("/puzzles?lang=ru").text
        assert '<option value="ladder">лестница</option>' in russian
        assert '<option value="edge-template">краевой шаблон</option>' in russian
        for theme in ("ladder", "edge-template"):
            page = site.get(f"/puzzles?theme={theme}&lang=en").text
            listed = re.findall(r'<tr data-puzzle="([^"]+)"', page)
            assert listed and all(theme in shipped.puzzles[ident].themes for ident in listed), theme
            assert f"Puzzles found: {len(shipped.chosen(None, theme))}" in page
        # Onyx's puzzles have no edge themes: the filter of its game does not offer them.
        onyx = site.get("/puzzles?game=onyx&lang=en").text
        assert 'value="ladder"' not in onyx and 'value="edge-template"' not in onyx
