"""The [link] settings: a table's pool, database, identity and credential, with TLS off the box."""

from __future__ import annotations

import pytest

from controller.link.config import LinkConfigError, load_link_config, parse_link_config

BASE = {"pool": "cs-main", "table": "CS-01", "url": "postgresql://link_cs01@127.0.0.1:5432/casino",
        "sslmode": "disable"}


def test_defaults_a_one_second_link_timeout_and_verified_tls():
    cfg = parse_link_config({k: v for k, v in BASE.items() if k != "sslmode"})
    assert cfg.timeout_ms == 1000 and cfg.timeout == 1.0  # 5321.18(c), the brief's default
    assert cfg.sslmode == "verify-full"
    assert cfg.role == "link_cs01"


@pytest.mark.parametrize("change,message", [
    ({"url": "postgresql://link_cs01:hunter2@127.0.0.1/casino"}, "link.url: must not carry a password"),
    ({"url": "host=127.0.0.1 user=x password=hunter2"}, "link.url: must not carry a password"),
    ({"url": "postgresql://127.0.0.1/casino"}, "link.url: must name the table's database role"),
    ({"url": "postgresql://x@127.0.0.1/casino?sslmode=disable"}, "give sslmode as its own setting"),
    ({"url": "postgresql://x@10.1.2.3/casino"}, "link.sslmode: disable sends the link in the clear"),
    ({"url": "postgresql://x@db.casino.example/casino", "sslmode": "require"}, "use verify-full"),
    ({"timeout_ms": 10}, "link.timeout_ms"),
    ({"timeout_ms": 1.5}, "link.timeout_ms"),
    ({"pool": "CS Main"}, "link.pool"),
    ({"colour": "red"}, "link.colour"),
    ({"sslcert": "/etc/c.pem"}, "sslcert and sslkey"),
])
def test_bad_settings_are_refused_naming_the_setting(change, message):
    with pytest.raises(LinkConfigError) as exc:
        parse_link_config({**BASE, **change})
    assert message in str(exc.value)
    assert "hunter2" not in str(exc.value)


def test_a_remote_database_with_verified_tls_is_accepted():
    cfg = parse_link_config({**BASE, "url": "postgresql://x@10.1.2.3:6432/casino", "sslmode": "verify-full",
                             "sslrootcert": "/etc/tablectl/ca.pem"})
    kw = cfg.connect_kwargs()
    assert (kw["host"], kw["port"], kw["sslmode"], kw["sslrootcert"]) == ("10.1.2.3", "6432", "verify-full",
                                                                         "/etc/tablectl/ca.pem")
    assert "password" not in kw


def test_the_password_is_read_from_its_file_only_when_connecting(tmp_path):
    pw = tmp_path / "pw"
    pw.write_text("hunter2\n")
    cfg = parse_link_config({**BASE, "password_file": str(pw)})
    assert "hunter2" not in cfg.describe() and "hunter2" not in repr(cfg)
    assert cfg.connect_kwargs()["password"] == "hunter2"
    pw.unlink()
    with pytest.raises(LinkConfigError, match="password_file: cannot read"):
        cfg.connect_kwargs()


def test_a_profile_file_with_a_link_table(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[link]\npool = "cs-main"\ntable = "CS-01"\nurl = "postgresql://x@127.0.0.1/db"\n'
                    'sslmode = "prefer"\ntimeout_ms = 1500\n')
    assert load_link_config(path).timeout_ms == 1500
    path.write_text('[link]\npool = "cs-main"\ntable = "CS-01"\nurl = "postgresql://x@127.0.0.1/db"\ntimeout = 2\n')
    with pytest.raises(LinkConfigError, match=r"table.toml: link.timeout: Extra inputs are not permitted"):
        load_link_config(path)
