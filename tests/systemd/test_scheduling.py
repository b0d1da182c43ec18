"""The table's CPU scheduling in its unit (issue 33): ahead of ordinary processes, not real-time,
as systemd-analyze reads it; benchmarks/lockout.py --load N measures what it buys."""

from __future__ import annotations

import subprocess

from tests.systemd.test_units import SYSTEMD, unit

SCHEDULING = {"Nice": ["-15"], "CPUWeight": ["1000"], "IOWeight": ["1000"]}


def test_the_service_is_scheduled_ahead_of_ordinary_work_and_not_real_time():
    lines = unit("tablectl.service")
    assert {k: lines.get(k) for k in SCHEDULING} == SCHEDULING
    assert "CPUSchedulingPolicy" not in lines and lines["RestrictRealtime"] == ["yes"]


def test_systemd_reads_the_scheduling_lines_and_refuses_a_wrong_one(tmp_path, systemd_analyze):
    """`systemd-analyze verify` of the unit with its scheduling lines, and of the same unit with a
    nice value out of range, which it must refuse (so the first check can fail)."""
    import shutil
    from pathlib import Path
    root = tmp_path / "root"
    host = next(p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir())
    shutil.copytree(host, root / "usr/lib/systemd/system", symlinks=True)
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    program = root / "opt/tablectl/bin/tablectl"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    text = (SYSTEMD / "tablectl.service").read_text()
    (units / "tablectl.service").write_text(text)
    (units / "tablectl-wrong.service").write_text(text.replace("Nice=-15", "Nice=-25"))
    good = subprocess.run([systemd_analyze, "verify", f"--root={root}", "tablectl.service"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (good.returncode, good.stderr) == (0, ""), good.stderr
    wrong = subprocess.run([systemd_analyze, "verify", f"--root={root}", "tablectl-wrong.service"],
                           capture_output=True, text=True, timeout=120, check=False)
    assert "Nice" in wrong.stderr or "nice" in wrong.stderr, wrong.stderr
