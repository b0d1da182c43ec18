"""The dealers across the floor (issue 30): a table's dealer sign-ins reach the floor's PostgreSQL as
facts of their own, and `tablectl floor report` names the dealers as the table's own report does."""

from __future__ import annotations

import asyncio

from controller.config import load_profile
from tests.report.report_helpers import play, report_json, tablectl
from tests.report.test_floor import send
from tests.table.table_helpers import running


def test_the_floor_names_each_dealer_as_the_tables_own_report(floor, tmp_path):
    data = play("casino-war", tmp_path, 1, table_id="CW-77")
    profile = tmp_path / "CW-77.toml"

    async def sign_in():
        async with running(load_profile(profile), data) as table:
            assert (await table.submit({"type": "dealer_on_duty", "badge": "D-9"}, source="panel"))["ok"]
    asyncio.run(asyncio.wait_for(sign_in(), 60))
    tablectl("run", "--config", str(profile), "--data-dir", str(data), "--autoplay", "--rounds", "1",
             "--seed", "6", timeout=180)
    own = report_json(data)["tables"][0]
    assert [(d["dealer"], d["rounds"]) for d in own["dealers"]] == [("D-9", 1), (None, 1)]
    send(floor, "CW-77", data, tmp_path / "CW-77.outbox")
    theirs = next(t for t in floor.report()["tables"] if t["table"] == "CW-77")
    assert theirs["dealers"] == own["dealers"]
