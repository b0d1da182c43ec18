"""The count table the package ships is what counting every deal gives, byte for byte (`tablectl par --recount`)."""

from __future__ import annotations

import hashlib
import subprocess

from controller.games.caribbean_stud.par import shipped
from tests.par.par_helpers import TABLECTL


def test_recounting_every_deal_gives_the_shipped_table_byte_for_byte(tmp_path):
    out = tmp_path / "stud-table.xz"
    done = subprocess.run([str(TABLECTL), "par", "--recount", "--out", str(out)], capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.read_bytes() == shipped.shipped_bytes()
    assert hashlib.sha256(out.read_bytes()).hexdigest() in done.stdout
    assert "the same bytes as the table this package ships" in done.stdout
