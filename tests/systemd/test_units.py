"""The units, udev rules, sysusers and tmpfiles of systemd/ checked by systemd's own tools."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNITS = ["tablectl.service", "tablectl-kiosk.service", "tablectl-export.service", "tablectl-export.timer"]
DROP_IN = "tablectl.service.d/linked.conf"   # systemd/tablectl-linked.conf, for a linked table


def unit(name: str) -> dict[str, list[str]]:
    """key -> values of a unit file (continuation lines joined)."""
    text = (SYSTEMD / name).read_text().replace("\\\n", " ")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


@pytest.fixture(scope="module")
def root(tmp_path_factory, systemd_analyze) -> Path:
    """A file system root holding the host's system units, ours, and the programs ours start.

    The programs are stand-ins: the units are verified as written, without
    installing tablectl, cage or Chromium on the test machine.
    """
    r = tmp_path_factory.mktemp("root")
    host_units = next(p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir())
    shutil.copytree(host_units, r / "usr/lib/systemd/system", symlinks=True)
    (r / "etc/systemd/system").mkdir(parents=True)
    for name in UNITS:
        shutil.copy(SYSTEMD / name, r / "etc/systemd/system" / name)
        for exec_line in unit(name).get("ExecStart", []):
            program = shlex.split(exec_line.lstrip("-@:+!"))[0]
            stub = r / program.lstrip("/")
            stub.parent.mkdir(parents=True, exist_ok=True)
            stub.write_text("#!/bin/sh\n")
            stub.chmod(0o755)
    (r / "etc/systemd/system" / DROP_IN).parent.mkdir()
    shutil.copy(SYSTEMD / "tablectl-linked.conf", r / "etc/systemd/system" / DROP_IN)
    return r


def test_systemd_analyze_verify_passes(root, systemd_analyze):
    result = subprocess.run([systemd_analyze, "verify", f"--root={root}", *UNITS],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_verify_would_catch_a_mistake(root, systemd_analyze, tmp_path):
    """The check above can fail: a misspelt setting is reported."""
    broken = root / "etc/systemd/system/tablectl-broken.service"
    broken.write_text((SYSTEMD / "tablectl.service").read_text().replace("ProtectSystem=strict",
                                                                           "ProtectSystem=stirct"))
    try:
        result = subprocess.run([systemd_analyze, "verify", f"--root={root}", "tablectl-broken.service"],
                                capture_output=True, text=True, timeout=120)
    finally:
        broken.unlink()
    assert "protect system value" in result.stderr


def test_the_service_is_well_confined(root, systemd_analyze):
    """systemd's own exposure score: 'OK' (at most 2.0 of 10) for the table controller."""
    result = subprocess.run([systemd_analyze, "security", "--offline=yes", f"--root={root}",
                             "--threshold=20", "tablectl.service"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]


def test_the_daily_export_is_confined_tighter_still(root, systemd_analyze):
    """The export only reads the journal and writes files: no network, no devices (at most 1.0 of 10)."""
    result = subprocess.run([systemd_analyze, "security", "--offline=yes", f"--root={root}",
                             "--threshold=10", "tablectl-export.service"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]


def test_order_after_the_clock_and_for_a_linked_table_the_network(root, systemd_analyze):
    """Journal times come from a synchronized clock; a linked table waits for network-online.target."""
    assert "time-sync.target" in " ".join(unit("tablectl.service")["After"]).split()
    shown = subprocess.run([systemd_analyze, "verify", f"--root={root}", "tablectl.service"],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    drop_in = unit("tablectl-linked.conf")
    assert drop_in["Wants"] == ["network-online.target"] and drop_in["After"] == ["network-online.target"]


def test_the_timer_makes_one_archive_a_day_and_keeps_a_number():
    timer, export = unit("tablectl-export.timer"), unit("tablectl-export.service")
    assert timer["OnCalendar"] == ["daily"] and timer["Persistent"] == ["true"]
    assert export["Type"] == ["oneshot"] and export["User"] == ["tablectl"]
    words = export["ExecStart"][0].split()
    assert words[1:] == ["journal", "export", "--into", "/var/lib/tablectl/archives", "--keep",
                         "${TABLECTL_EXPORT_KEEP}"]
    assert export["Environment"] == ["TABLECTL_EXPORT_KEEP=14", "TABLECTL_JOURNAL_KEY=%d/journal.key"]
    # the archive of a keyed journal is sealed with its key, handed over as the table's service has it
    # (the journal's key only: an export talks to no device, so no pairing key goes with it)
    assert export["LoadCredential"] == [c for c in unit("tablectl.service")["LoadCredential"]
                                        if c.startswith("journal.key:")]


def test_documentation_names_files_the_install_command_puts_there():
    """Every Documentation= is a file `tablectl system install` installs (none from a checkout)."""
    from controller.appliance import SYSTEM_FILES
    installed = {"/" + target for target in SYSTEM_FILES.values()}
    for name in UNITS:
        for value in unit(name).get("Documentation", []):
            for url in value.split():
                assert url.startswith("file:") and url[5:] in installed, (name, url)


def test_the_service_is_what_the_issue_asks():
    s = unit("tablectl.service")
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert s["Restart"] == ["on-failure"] and s["WatchdogSec"] == ["10s"]
    assert s["User"] == ["tablectl"] and s["Group"] == ["tablectl"]
    assert s["ProtectSystem"] == ["strict"] and s["StateDirectory"] == ["tablectl"]
    assert s["ExecStart"][0].split()[1:] == ["run", "--config", "/etc/tablectl/table.toml"]
    kiosk = unit("tablectl-kiosk.service")
    assert "--kiosk" in kiosk["ExecStart"][0] and "--app=${TABLECTL_URL}" in kiosk["ExecStart"][0]
    # the kiosk's own door (issue 26): the shipped profiles' [screen] kiosk_port, served to its User= only
    from controller.config import load_profile
    screen = load_profile(SYSTEMD.parent / "config" / "caribbean-stud.toml").screen
    assert kiosk["Environment"][0] == f"TABLECTL_URL=http://127.0.0.1:{screen.kiosk_port}/"
    assert kiosk["User"] == [screen.kiosk_user]
    assert "tablectl.service" in kiosk["After"][0].split()


def test_sysusers_make_the_users_and_the_device_group(tmp_path, systemd_analyze):
    sysusers = shutil.which("systemd-sysusers")
    assert sysusers, "systemd-sysusers comes with systemd"
    (tmp_path / "etc").mkdir()
    result = subprocess.run([sysusers, f"--root={tmp_path}", str(SYSTEMD / "tablectl.sysusers")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    passwd = {line.split(":")[0]: line.split(":") for line in (tmp_path / "etc/passwd").read_text().splitlines()}
    group = {line.split(":")[0]: line.split(":") for line in (tmp_path / "etc/group").read_text().splitlines()}
    assert passwd["tablectl"][3] == group["tablectl"][2]          # primary group tablectl
    assert passwd["tablectl"][5:] == ["/var/lib/tablectl", "/usr/sbin/nologin"]
    assert "tablectl-kiosk" not in group["tablectl"][3].split(",")  # the browser cannot read the journal
    assert "tablectl-kiosk" in group["video"][3].split(",")


def test_tmpfiles_make_the_directories(tmp_path, systemd_analyze):
    tmpfiles, sysusers = shutil.which("systemd-tmpfiles"), shutil.which("systemd-sysusers")
    (tmp_path / "etc").mkdir()
    subprocess.run([sysusers, f"--root={tmp_path}", str(SYSTEMD / "tablectl.sysusers")],
                   check=True, capture_output=True, timeout=60)
    result = subprocess.run([tmpfiles, f"--root={tmp_path}", "--create", str(SYSTEMD / "tablectl.tmpfiles")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    gid = int(next(line.split(":")[2] for line in (tmp_path / "etc/group").read_text().splitlines()
                   if line.startswith("tablectl:")))
    etc = (tmp_path / "etc/tablectl").stat()
    assert (etc.st_mode & 0o777, etc.st_uid, etc.st_gid) == (0o750, 0, gid)
    state = (tmp_path / "var/lib/tablectl").stat()
    assert (state.st_mode & 0o777, state.st_gid) == (0o750, gid)


RULE = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')
KEYS = {"ACTION", "SUBSYSTEM", "ENV", "ATTR", "ATTRS", "SYMLINK", "GROUP", "MODE", "GOTO", "LABEL"}


def test_udev_rules_parse_and_name_every_device():
    symlinks = {}
    for n, line in enumerate((SYSTEMD / "70-tablectl.rules").read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs, pos = [], 0
        while pos < len(line):
            m = RULE.match(line, pos)
            assert m, f"70-tablectl.rules:{n}: cannot parse from column {pos + 1}"
            pairs.append(m.groups())
            pos = m.end()
        assert {k.split("{")[0] for k, _, _ in pairs} <= KEYS, f"line {n}"
        d = {k: v for k, op, v in pairs if op in ("=", "+=")}
        if "SYMLINK" in d:
            assert d["GROUP"] == "tablectl" and d["MODE"] == "0660", f"line {n}"
            symlinks[d["SYMLINK"]] = n
    assert set(symlinks) == {"tablectl/shoe", "tablectl/shuffler", "tablectl/progressive",
                             "tablectl/progressive-hidraw"}


def test_the_service_is_handed_every_devices_pairing_key_and_the_install_lays_each(tmp_path, monkeypatch):
    """The device links' pairing keys (5319.60(a)) reach the table under the unit as they do at the terminal:
    each a credential beside the journal key, named as controller/paths.py looks for it there; `system
    install` lays a placeholder of each (so the unit never lacks a credential file), root-only, never
    replaced, and a placeholder is no pairing (the journal records none)."""
    import os

    from controller import paths
    from controller.appliance import DEVICE_KINDS, make_device_keys
    from controller.pairing import KINDS
    assert DEVICE_KINDS == KINDS
    loaded = dict(v.split(":", 1) for v in unit("tablectl.service")["LoadCredential"])
    monkeypatch.setenv(paths.JOURNAL_KEY_ENV, "/run/credentials/tablectl.service/journal.key")
    for kind in KINDS:
        name = f"device-{kind}.key"
        assert loaded[name] == f"/etc/tablectl/{name}"
        assert paths.pairing_key(kind, tmp_path) == Path("/run/credentials/tablectl.service") / name
    etc = tmp_path / "etc"
    etc.mkdir()
    assert make_device_keys(etc) == list(KINDS)
    first = {k: (etc / f"device-{k}.key").read_bytes() for k in KINDS}
    for k in KINDS:
        assert (os.stat(etc / f"device-{k}.key").st_mode & 0o777) == 0o400
        assert len(bytes.fromhex(first[k].decode().strip())) == 32
    assert make_device_keys(etc) == [] and first == {k: (etc / f"device-{k}.key").read_bytes() for k in KINDS}
