"""The wheel is the product: built from the checkout, installed in a fresh venv outside it, and
used as docs/UPGRADE.md tells a technician to: install, play, verify, link init, upgrade and
accept, roll back, export, verify the archive elsewhere, restore.

The tests of this module run in order and share one install (module-scoped fixtures): each
step starts from where the one before left the box, as on a real one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
NEXT = VERSION + ".1"   # the release "after" this one, built from the same source with its version moved
SOURCE = ("controller", "drivers", "config", "systemd", "docs", "pyproject.toml", "README.md")


def run(*args, cwd: Path, env: dict | None = None, timeout: float = 120, check: bool = True,
        input: str | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **(env or {})}, input=input)
    if check:
        assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def build_wheel(into: Path, version: str, work: Path) -> tuple[Path, str]:
    """A wheel of a copy of the checkout (the checkout itself is left untouched); (wheel, pip's output)."""
    src = work / f"src-{version}"
    src.mkdir()
    for name in SOURCE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(ROOT / name, src / name)
    pyproject = src / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(f'version = "{VERSION}"', f'version = "{version}"', 1))
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", into, src, cwd=work, timeout=300)
    return next(into.glob(f"tablectl-{version}-*.whl")), done.stdout + done.stderr


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """Two wheels (this version and the next), and a venv outside the checkout with this one installed."""
    work = tmp_path_factory.mktemp("appliance")
    assert ROOT not in work.parents
    wheels = work / "wheels"
    wheel, output = build_wheel(wheels, VERSION, work)
    upgrade, _ = build_wheel(wheels, NEXT, work)
    venv = work / "opt-tablectl"
    run(sys.executable, "-m", "venv", venv, cwd=work)
    # the venv's own pip, as docs/UPGRADE.md; --no-compile only saves the test the bytecode step
    run(venv / "bin/pip", "install", "-q", "--no-compile", wheel, cwd=work, timeout=600)
    return {"work": work, "venv": venv, "bin": venv / "bin", "wheel": wheel, "upgrade": upgrade,
            "build_output": output, "data": work / "state"}


def tablectl(box, *args, **kw) -> subprocess.CompletedProcess:
    return run(box["bin"] / "tablectl", *args, cwd=box["work"], **kw)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def profile(box) -> Path:
    """`config show` copied and edited, as a technician makes /etc/tablectl/table.toml."""
    path = box["work"] / "table.toml"
    if not path.exists():
        text = tablectl(box, "config", "show", "caribbean-stud").stdout
        assert 'game = "caribbean-stud"' in text and "port = 8080" in text
        path.write_text(text.replace("port = 8080", f"port = {free_port()}")
                        .replace("kiosk_port = 8081", f"kiosk_port = {free_port()}"))
    return path


def play(box, rounds: int, data: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    return tablectl(box, "run", "--config", profile(box), "--data-dir", data or box["data"], "--autoplay",
                    "--rounds", rounds, "--seed", 3, check=check)


def secrets(box) -> Path:
    """The screens' secrets file with S1 (PIN 1111) and S2 (2222), written by the installed command."""
    path = box["work"] / "secrets.toml"
    if not path.exists():
        for who, pin in (("S1", "111111"), ("S2", "222222")):
            tablectl(box, "supervisor", "add", who, "--secrets", path, "--pin-stdin", input=f"{pin}\n")
    return path


def test_the_build_is_clean_and_the_wheel_holds_what_the_box_needs(box):
    assert "BuildBackendWarning" not in box["build_output"]
    assert "deprecat" not in box["build_output"].lower()
    import zipfile
    names = set(zipfile.ZipFile(box["wheel"]).namelist())
    for needed in ("controller/link/schema.sql", "controller/floor/schema.sql",
                   "controller/games/caribbean_stud/defaults/caribbean-stud.toml", "controller/ui/static/uPlot.iife.min.js",
                   "controller/games/poker/defaults/texas-holdem.toml", "controller/data/systemd/tablectl.service",
                   "controller/data/systemd/tablectl-export.timer", "controller/data/systemd/70-tablectl.rules",
                   "controller/data/systemd/tablectl.sysusers", "controller/data/systemd/tablectl.tmpfiles",
                   "controller/data/UPGRADE.md", "controller/data/INSTALL.md", "controller/ui/static/software.js",
                   "controller/games/poker/static/dealer.js", "controller/games/poker/static/supervisor.js",
                   "controller/games/caribbean_stud/static/dealer.js", "controller/games/casino_war/static/dealer.js"):
        assert needed in names, needed
    # test support is not the product (issue 14): the throwaway PostgreSQL stays in the checkout
    assert not [n for n in names if "pgserver" in n or n.startswith(("testsupport/", "tests/"))]
    # only the table's dependencies: nothing of the test extra
    installed = run(box["bin"] / "python", "-m", "pip", "list", "--format=json", cwd=box["work"]).stdout
    names = {p["name"].lower() for p in json.loads(installed)}
    assert "pydantic" in names and "psycopg-binary" in names
    assert not names & {"pytest", "playwright", "hypothesis", "pokerkit"}


def test_version_and_the_one_command_tree(box):
    assert tablectl(box, "--version").stdout.strip() == f"tablectl {VERSION}"
    bare = tablectl(box, "link", check=False)
    assert bare.returncode == 2 and "usage: tablectl link" in bare.stderr
    assert tablectl(box, "link", "help", check=False).returncode == 2
    helped = tablectl(box, "link", "--help")
    assert "init" in helped.stdout and "--dsn" in helped.stdout
    assert tablectl(box, "link", "pool", "create", check=False).returncode == 2
    assert tablectl(box, "nonsense", check=False).returncode == 2


def test_a_packaged_profile_by_name_and_a_screen_port_taken_is_a_failed_start(box, tmp_path):
    """`run --config caribbean-stud` finds the packaged profile; its screen port (8080) is held here,
    so the table must fail to start: one log line, exit 1, never READY to systemd."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("127.0.0.1", 8080))
        holder.listen(1)
    except OSError:
        holder.close()
        holder = None   # somebody else holds 8080 already: taken either way
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(0.5)
    try:
        failed = tablectl(box, "run", "--config", "caribbean-stud", "--data-dir", tmp_path / "d", "--autoplay",
                          "--rounds", 1, check=False, env={"NOTIFY_SOCKET": str(tmp_path / "notify")})
        sent = []
        try:
            while True:
                sent.append(notify.recv(4096))
        except socket.timeout:
            pass
    finally:
        notify.close()
        if holder is not None:
            holder.close()
    assert failed.returncode == 1, failed.stderr[-2000:]
    lines = [json.loads(line) for line in failed.stderr.splitlines() if line.startswith("{")]
    bind = [x for x in lines if x["event"] == "screen_bind_failed"]
    assert len(bind) == 1 and bind[0]["port"] == 8080 and "8080" in bind[0]["error"]
    assert not [x for x in lines if x.get("level") == "error" and x["event"] != "screen_bind_failed"]
    assert not any(b"READY=1" in m for m in sent), sent


def test_install_play_and_verify_the_journal(box):
    played = play(box, 3)
    rounds = [json.loads(line) for line in played.stdout.splitlines()]
    assert [r["round"] for r in rounds] == ["CS-01-000001", "CS-01-000002", "CS-01-000003"]
    verified = tablectl(box, "journal", "verify", "--data-dir", box["data"])
    assert "chain, seal and file verified" in verified.stdout and "3 settled" in verified.stdout
    status = tablectl(box, "fault", "status", "--data-dir", box["data"])
    assert status.stdout == "no fault\n"


def test_the_digest_covers_every_installed_distribution_from_its_record(box):
    code = ("import json; from controller.journal import selfcheck as s; m, p = s.installed_manifest(); "
            "print(json.dumps({'m': m, 'p': [str(x) for x in p], 'd': s.software_digest(m)}))")
    out = json.loads(run(box["bin"] / "python", "-c", code, cwd=box["work"]).stdout)
    m = out["m"]
    assert out["p"] == []
    assert m["dist:tablectl"] == VERSION and "controller/journal/store.py" in m and "controller/link/schema.sql" in m
    for dep in ("pydantic", "pydantic-core", "starlette", "uvicorn", "structlog", "psycopg", "psycopg-binary",
                "pyserial", "pyusb", "transitions"):
        assert f"dist:{dep}" in m, dep
    assert m["python"].startswith(f"{sys.implementation.name} {sys.version.split()[0]}")
    entries = run(box["bin"] / "python", "-c",
                  "import sys, json; from controller.journal.store import Journal; "
                  "j = Journal.open(sys.argv[1], readonly=True); "
                  "print(json.dumps([e.payload['software'] for e in j.table_entries('power-up')]))",
                  box["data"], cwd=box["work"]).stdout
    assert set(json.loads(entries)) == {out["d"]}
    box["digest"] = out["d"]


def test_link_init_against_postgresql(box, pg):
    import psycopg
    with psycopg.connect(**pg.admin_kwargs(), autocommit=True) as conn:   # the session's cluster (tests/pg_fixtures.py)
        conn.execute(f"CREATE DATABASE appliance_link_{os.getpid()}")
    env = {"PGPASSWORD": pg.password}
    dsn = f"host=127.0.0.1 port={pg.port} user={pg.admin_kwargs()['user']} dbname=appliance_link_{os.getpid()}"
    done = tablectl(box, "link", "--dsn", dsn, "init", env=env)
    assert done.stdout.strip() == "link schema installed"
    assert tablectl(box, "link", "init", "--dsn", dsn, env=env).returncode == 0   # again: an update


def test_upgrade_then_accept_then_roll_back(box):
    bin_ = box["bin"]
    run(bin_ / "pip", "install", "-q", "--no-compile", box["upgrade"], cwd=box["work"], timeout=300)
    assert tablectl(box, "--version").stdout.strip() == f"tablectl {NEXT}"
    refused = play(box, 1, check=False)
    assert refused.returncode == 3 and "fault" in refused.stdout
    status = tablectl(box, "fault", "status", "--data-dir", box["data"], check=False)
    assert status.returncode == 1 and f"tablectl: {VERSION} was replaced by {NEXT}" in status.stdout
    assert len(status.stdout.splitlines()) == 2, status.stdout   # the fault and its one cause: nothing else moved
    # an upgrade: one supervisor accepts it
    tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", secrets(box), "--supervisor", "S1",
             "--note", f"upgrade to {NEXT}", input="111111\n")
    assert [json.loads(x)["round"] for x in play(box, 1).stdout.splitlines()] == ["CS-01-000004"]

    run(bin_ / "pip", "install", "-q", "--no-compile", box["wheel"], cwd=box["work"], timeout=300)
    assert tablectl(box, "--version").stdout.strip() == f"tablectl {VERSION}"
    status = tablectl(box, "fault", "status", "--data-dir", box["data"], check=False)
    assert status.returncode == 0   # not started yet: the fault is found at power-up
    assert play(box, 1, check=False).returncode == 3
    tablectl(box, "fault", "clear", "--data-dir", box["data"], "--secrets", secrets(box), "--supervisor", "S2",
             "--note", "roll back", input="222222\n")
    assert [json.loads(x)["round"] for x in play(box, 1).stdout.splitlines()] == ["CS-01-000005"]
    accepted = run(bin_ / "python", "-c",
                   "import sys, json; from controller.journal.store import Journal; "
                   "j = Journal.open(sys.argv[1], readonly=True); "
                   "print(json.dumps([e.payload for e in j.table_entries('software-accepted')]))",
                   box["data"], cwd=box["work"]).stdout
    history = [(p["by"], p.get("kind"), (p.get("previous") or {}).get("versions", {}).get("tablectl"),
                p["versions"]["tablectl"]) for p in json.loads(accepted)]
    assert history == [(None, None, None, VERSION), ("S1", "upgrade", VERSION, NEXT), ("S2", "upgrade", NEXT, VERSION)]
    assert json.loads(accepted)[-1]["digest"] == box["digest"]   # the same release, the same digest
    assert "chain, seal and file verified" in tablectl(box, "journal", "verify", "--data-dir", box["data"]).stdout


def test_a_file_changed_after_installation_is_a_fault_at_the_very_first_start(box, tmp_path):
    """Nothing is trusted for being there first: the file is checked against its wheel's RECORD."""
    site = Path(run(box["bin"] / "python", "-c", "import controller; print(controller.__file__)",
                    cwd=box["work"]).stdout.strip()).parent
    target = site / "settle.py"
    original = target.read_bytes()
    try:
        target.write_bytes(original + b"\n# changed by hand\n")
        fresh = tmp_path / "fresh"
        assert play(box, 1, data=fresh, check=False).returncode == 3
        status = tablectl(box, "fault", "status", "--data-dir", fresh, check=False)
        assert status.returncode == 1
        assert f"tablectl {VERSION}: controller/settle.py: differs from the hash its wheel installed" in status.stdout
        one = tablectl(box, "fault", "clear", "--data-dir", fresh, "--secrets", secrets(box), "--supervisor", "S1",
                       input="111111\n", check=False)
        assert one.returncode == 2 and "nobody may accept it" in one.stdout   # until the file is back (issue 28)
    finally:
        target.write_bytes(original)


def test_export_verify_elsewhere_and_restore(box, tmp_path):
    archive = tmp_path / "off-the-box" / "journal.tar.gz"
    out = tablectl(box, "journal", "export", "--data-dir", box["data"], "--to", archive).stdout
    head = out.split("head ")[1].strip()
    checked = tablectl(box, "journal", "verify", "--archive", archive, "--anchor", head)
    assert "chain, seal and file verified" in checked.stdout and f"anchor {head} is entry" in checked.stdout
    # an earlier anchor is in the chain too; a hash that never was is not
    assert tablectl(box, "journal", "verify", "--archive", archive, "--anchor", "ab" * 32,
                    check=False).returncode == 1

    # restore into an empty data directory, as docs/UPGRADE.md does, and play on from there; the same
    # box's progressive controller holds the journal's anchor (the emulated one keeps it in sim/)
    restored = tmp_path / "restored"
    restored.mkdir()
    run("tar", "-xzf", archive, "-C", restored, "journal.db", "journal.seal", cwd=tmp_path)
    (restored / "sim").mkdir()
    shutil.copy(box["data"] / "sim" / "progressive-nvram.json", restored / "sim")
    assert "chain, seal and file verified" in tablectl(box, "journal", "verify", "--data-dir", restored).stdout
    before = tablectl(box, "rounds", "list", "--data-dir", restored).stdout
    after = play(box, 1, data=restored)
    last_before = re.findall(r"CS-01-\d+", before)[-1]
    assert json.loads(after.stdout)["round"] == f"CS-01-{int(last_before[-6:]) + 1:06d}"

    # a byte changed inside the archive's journal is found on the other machine
    tampered = tmp_path / "tampered.tar.gz"
    unpacked = tmp_path / "unpacked"
    unpacked.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    db = unpacked / "journal.db"
    data = bytearray(db.read_bytes())
    at = data.find(b"caribbean-stud", len(data) // 2)
    data[at] ^= 0x01
    db.write_bytes(bytes(data))
    with tarfile.open(tampered, "w:gz") as tar:
        for name in ("journal.db", "journal.seal", "anchor.json"):
            tar.add(unpacked / name, arcname=name)
    bad = tablectl(box, "journal", "verify", "--archive", tampered, check=False)
    assert bad.returncode == 1 and "changed after export" in bad.stderr


def test_the_daily_export_keeps_the_configured_number(box, tmp_path):
    archives = tmp_path / "archives"
    made = []
    for _ in range(3):
        out = tablectl(box, "journal", "export", "--data-dir", box["data"], "--into", archives, "--keep", 2).stdout
        made.append(Path(out.split(":")[0]).name)
    kept = sorted(p.name for p in archives.iterdir())
    assert kept == made[1:] and all(re.fullmatch(r"journal-\d{8}T\d{6}\.\d{6}Z\.tar\.gz", n) for n in kept)


def test_system_install_puts_the_files_where_systemd_looks(box, tmp_path):
    root = tmp_path / "root"
    tablectl(box, "system", "install", "--linked", "--root", root, "--prefix", "/opt/tablectl")
    for source, target in (("tablectl.service", "etc/systemd/system/tablectl.service"),
                           ("tablectl-export.timer", "etc/systemd/system/tablectl-export.timer"),
                           ("tablectl-linked.conf", "etc/systemd/system/tablectl.service.d/linked.conf"),
                           ("70-tablectl.rules", "etc/udev/rules.d/70-tablectl.rules"),
                           ("tablectl.sysusers", "usr/lib/sysusers.d/tablectl.conf"),
                           ("tablectl.tmpfiles", "usr/lib/tmpfiles.d/tablectl.conf"),
                           ("README.md", "usr/share/doc/tablectl/README.md")):
        assert (root / target).read_bytes() == (ROOT / "systemd" / source).read_bytes(), target
    assert (root / "usr/share/doc/tablectl/UPGRADE.md").read_bytes() == (ROOT / "docs/UPGRADE.md").read_bytes()
    assert (root / "usr/share/doc/tablectl/INSTALL.md").read_bytes() == (ROOT / "docs/INSTALL.md").read_bytes()


def test_the_units_run_the_venv_they_were_installed_from_and_open_the_profiles_kiosk_door(box, tmp_path):
    """No path or port the install cannot change (issue 32): the units are templated by `system install`."""
    root = tmp_path / "root"
    (root / "etc/tablectl").mkdir(parents=True)
    (root / "etc/tablectl/table.toml").write_text(profile(box).read_text())
    kiosk_port = re.search(r"^kiosk_port = (\d+)", profile(box).read_text(), re.M).group(1)
    said = tablectl(box, "system", "install", "--root", root).stdout
    units = root / "etc/systemd/system"
    service, export, kiosk = ((units / n).read_text() for n in
                              ("tablectl.service", "tablectl-export.service", "tablectl-kiosk.service"))
    assert f"ExecStart={box['venv']}/bin/tablectl run --config /etc/tablectl/table.toml" in service
    assert f"ExecStart={box['venv']}/bin/tablectl journal export" in export
    assert not [x for x in (service + export).splitlines() if x.startswith("ExecStart") and "/opt/tablectl" in x]
    assert f"Environment=TABLECTL_URL=http://127.0.0.1:{kiosk_port}/" in kiosk and ":8081/" not in kiosk
    assert f"{box['venv']}/bin/tablectl" in said and f":{kiosk_port}/" in said
    assert os.stat(root / "etc/tablectl/table.toml").st_mode & 0o777 == 0o640
