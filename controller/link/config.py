"""How a table reaches its pool: the `[link]` settings of a table's profile.

The settings name the pool, the database (a URL without any password), the
table's identity and where its credential lives (a file, or a client
certificate), never the credential itself, so a profile can be committed and
printed. TLS is required off the box: a database host that is not loopback must
be reached with `sslmode` verify-ca or verify-full, or the setting is refused.
`describe()` is what logs may print; the password is read only when connecting.
"""

from __future__ import annotations

import ipaddress
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

NAME = r"^[a-z0-9][a-z0-9_.-]{0,62}$"
TABLE = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
SSLMODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
VERIFYING = ("verify-ca", "verify-full")
# libpq parameters a URL may carry; anything else (and above all a password) is refused.
URL_KEYS = {"host", "hostaddr", "port", "dbname", "user", "sslmode", "sslrootcert", "sslcert", "sslkey",
            "sslcrl", "application_name", "target_session_attrs", "options"}


class LinkConfigError(ValueError):
    """A `[link]` setting that cannot be used; the message names the setting."""


def _is_loopback(host: str) -> bool:
    if host.startswith("/") or host in ("localhost", ""):
        return True  # a unix socket directory, or the box itself
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LinkConfig(BaseModel):
    """A table's link to one pool (issue 10): pool, database, identity, credential, TLS, timing."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    pool: Annotated[str, Field(pattern=NAME)]
    table: Annotated[str, Field(pattern=TABLE)]
    url: Annotated[str, Field(min_length=1)]       # postgresql://role@host:port/dbname, no password
    password_file: Path | None = None              # the role's password, one line, readable by the box only
    sslmode: Literal["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] = "verify-full"
    sslrootcert: Path | None = None
    sslcert: Path | None = None
    sslkey: Path | None = None
    # 5321.18(c): how long the table waits for the database before its progressive is unplayable
    timeout_ms: Annotated[int, Field(ge=50, le=60_000)] = 1000
    retry_ms: Annotated[int, Field(ge=50, le=600_000)] = 1000
    heartbeat_ms: Annotated[int, Field(ge=50, le=600_000)] = 1000
    outbox: Path | None = None                     # default: <data_dir>/link-<pool>.sqlite

    @model_validator(mode="after")
    def _url(self) -> LinkConfig:
        params = self.url_params()
        if not params.get("user"):
            raise ValueError("url: must name the table's database role (postgresql://ROLE@host/db)")
        host = params.get("host", "")
        for h in host.split(","):
            if not _is_loopback(h) and self.sslmode not in VERIFYING:
                raise ValueError(f"sslmode: {self.sslmode} sends the link in the clear or unverified to {h};"
                                 " use verify-full (or verify-ca) off the box")
        if (self.sslcert is None) != (self.sslkey is None):
            raise ValueError("sslcert and sslkey: give both or neither")
        return self

    def url_params(self) -> dict[str, str]:
        """The URL's parameters; a password in it, or an unknown parameter, is refused."""
        from psycopg import conninfo
        try:
            params = conninfo.conninfo_to_dict(self.url)
        except Exception as exc:  # psycopg.ProgrammingError: the message may echo the URL
            raise ValueError(f"url: not a PostgreSQL URL ({type(exc).__name__})") from None
        if "password" in params or "passfile" in params:
            raise ValueError("url: must not carry a password; use password_file or a client certificate")
        unknown = sorted(set(params) - URL_KEYS)
        if unknown:
            raise ValueError(f"url: parameter {unknown[0]} is not allowed here")
        for key in ("sslmode", "sslrootcert", "sslcert", "sslkey"):
            if key in params:
                raise ValueError(f"url: give {key} as its own setting, not in the URL")
        return {k: str(v) for k, v in params.items()}

    @property
    def role(self) -> str:
        return self.url_params()["user"]

    @property
    def timeout(self) -> float:
        return self.timeout_ms / 1000

    def describe(self) -> str:
        """The link as logs may show it: no password, no key material."""
        p = self.url_params()
        return (f"{p.get('user')}@{p.get('host', 'localhost')}:{p.get('port', '5432')}/"
                f"{p.get('dbname', p.get('user'))} pool={self.pool} table={self.table} sslmode={self.sslmode}")

    def connect_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for psycopg's connect; the only place the password is read."""
        kw: dict[str, Any] = dict(self.url_params())
        kw["sslmode"] = self.sslmode
        for key in ("sslrootcert", "sslcert", "sslkey"):
            value = getattr(self, key)
            if value is not None:
                kw[key] = str(value)
        kw.setdefault("application_name", f"tablectl-link/{self.table}")
        kw["connect_timeout"] = max(2, -(-self.timeout_ms // 1000))  # libpq's own floor is 2 s
        # a link that goes silent kills its socket in seconds, not the kernel's hours
        kw.update(keepalives=1, keepalives_idle=5, keepalives_interval=2, keepalives_count=3,
                  tcp_user_timeout=max(5000, 5 * self.timeout_ms))
        if self.password_file is not None:
            try:
                kw["password"] = self.password_file.read_text().strip()
            except OSError as exc:
                raise LinkConfigError(f"password_file: cannot read {self.password_file}: {exc.strerror}") from None
        return kw

    def outbox_path(self, data_dir: Path | str | None = None) -> Path:
        if self.outbox is not None:
            return self.outbox
        base = Path(data_dir) if data_dir is not None else Path.cwd()
        return base / f"link-{self.pool}.sqlite"


def parse_link_config(data: Any, where: str = "link") -> LinkConfig:
    """A LinkConfig from a mapping, every refusal naming the setting as `where.key: reason`."""
    if isinstance(data, dict):
        data = {k: (Path(v) if k in ("password_file", "sslrootcert", "sslcert", "sslkey", "outbox")
                    and isinstance(v, str) else v) for k, v in data.items()}
    try:
        return LinkConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if not loc:  # a check across settings: its message starts with the setting it names
            raise LinkConfigError(f"{where}.{msg}") from None
        raise LinkConfigError(f"{where}.{loc}: {msg}") from None


def load_link_config(path: Path | str) -> LinkConfig:
    """The `[link]` table of a TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LinkConfigError(f"{path}: {exc}") from None
    if "link" not in data:
        raise LinkConfigError(f"{path}: no [link] table")
    return parse_link_config(data["link"], f"{path}: link")
