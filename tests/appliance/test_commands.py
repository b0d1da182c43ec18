"""The command tree, the packaged profiles and the default data directory, in-process (fast);
tests/appliance/test_wheel.py runs the same commands from an installed wheel."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from controller import appliance, cli, paths
from controller.games import registry
from controller.journal import archive

ROOT = Path(__file__).resolve().parents[2]


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("tablectl ") and out.strip() != "tablectl"


@pytest.mark.parametrize("argv", [["link"], ["link", "help"], ["link", "pool"], ["link", "pool", "create"],
                                  ["link", "show", "--last", "x"], ["journal", "export"], ["config", "show"]])
def test_usage_errors_exit_2_like_every_other_command(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("usage: tablectl")


def test_link_help_is_argparse_help_of_the_same_tree(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["link", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tablectl link [-h] [--dsn DSN]")
    for command in ("init", "pool", "table", "period", "show", "check"):
        assert command in out
    ns = cli.build_parser(["link", "table", "add", "P", "T", "--role", "r", "--who", "w", "--dsn", "d"]).parse_args(
        ["link", "table", "add", "P", "T", "--role", "r", "--who", "w", "--dsn", "d"])
    assert (ns.cmd, ns.sub, ns.pool, ns.table, ns.dsn, ns._command) == ("table", "add", "P", "T",
                                                                        "d", ("link",))


def test_the_top_level_help_lists_link_without_importing_it(capsys):
    import sys
    sys.modules.pop("controller.link.cli", None)
    cli.build_parser(["run"])
    assert "controller.link.cli" not in sys.modules


def test_packaged_profiles_by_name():
    assert "caribbean-stud" in appliance.profile_names() and "texas-holdem" in appliance.profile_names()
    # every default profile of every registered game (its package's ProfilePart.defaults): config/'s,
    # and those of a game another distribution installed (the tests' own)
    assert appliance.profile_names() == sorted(n for g in registry.games() for n in g.profiles.defaults)
    assert {p.stem for p in (ROOT / "config").glob("*.toml")} <= set(appliance.profile_names())
    assert {p.stem for p in (ROOT / "config").glob("*.toml")} == {
        n for g in registry.games() if g.key in ("caribbean_stud", "casino_war", "poker") for n in g.profiles.defaults}
    found = Path(appliance.profile_path("casino-war"))
    assert found.read_bytes() == (ROOT / "config/casino-war.toml").read_bytes()
    assert appliance.profile_path("casino-war.toml") == str(found)
    assert appliance.profile_path(str(ROOT / "config/omaha.toml")) == str(ROOT / "config/omaha.toml")
    assert appliance.profile_path("no-such-game") == "no-such-game"   # load_profile names it


def test_config_show(capsys):
    assert appliance.show_main(SimpleNamespace(name="omaha")) == 0
    assert capsys.readouterr().out == (ROOT / "config/omaha.toml").read_text()
    assert appliance.show_main(SimpleNamespace(name="blackjack")) == 2
    assert "caribbean-stud" in capsys.readouterr().err


def test_the_tablectl_user_gets_the_service_state_directory():
    """`runuser -u tablectl -- tablectl fault status` reads the service's journal (systemd/README.md)."""
    assert paths.default_data_dir({"HOME": "/var/lib/tablectl"}, user="tablectl") == Path("/var/lib/tablectl")
    assert paths.default_data_dir({"STATE_DIRECTORY": "/run/x"}, user="tablectl") == Path("/run/x")
    assert paths.default_data_dir({"HOME": "/home/d"}, user="dealer") == Path("/home/d/.local/state/tablectl")


def test_prune_keeps_the_newest(tmp_path):
    names = [f"journal-2026120{d}T000000.000000Z.tar.gz" for d in range(1, 6)]
    for n in names:
        (tmp_path / n).write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("kept: not an archive")
    gone = archive.prune(tmp_path, 2)
    assert sorted(p.name for p in gone) == names[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[3:] + ["notes.txt"])


def test_an_archive_that_is_not_one(tmp_path, capsys):
    import tarfile
    bogus = tmp_path / "bogus.tar.gz"
    with tarfile.open(bogus, "w:gz") as tar:
        (tmp_path / "evil").write_text("x")
        tar.add(tmp_path / "evil", arcname="../evil")
    assert archive.verify_archive(bogus) == 2
    assert "not a journal archive" in capsys.readouterr().err
    (tmp_path / "junk.tar.gz").write_bytes(b"not gzip")
    assert archive.verify_archive(tmp_path / "junk.tar.gz") == 2
