"""An operator's routes given ids out of every range, in process: a report number past what the
database's integers hold once answered 500 (the driver's overflow) where a bad number is 422 and
changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.chat import records
from web.conftest import quick_settings


@pytest.fixture
def operator(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(quick_settings(tmp_path / "games.sqlite3"))
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/signup", data={"name": "Boss", "password": "correct horse", "again": "correct horse"})
        assert answer.status_code == 200
        assert records.set_role(app.state.store, "boss", "operator") == "Boss"
        yield client


@pytest.mark.parametrize("number", ["99999999999999999999999", "-99999999999999999999999", "9223372036854775808", "1e3"])
def test_a_report_number_out_of_range_is_refused(operator: TestClient, number: str) -> None:
    game = operator.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}}).json()["id"]
    made = operator.post(f"/api/games/{game}/report", json={"reason": "rude"})
    assert made.status_code == 201
    answer = operator.post(f"/operator/reports/{number}/close", follow_redirects=False)
    assert answer.status_code == 422, answer.text
    assert [report["id"] for report in records.open_reports(operator.app.state.store)] == [made.json()["report"]]  # type: ignore[attr-defined]
