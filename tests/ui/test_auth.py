"""Supervisors' credentials: salted hashes only, lock-out after wrong PINs, idle sessions end."""

from __future__ import annotations

import argparse
import io
import os
import stat
from pathlib import Path

import pytest

from controller import credentials
from controller.ui import auth
from controller.credentials import SecretsError, Supervisor, hash_pin, load_secrets, pin_matches, write_secrets
from controller.ui.auth import LOCK_SECONDS, MAX_FAILURES, MAX_SOURCE_FAILURES, Authority, SignInRefused


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def hashed() -> str:
    return hash_pin("471147")


def test_a_pin_is_stored_salted_and_never_as_itself(hashed):
    again = hash_pin("471147")
    assert hashed != again                       # a fresh salt each time
    assert "471147" not in hashed
    assert hashed.startswith("scrypt$16384$8$1$")
    assert pin_matches("471147", hashed) and pin_matches("471147", again)
    assert not pin_matches("471247", hashed)


@pytest.mark.parametrize("pin", ["123", "1234", "12345", "12345678901234", "12a456", "", " 123456", "\uff11\uff12\uff13\uff14\uff15\uff16"])
def test_a_pin_is_6_to_12_digits(pin):
    with pytest.raises(ValueError, match="6 to 12 digits"):
        hash_pin(pin)


def test_secrets_round_trip_and_file_is_the_owners_and_its_groups(tmp_path, hashed):
    """0640 and the directory's group (root:tablectl in /etc/tablectl): the service reads it whichever
    of `supervisor add` and systemd-tmpfiles ran first (docs/INSTALL.md)."""
    path = tmp_path / "s.toml"
    write_secrets(path, {"S1": Supervisor("S1", 'Ann "Boss" O\\Neil', hashed)})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.stat(path).st_gid == os.stat(tmp_path).st_gid
    os.chmod(path, 0o600)   # a file in place keeps its mode when it is written again
    write_secrets(path, {"S1": Supervisor("S1", "Ann", hashed)})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    write_secrets(path, {"S1": Supervisor("S1", 'Ann "Boss" O\\Neil', hashed)})
    got = load_secrets(path)
    assert got == {"S1": Supervisor("S1", 'Ann "Boss" O\\Neil', hashed)}


@pytest.mark.parametrize("text, message", [
    ('[supervisors.S1]\nname = "A"\npin = "1234"\n', "supervisors.S1.pin: not a PIN hash"),
    ('[supervisors.S1]\nname = "A"\n', "supervisors.S1.pin is missing"),
    ('[supervisors.S1]\npin = "{h}"\ncolour = "red"\n', "unknown key 'colour'"),
    ('[admins.S1]\npin = "{h}"\n', "unknown key 'admins'"),
    ('[supervisors."bad id!"]\npin = "{h}"\n', "a supervisor id is"),
    ('[supervisors.S1]\npin = "scrypt$1024$8$1$00112233445566778899aabbccddeeff$00112233445566778899aabbccddeeff"\n',
     "weaker than"),
    ('supervisors = [', "not TOML"),
])
def test_a_bad_secrets_file_is_refused_naming_file_and_key(tmp_path, hashed, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text.replace("{h}", hashed))
    with pytest.raises(SecretsError) as err:
        load_secrets(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_missing_secrets_file_is_named(tmp_path):
    with pytest.raises(SecretsError, match="no such secrets file"):
        load_secrets(tmp_path / "none.toml")


def test_no_secrets_file_means_nobody_signs_in():
    a = Authority.from_file(None)
    with pytest.raises(SignInRefused):
        a.sign_in("S1", "471147")


def test_lock_after_repeated_failures_then_unlock_after_the_lock_time(hashed):
    clock = Clock()
    a = Authority({"S1": Supervisor("S1", "Ann", hashed)}, clock=clock)
    for _i in range(MAX_FAILURES - 1):
        with pytest.raises(SignInRefused) as err:
            a.sign_in("S1", "000000")
        assert err.value.locked_until is None
    with pytest.raises(SignInRefused) as err:
        a.sign_in("S1", "000000")
    assert err.value.locked_until == clock.t + LOCK_SECONDS
    with pytest.raises(SignInRefused, match="locked"):
        a.sign_in("S1", "471147")                   # the right PIN, still locked
    clock.t += LOCK_SECONDS + 1
    token, session = a.sign_in("S1", "471147")
    assert session.who == "S1" and a.session(token).name == "Ann"


def test_an_unknown_id_fails_like_a_wrong_pin(hashed):
    a = Authority({"S1": Supervisor("S1", "Ann", hashed)}, clock=Clock())
    with pytest.raises(SignInRefused) as unknown:
        a.sign_in("S2", "471147")
    with pytest.raises(SignInRefused) as wrong:
        a.sign_in("S1", "000000")
    assert str(unknown.value) == str(wrong.value)


def test_guesses_spread_over_many_ids_lock_their_source_not_every_supervisor(hashed, monkeypatch):
    """Issue 26: twenty wrong PINs from one client locked every supervisor out for 15 minutes,
    renewable. They lock that client; another address and the kiosk's door still sign in."""
    # Each guess would cost a real scrypt; the counting is what is under test here.
    monkeypatch.setattr(auth, "pin_matches", lambda pin, stored: pin == "471147" and stored == hashed)
    clock = Clock()
    a = Authority({"S1": Supervisor("S1", "Ann", hashed)}, clock=clock)
    for i in range(MAX_SOURCE_FAILURES - 1):
        with pytest.raises(SignInRefused) as err:
            a.sign_in(f"X{i}", "000000", "screen", "10.0.0.66")
        assert err.value.locked_until is None
    with pytest.raises(SignInRefused) as err:
        a.sign_in("X-last", "000000", "screen", "10.0.0.66")
    assert err.value.locked_until is not None
    with pytest.raises(SignInRefused, match="locked"):
        a.sign_in("S1", "471147", "screen", "10.0.0.66")     # that client: locked, even with the right PIN
    assert a.sign_in("S1", "471147", "screen", "10.0.0.7")[1].who == "S1"    # another client
    assert a.sign_in("S1", "471147", "kiosk")[1].who == "S1"                 # the kiosk


def test_an_id_locked_on_the_screens_port_still_signs_in_at_the_kiosk(hashed):
    """Five wrong PINs for an id from anywhere on the screen's port lock it there for everyone
    (guessing from many addresses gets no more tries), but not at the kiosk's own door."""
    clock = Clock()
    a = Authority({"S1": Supervisor("S1", "Ann", hashed)}, clock=clock)
    for i in range(MAX_FAILURES):
        with pytest.raises(SignInRefused):
            a.sign_in("S1", "000000", "screen", f"10.0.0.{i}")   # a new address each time
    with pytest.raises(SignInRefused, match="locked"):
        a.sign_in("S1", "471147", "screen", "10.0.0.99")
    assert a.sign_in("S1", "471147", "kiosk")[1].who == "S1"


def test_the_counts_by_source_outlive_a_restart(hashed, tmp_path, monkeypatch):
    monkeypatch.setattr(auth, "pin_matches", lambda pin, stored: pin == "471147" and stored == hashed)
    secrets = tmp_path / "s.toml"
    write_secrets(secrets, {"S1": Supervisor("S1", "Ann", hashed)})
    a = Authority.from_file(secrets, state_dir=tmp_path)
    for i in range(MAX_SOURCE_FAILURES):
        with pytest.raises(SignInRefused):
            a.sign_in(f"X{i}", "000000", "screen", "10.0.0.66")
    b = Authority.from_file(secrets, state_dir=tmp_path)
    with pytest.raises(SignInRefused, match="locked"):
        b.sign_in("S1", "471147", "screen", "10.0.0.66")
    assert b.sign_in("S1", "471147", "kiosk")[1].who == "S1"


def test_a_session_ends_when_left_idle_and_on_sign_out(hashed):
    clock = Clock()
    a = Authority({"S1": Supervisor("S1", "Ann", hashed)}, clock=clock, idle_seconds=300)
    token, _ = a.sign_in("S1", "471147")
    clock.t += 299
    assert a.session(token) is not None           # use keeps it alive
    clock.t += 299
    assert a.session(token) is not None
    clock.t += 301
    assert a.session(token) is None
    token, _ = a.sign_in("S1", "471147")
    a.sign_out(token)
    assert a.session(token) is None
    assert a.session(None) is None and a.session("made-up") is None


def _args(**kw):
    base = {"supervisor_id": "S7", "name": None, "secrets": None, "config": None, "pin_stdin": True}
    return argparse.Namespace(**{**base, **kw})


def test_supervisor_add_writes_a_hash_and_replaces(tmp_path, monkeypatch, capsys):
    path = tmp_path / "sup.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("975319\n"))
    assert credentials.add_main(_args(secrets=str(path), name="Sam Lee")) == 0
    got = load_secrets(path)
    assert got["S7"].name == "Sam Lee" and pin_matches("975319", got["S7"].pin_hash)
    assert "975319" not in path.read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO("135791\n"))
    assert credentials.add_main(_args(secrets=str(path))) == 0
    got = load_secrets(path)
    assert got["S7"].name == "Sam Lee" and pin_matches("135791", got["S7"].pin_hash)
    assert "replaced supervisor S7" in capsys.readouterr().out


def test_supervisor_add_refuses_a_short_pin_and_writes_nothing(tmp_path, monkeypatch, capsys):
    path = tmp_path / "sup.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert credentials.add_main(_args(secrets=str(path))) == 2
    assert not path.exists()
    assert "6 to 12 digits" in capsys.readouterr().err


def test_supervisor_add_finds_the_file_through_the_profile(tmp_path, monkeypatch):
    profile = tmp_path / "war.toml"
    source = Path(__file__).parents[2].joinpath("config", "casino-war.toml").read_text()
    assert "[screen]" in source
    profile.write_text(source.replace("[screen]", '[screen]\nsecrets = "sup.toml"', 1))
    monkeypatch.setattr("sys.stdin", io.StringIO("246824\n"))
    assert credentials.add_main(_args(config=str(profile))) == 0
    assert "S7" in load_secrets(tmp_path / "sup.toml")


def test_the_profile_may_raise_the_pins_digits_never_lower_them(tmp_path, monkeypatch, capsys):
    source = Path(__file__).parents[2].joinpath("config", "casino-war.toml").read_text()
    profile = tmp_path / "war.toml"
    profile.write_text(source.replace("[screen]", '[screen]\nsecrets = "sup.toml"\npin_digits = 8', 1))
    monkeypatch.setattr("sys.stdin", io.StringIO("246824\n"))
    assert credentials.add_main(_args(config=str(profile))) == 2
    assert "8 to 12 digits" in capsys.readouterr().err and not (tmp_path / "sup.toml").exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("24682468\n"))
    assert credentials.add_main(_args(config=str(profile))) == 0
    from controller.config import ConfigError, load_profile
    profile.write_text(source.replace("[screen]", "[screen]\npin_digits = 4", 1))
    with pytest.raises(ConfigError, match="pin_digits"):
        load_profile(profile)


def test_a_supervisor_added_while_the_table_runs_can_sign_in(tmp_path, hashed):
    path = tmp_path / "s.toml"
    write_secrets(path, {"S1": Supervisor("S1", "Ann", hashed)})
    a = Authority.from_file(path, clock=Clock())
    with pytest.raises(SignInRefused):
        a.sign_in("S2", "471147")
    write_secrets(path, {"S1": Supervisor("S1", "Ann", hashed), "S2": Supervisor("S2", "Bo", hashed)})
    _, session = a.sign_in("S2", "471147")
    assert session.name == "Bo"
    # A broken file keeps the supervisors already known.
    path.write_text("not toml [")
    _, session = a.sign_in("S1", "471147")
    assert session.who == "S1"


def test_a_replaced_secrets_file_keeps_its_mode(tmp_path, hashed):
    path = tmp_path / "s.toml"
    write_secrets(path, {"S1": Supervisor("S1", "Ann", hashed)})
    os.chmod(path, 0o640)
    write_secrets(path, {"S1": Supervisor("S1", "Ann", hashed)})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
