"""Where the table keeps its state (the journal, its seal, the fault marker).

Under systemd the unit's `StateDirectory=tablectl` makes /var/lib/tablectl,
owned by the service's user, and passes it in $STATE_DIRECTORY; anywhere else
(a developer's laptop, the tests, a demo) the table writes to the user's state
directory, $XDG_STATE_HOME/tablectl or ~/.local/state/tablectl, so running it
never needs root. The service's own user, tablectl, gets the service's state
directory even outside the unit, so a technician's
`runuser -u tablectl -- tablectl fault status` reads the table's journal. An explicit --data-dir (or the profile's `table.data_dir`)
wins over both.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "tablectl"
SERVICE_STATE = Path("/var/lib") / APP   # the unit's StateDirectory=


def _user() -> str:
    import pwd
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return ""


def default_data_dir(environ: os._Environ | dict | None = None, user: str | None = None) -> Path:
    """The state directory systemd gave us, else the XDG user state directory."""
    env = os.environ if environ is None else environ
    state = env.get("STATE_DIRECTORY")
    if state:
        # systemd lists one path per StateDirectory= entry, colon-separated; ours is the first.
        return Path(state.split(":")[0])
    if (_user() if user is None else user) == APP:
        return SERVICE_STATE
    xdg = env.get("XDG_STATE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec says to ignore a relative value
        return Path(xdg) / APP
    return Path(env.get("HOME") or Path.home()) / ".local" / "state" / APP


def data_dir(explicit: str | os.PathLike | None = None, *, create: bool = True) -> Path:
    """The data directory to use, made (private to the user) when missing."""
    path = Path(explicit).expanduser() if explicit else default_data_dir()
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


JOURNAL_KEY_ENV = "TABLECTL_JOURNAL_KEY"   # as controller/journal/store.py KEY_ENV
INSTALLED_KEY = Path("/etc") / APP / "journal.key"   # `tablectl system install` makes it


def pairing_key(kind: str, data_dir: str | os.PathLike) -> Path:
    """The pairing key of the table's device of `kind` (controller/pairing.py): beside the journal
    key, with its custody (the file $TABLECTL_JOURNAL_KEY names, else the installed one); a table
    with no journal key (a developer's) keeps it in its data directory's pairing/ (mode 0700)."""
    named = os.environ.get(JOURNAL_KEY_ENV)
    if named:
        directory = Path(named).expanduser().parent
    elif INSTALLED_KEY.exists():
        directory = INSTALLED_KEY.parent
    else:
        directory = Path(data_dir) / "pairing"
    return directory / f"device-{kind}.key"
