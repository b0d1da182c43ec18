"""`tablectl software history` (9 NYCRR 5319.14(a)(3)(ii): at least the last ten changes to the control
program), read by the installed command from a journal that holds more than ten."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.journal.store import Journal
from controller.software.history import history

TABLECTL = Path(sys.executable).with_name("tablectl")


def test_every_change_is_listed_oldest_first_with_who_accepted_it(tmp_path):
    with Journal.open(tmp_path) as j:
        j.append("software-accepted", {"digest": "d0", "by": None, "reason": "first start",
                                       "versions": {"tablectl": "1.0"}})
        j.append("power-up", {"software": "d0", "versions": {"tablectl": "1.0"}})
        for n in range(1, 12):
            j.append("power-up", {"software": f"d{n}", "versions": {"tablectl": f"1.{n}"}})   # faulted
            j.append("software-accepted", {
                "digest": f"d{n}", "by": f"S{n}", "reason": f"upgrade {n}", "kind": "upgrade",
                "versions": {"tablectl": f"1.{n}"}, "previous": {"digest": f"d{n - 1}", "versions": {}}})
            j.append("power-up", {"software": f"d{n}", "versions": {"tablectl": f"1.{n}"}})
        j.append("power-up", {"software": "dx", "versions": {"tablectl": "1.11"}})   # nobody accepted it
    rows = history(Journal.open(tmp_path, readonly=True))
    assert [r["digest"] for r in rows] == [f"d{n}" for n in range(12)] + ["dx"]
    assert rows[0]["kind"] == "first start" and rows[0]["by"] is None and rows[0]["starts"] == 1
    assert [(r["by"], r["previous"], r["starts"]) for r in rows[1:12]] == [
        (f"S{n}", f"d{n - 1}", 2) for n in range(1, 12)]
    assert rows[-1]["accepted_at"] is None and rows[-1]["starts"] == 1
    out = subprocess.run([TABLECTL, "software", "history", "--json", "--data-dir", tmp_path],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(json.dumps(rows))
    text = subprocess.run([TABLECTL, "software", "history", "--data-dir", tmp_path],
                          capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert len(text) == 13 and "tablectl 1.11" in text[11] and "by S11" in text[11]
    assert "accepted never by nobody" in text[12]
