"""A throwaway PostgreSQL cluster on a loopback port, for the tests and benchmarks of the link and the floor.

It runs Debian's server binaries (initdb, pg_ctl) in a temporary directory,
listening on 127.0.0.1 only, with password (SCRAM) authentication for TCP so
that each table's role really authenticates as itself. PostgreSQL refuses to run
as root, so when the caller is root the server runs as the `postgres` system
user (created by Debian's package); when the binaries are missing they are
installed with `apt-get install -y postgresql` (after `apt-get update` if the
first attempt fails). Set TABLECTL_PG_BIN to use other binaries.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER = "postgres"


class PgServerError(RuntimeError):
    pass


def _version_key(path: str) -> tuple[int, ...]:
    part = Path(path).parent.parent.name  # /usr/lib/postgresql/15/bin/initdb -> 15
    return tuple(int(x) for x in part.split(".") if x.isdigit())


def find_bin_dir(install: bool = True) -> Path:
    """The directory of initdb and pg_ctl; installs Debian's postgresql when there is none."""
    env = os.environ.get("TABLECTL_PG_BIN")
    if env:
        if not (Path(env) / "initdb").exists():
            raise PgServerError(f"TABLECTL_PG_BIN={env} has no initdb")
        return Path(env)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    if which:
        return Path(which).parent
    if not install:
        raise PgServerError("no PostgreSQL server binaries (initdb) found")
    if os.geteuid() != 0:
        raise PgServerError("no PostgreSQL server binaries; install them: apt-get install -y postgresql")
    env_apt = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "postgresql"]
    if subprocess.run(cmd, env=env_apt, capture_output=True, check=False).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env_apt, capture_output=True, check=False)
        done = subprocess.run(cmd, env=env_apt, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PgServerError(f"apt-get install -y postgresql failed: {done.stderr.strip()[-500:]}")
    return find_bin_dir(install=False)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> pwd.struct_passwd | None:
    """The unprivileged user to run the server as, when we are root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                        "--shell", "/usr/sbin/nologin", "postgres"], check=True, capture_output=True)
        return pwd.getpwnam("postgres")


class PgServer:
    """initdb + pg_ctl start/stop on 127.0.0.1:<free port>; `stop("immediate")` is a crash."""

    def __init__(self, *, settings: dict[str, str] | None = None) -> None:
        self.bin = find_bin_dir()
        self.user = _server_user()
        self.dir = Path(tempfile.mkdtemp(prefix="tablectl-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.password = secrets.token_urlsafe(18)
        self.port = free_port()
        self.settings = {
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{self.dir}'",
            "max_connections": "300",
            "shared_buffers": "'64MB'",
            "log_min_messages": "warning",
            "log_connections": "off",
            **(settings or {}),
        }
        if self.user is not None:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        os.chmod(self.dir, 0o700)

    # --- running the binaries as the server's user ---------------------------------------
    def _run(self, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
        kw: dict = {}
        if self.user is not None:
            kw = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C",
               "HOME": str(self.dir)}
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True, text=True, check=False,
                              env=env, cwd=self.dir, timeout=timeout, **kw)
        if check and done.returncode != 0:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise PgServerError(f"{args[0]} {args[1:3]} failed ({done.returncode}): "
                                f"{done.stderr.strip()[-1500:]}\n{tail}")
        return done

    def init(self) -> "PgServer":
        pwfile = self.dir / "pw"
        pwfile.write_text(self.password + "\n")
        if self.user is not None:
            os.chown(pwfile, self.user.pw_uid, self.user.pw_gid)
        os.chmod(pwfile, 0o600)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--pwfile", str(pwfile),
                  "--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        pwfile.unlink()
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\n# tablectl test cluster\n")
            for k, v in self.settings.items():
                conf.write(f"{k} = {v}\n")
        return self

    def _set_port(self, port: int) -> None:
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"port = {port}\n")
        self.port = port

    def start(self) -> "PgServer":
        """Start (or start again after a stop) on the same port; first start retries another port."""
        if not self.data.exists():
            self.init()
            self._set_port(self.port)
            for _attempt in range(5):
                done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                                 "start", check=False, timeout=90)
                if done.returncode == 0:
                    return self
                if "could not bind" not in (self.log.read_text() if self.log.exists() else ""):
                    break
                self._set_port(free_port())
            raise PgServerError(f"pg_ctl start failed: {done.stderr.strip()}\n"
                                f"{self.log.read_text()[-2000:] if self.log.exists() else ''}")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start", timeout=90)
        return self

    def stop(self, mode: str = "fast") -> None:
        """`fast` for an orderly stop; `immediate` is a crash (recovery at the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False, timeout=90)

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def cleanup(self) -> None:
        if self.data.exists():
            self.stop("fast" if self.running() else "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- connecting ---------------------------------------------------------------------
    def admin_kwargs(self, dbname: str = "postgres") -> dict:
        return {"host": "127.0.0.1", "port": self.port, "user": SUPERUSER, "password": self.password,
                "dbname": dbname}

    def url(self, user: str, dbname: str) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{dbname}"

    def wait_ready(self, timeout: float = 30) -> None:
        import psycopg
        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(**self.admin_kwargs(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def __enter__(self) -> "PgServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.cleanup()
