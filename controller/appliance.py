"""What the wheel carries besides code: the default profiles and the box's system files.

A technician installs tablectl from its wheel alone, with no checkout beside
it, so the default profiles travel inside each game's package (controller/games/
<game>/defaults/, which the checkout's config/ links to) and the files of systemd/
inside this one (controller/data/, linked to that directory in the checkout); all
are found through importlib.resources, wherever pip put them.

    tablectl run --config caribbean-stud        a packaged profile, by name
    tablectl config show caribbean-stud         print one, to copy and edit
    tablectl system install [--linked] [--root DIR] [--prefix VENV] [--config PROFILE]
                                                put the units, udev rules,
                                                sysusers, tmpfiles and docs
                                                where systemd looks for them,
                                                and make the journal's key

The journal key (docs/SECURITY.md) is 32 random bytes in
/etc/tablectl/journal.key, owned by root and readable by root alone; the
service receives a copy through systemd's LoadCredential=, so the table's
data directory never holds it. An existing key is never replaced: every
MAC in the journal was made with it.
"""

from __future__ import annotations

import os
import secrets
import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from controller.games import registry

# file in the package's data/systemd (or data/) -> where it goes on the box (systemd/README.md)
SYSTEM_FILES = {
    "systemd/tablectl.service": "etc/systemd/system/tablectl.service",
    "systemd/tablectl-kiosk.service": "etc/systemd/system/tablectl-kiosk.service",
    "systemd/tablectl-export.service": "etc/systemd/system/tablectl-export.service",
    "systemd/tablectl-export.timer": "etc/systemd/system/tablectl-export.timer",
    "systemd/70-tablectl.rules": "etc/udev/rules.d/70-tablectl.rules",
    "systemd/tablectl.sysusers": "usr/lib/sysusers.d/tablectl.conf",
    "systemd/tablectl.tmpfiles": "usr/lib/tmpfiles.d/tablectl.conf",
    "systemd/README.md": "usr/share/doc/tablectl/README.md",
    "UPGRADE.md": "usr/share/doc/tablectl/UPGRADE.md",
    "INSTALL.md": "usr/share/doc/tablectl/INSTALL.md",
}
# a table with a [link] block waits for the network (--linked)
LINKED_DROP_IN = ("systemd/tablectl-linked.conf", "etc/systemd/system/tablectl.service.d/linked.conf")


def data(name: str):
    """A file of the package's data directory (a Traversable: a real file once installed)."""
    return resources.files("controller").joinpath("data", *name.split("/"))


def default_profiles() -> dict[str, Traversable]:
    """Each registered game's packaged profiles by name (controller/games/game.py ProfilePart.defaults)."""
    return {name: file for g in registry.games() for name, file in g.profiles.defaults.items()}


def profile_names() -> list[str]:
    return sorted(default_profiles())


def profile_path(name_or_path: str) -> str:
    """The file to read for `--config`: a path that exists wins, else a packaged profile by name."""
    if Path(name_or_path).expanduser().exists():
        return name_or_path
    name = name_or_path[:-5] if name_or_path.endswith(".toml") else name_or_path
    if "/" not in name and name in profile_names():
        return str(default_profiles()[name])
    return name_or_path   # load_profile says it cannot be read


def show_main(args) -> int:
    """`tablectl config show NAME`: a packaged profile's text, to copy to /etc/tablectl/table.toml."""
    if args.name not in profile_names():
        print(f"tablectl config show: no profile named {args.name!r}; there are: {', '.join(profile_names())}",
              file=sys.stderr)
        return 2
    sys.stdout.write(default_profiles()[args.name].read_text(encoding="utf-8"))
    return 0


KEY_FILE = "etc/tablectl/journal.key"


def make_key(path: Path) -> bool:
    """Create the journal key (root-only) unless one is there; True when it was made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
    except FileExistsError:
        print(f"kept the journal key /{KEY_FILE} (never replaced: the journal's MACs are made with it)")
        return False
    try:
        os.write(fd, secrets.token_bytes(32).hex().encode() + b"\n")
        os.fsync(fd)
        if os.geteuid() == 0:
            os.fchown(fd, 0, 0)
    finally:
        os.close(fd)
    print(f"created the journal key /{KEY_FILE} (root only; keep a copy with the casino's keys, "
          "off the box: verifying an archive needs it)")
    return True


DEVICE_KINDS = ("shoe", "shuffler", "progressive")   # controller/pairing.py KINDS (kept apart: a cheap import)


def make_device_keys(directory: Path) -> list[str]:
    """A placeholder pairing key per device kind beside the journal key, root-only, unless one is there.

    The service's unit hands each to the table as a credential (systemd/tablectl.service), and a unit
    whose credential file is missing does not start; so each is there from the install on. A
    placeholder is a random key no pairing journaled: the table shows its device as not paired until
    `tablectl device pair` replaces it (controller/pairing.py takes only the key the journal recorded)."""
    made = []
    for kind in DEVICE_KINDS:
        path = directory / f"device-{kind}.key"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
        except FileExistsError:
            continue
        try:
            os.write(fd, secrets.token_bytes(32).hex().encode() + b"\n")
            os.fsync(fd)
            if os.geteuid() == 0:
                os.fchown(fd, 0, 0)
        finally:
            os.close(fd)
        made.append(kind)
    if made:
        print(f"created placeholder pairing keys for the {', '.join(made)} beside the journal key (not paired: "
              "`tablectl device pair KIND` pairs each device)")
    return made


# the install's own paths as the packaged units name them, replaced by `system install`'s
PACKAGED_PREFIX = "/opt/tablectl"
PACKAGED_KIOSK_URL = "TABLECTL_URL=http://127.0.0.1:8081/"
PROFILE_FILE = "etc/tablectl/table.toml"
CONFIG_FILES = (PROFILE_FILE, "etc/tablectl/supervisors.toml")   # root:tablectl 0640 (tablectl.tmpfiles)


def kiosk_url(profile: str | Path | None) -> str:
    """The kiosk's page: the profile's [screen] kiosk_port (its own door), else its port; without a
    profile, the packaged unit's (the packaged profiles' door)."""
    if profile is None:
        return PACKAGED_KIOSK_URL.split("=", 1)[1]
    from controller.config import load_profile
    screen = load_profile(profile).screen
    return f"http://127.0.0.1:{screen.kiosk_port or screen.port}/"


def templated(source: str, text: str, prefix: str, url: str) -> str:
    """A unit as this box runs it: the venv it was installed in, the kiosk's door of its profile."""
    if not source.endswith((".service", ".timer")):
        return text
    text = text.replace(PACKAGED_PREFIX + "/", prefix.rstrip("/") + "/")
    return text.replace(PACKAGED_KIOSK_URL, f"TABLECTL_URL={url}")


def _service_readable(path: Path) -> None:
    """The profile and the secrets file: root's, readable by the service's group (as tmpfiles sets them)."""
    if not path.exists():
        return
    os.chmod(path, 0o640)
    if os.geteuid() == 0:
        import grp
        try:
            os.chown(path, 0, grp.getgrnam("tablectl").gr_gid)
        except KeyError:
            pass   # no tablectl group yet: systemd-tmpfiles' `z` lines give it after systemd-sysusers


def install_main(args) -> int:
    """`tablectl system install`: copy the system files to their places under --root (default /).

    The units name the venv this command runs from (--prefix to name another) and the kiosk's
    door of the box's profile (--config, else /etc/tablectl/table.toml when it is there), so
    neither is a path or a port the install cannot change; run it again after changing either."""
    root = Path(args.root)
    prefix = getattr(args, "prefix", None) or sys.prefix
    profile = getattr(args, "config", None) or (root / PROFILE_FILE if (root / PROFILE_FILE).exists() else None)
    url = kiosk_url(profile)
    files = list(SYSTEM_FILES.items()) + ([LINKED_DROP_IN] if getattr(args, "linked", False) else [])
    for source, target in files:
        dest = root / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".tablectl-new")
        tmp.write_text(templated(source, data(source).read_text(encoding="utf-8"), prefix, url), encoding="utf-8")
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
        print(f"installed /{target}")
    print(f"the units run {prefix.rstrip('/')}/bin/tablectl; the kiosk opens {url}"
          + ("" if profile is not None else f" (no /{PROFILE_FILE} yet: run this again once it is there)"))
    make_key(root / KEY_FILE)
    make_device_keys((root / KEY_FILE).parent)
    for name in CONFIG_FILES:
        _service_readable(root / name)
    print("next: systemd-sysusers && systemd-tmpfiles --create && udevadm control --reload "
          "&& systemctl daemon-reload (systemd/README.md)")
    return 0
