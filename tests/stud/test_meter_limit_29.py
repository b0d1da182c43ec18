"""The meter's limit and overflow, pure (controller/progressive.py), and the profile check that refuses
a limit below the reset or the initial amount, through the installed command (issue 29)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from controller.progressive import Fixed, ProgressiveMeter, WholeMeter, pay_awards, split_at_limit, too_long

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(ROOT / ".venv" / "bin" / "tablectl")


def test_contributions_past_the_limit_go_to_the_overflow():
    assert split_at_limit(990, 30, 1000) == (10, 20)
    assert split_at_limit(1000, 30, 1000) == (0, 30)
    assert split_at_limit(990, 30, None) == (30, 0)
    m = ProgressiveMeter(amount=990, reset=900, contribution_bp=10_000, awards={"royal-flush": WholeMeter()},
                         limit=1000)
    m.contribute([30, 30])
    assert (m.amount, m.overflow, m.to_overflow) == (1000, 50, 50) and m.balances()


def test_at_the_reset_the_overflow_seeds_the_meter_up_to_the_limit_and_the_rest_stays():
    payout = pay_awards(1000, [(1, "royal-flush")], {"royal-flush": WholeMeter()}, reset=900, overflow=250, limit=1000)
    assert (payout.meter_after, payout.from_overflow, payout.seeded) == (1000, 100, 900)
    m = ProgressiveMeter(amount=1000, reset=900, contribution_bp=10_000,
                         awards={"royal-flush": WholeMeter(), "flush": Fixed(5)}, limit=1000, overflow=250)
    m.pay([(1, "royal-flush")])
    assert (m.amount, m.overflow) == (1000, 150) and m.balances()
    again = ProgressiveMeter.from_dict(m.to_dict())
    assert (again.limit, again.overflow, again.from_overflow) == (1000, 150, 100)


def test_a_meter_past_ten_digits_is_flagged_not_capped():
    m = ProgressiveMeter(amount=10**10, reset=0, contribution_bp=10_000, awards={})
    m.contribute([5])
    assert m.figures("progressive")["current"] == 10**10 + 5 and too_long(m.amount)
    assert "current" in m.figures("progressive")["exceeds_ten_digits"]


@pytest.mark.parametrize("extra,what", [("limit = 900000", "is below the reset 1000000"),
                                        ("limit = 2000000", "is below the initial 2500000")])
def test_config_check_refuses_a_limit_below_the_reset_or_the_initial_on_its_line(tmp_path, extra, what):
    text = (ROOT / "config" / "caribbean-stud.toml").read_text()
    text = text.replace("contribution_bp = 7000 ", f"{extra}\ncontribution_bp = 7000 ", 1)
    path = tmp_path / "profile.toml"
    path.write_text(text)
    line = text.splitlines().index(extra) + 1
    done = subprocess.run([TABLECTL, "config", "check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"{path}:{line}: caribbean_stud.progressive.{extra} {what}" in done.stderr, done.stderr
    assert "9 NYCRR 5320.8" in done.stderr
