"""Drivers found by name (drivers/registry.py): another distribution adds one through the
`tablectl.drivers` entry point group, a profile names it, the check refuses a name nobody
installed, and the table builds its device with the class found.

The "other distribution" is a real one as pip lays it out: a package and its .dist-info
(METADATA, entry_points.txt) in a directory put on sys.path, which importlib.metadata reads.
"""

from __future__ import annotations

import asyncio

import pytest
from tests.config.config_helpers import line_of

from drivers import registry

ACME = '''
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.shoe.device import ShoeDevice


class AcmeShoe(ShoeDevice):
    """A vendor's automated shoe speaking the emulated wire (a real one would parse its own)."""


class AcmeReader(ManualShoeDevice):
    pass


class NoShuffle:
    async def start(self): ...
    async def close(self): ...
    async def wait_connected(self, timeout=None): ...
    connected = False
'''

ENTRY_POINTS = """[tablectl.drivers]
shoe.acme-ds6 = acme_tablectl:AcmeShoe
manual_shoe.acme-reader = acme_tablectl:AcmeReader
shuffler.acme-broken = acme_tablectl:NoShuffle
shoe.builtin = acme_tablectl:AcmeShoe
notakind.x = acme_tablectl:AcmeShoe
"""


@pytest.fixture
def acme(tmp_path, monkeypatch):
    """An installed distribution `acme-tablectl` with four driver entry points."""
    site = tmp_path / "site"
    (site / "acme_tablectl").mkdir(parents=True)
    (site / "acme_tablectl" / "__init__.py").write_text(ACME)
    info = site / "acme_tablectl-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-tablectl\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(site))
    yield site


def test_the_built_in_drivers_are_registered_by_kind():
    assert registry.names("shoe") == ["builtin"]
    from drivers.progressive.device import ProgressiveDevice
    from drivers.shuffler.device import ShufflerDevice
    assert registry.driver_class("shuffler") is ShufflerDevice
    assert registry.driver_class("progressive", "builtin") is ProgressiveDevice
    with pytest.raises(registry.DriverNotFound, match=r"no shoe driver named 'acme-ds6' \(installed: builtin\)"):
        registry.driver_class("shoe", "acme-ds6")
    with pytest.raises(registry.DriverNotFound, match="not a kind of device"):
        registry.driver_class("roulette-wheel")


def test_an_installed_distribution_adds_drivers_by_entry_point(acme):
    import acme_tablectl
    assert registry.names("shoe") == ["builtin", "acme-ds6"]          # its "builtin" cannot shadow ours
    assert registry.names("manual_shoe") == ["builtin", "acme-reader"]
    assert registry.driver_class("shoe", "acme-ds6") is acme_tablectl.AcmeShoe
    from drivers.shoe.device import ShoeDevice
    assert registry.driver_class("shoe") is ShoeDevice
    with pytest.raises(registry.DriverUnfit, match="lacks shuffle"):   # the table would call shuffle()
        registry.driver_class("shuffler", "acme-broken")


def test_a_profile_naming_an_installed_driver_validates(acme, profiles):
    profile = profiles.load("caribbean-stud", ("[devices]\n", '[devices]\nshoe = { port = "/dev/ttyUSB0", '
                                                              'driver = "acme-ds6" }\nshuffler = "/dev/ttyUSB1"\n'))
    assert (profile.devices.port_of("shoe"), profile.devices.driver_of("shoe")) == ("/dev/ttyUSB0", "acme-ds6")
    assert (profile.devices.port_of("shuffler"), profile.devices.driver_of("shuffler")) == ("/dev/ttyUSB1", "builtin")


def test_a_profile_naming_an_unknown_driver_is_refused_on_its_line(acme, profiles):
    edit = ("[devices]\n", '[devices]\nshoe = { port = "/dev/ttyUSB0", driver = "acme-ds7" }\n'
                           'progressive = { vendor = 1, product = 2, driver = "acme-ds6" }\n')
    issues, text, path = profiles.refused("caribbean-stud", edit)
    assert [str(i) for i in issues] == [
        f'{path}:{line_of(text, "acme-ds7")}: devices.shoe.driver = "acme-ds7" is not an installed shoe driver '
        "(installed: builtin, acme-ds6; drivers/registry.py)",
        f'{path}:{line_of(text, "vendor = 1")}: devices.progressive.driver = "acme-ds6" is not an installed '
        "progressive driver (installed: builtin; drivers/registry.py)",
    ]


def test_casino_war_names_a_manual_shoe_driver_not_an_automated_one(acme, profiles):
    """The shoe of casino war is a manual dealing shoe (5324.22(d)): its driver is of that kind."""
    issues, _, _ = profiles.refused("casino-war", ("[devices]\n", '[devices]\nshoe = { port = "/dev/ttyUSB0", '
                                                                 'driver = "acme-ds6" }\n'))
    assert [i.key for i in issues] == ["devices.shoe.driver"]
    assert "is not an installed manual shoe driver (installed: builtin, acme-reader;" in str(issues[0])


def test_the_table_builds_the_device_with_the_named_driver(acme, profiles, tmp_path):
    from controller.runtime.devices import DeviceSet
    import acme_tablectl
    profile = profiles.load("casino-war", ("[devices]\n", '[devices]\nshoe = { port = "/dev/ttyUSB9", '
                                                          'driver = "acme-reader" }\n'))
    devices = DeviceSet(profile, asyncio.Queue(), data_dir=tmp_path, seed=1)
    assert type(devices.shoe) is acme_tablectl.AcmeReader and devices.shoe.port == "/dev/ttyUSB9"
    assert devices.world is None   # nothing emulated: the one device is real


VENDOR_SHOE = '''
import os

from drivers.shoe.device import ShoeDevice


class MarkedShoe(ShoeDevice):
    """A vendor's shoe driver that leaves a mark each time the tests start it."""

    async def start(self):
        with open(os.environ["ACME_MARKS"], "a") as f:
            f.write("started\\n")
        return await super().start()
'''


@pytest.mark.slow
def test_the_device_test_class_runs_against_a_driver_found_by_name(tmp_path):
    """A vendor runs tests/devices' TestShoe against their own driver by naming it
    (TABLECTL_SHOE_DRIVER, docs/DRIVERS.md): the class passes and every connection in it
    went through the vendor's driver."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    site = tmp_path / "site"
    (site / "acme_marked").mkdir(parents=True)
    (site / "acme_marked" / "__init__.py").write_text(VENDOR_SHOE)
    info = site / "acme_marked-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-marked\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tablectl.drivers]\nshoe.acme-marked = acme_marked:MarkedShoe\n")
    marks = tmp_path / "marks"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(root)]),
           "TABLECTL_SHOE_DRIVER": "acme-marked", "ACME_MARKS": str(marks)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/devices/test_shoe_device.py::TestShoe"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    passed = int(done.stdout.rsplit(" passed", 1)[0].split()[-1])
    assert passed >= 4
    assert len(marks.read_text().splitlines()) >= passed   # every test connected through it
    env["TABLECTL_SHOE_DRIVER"] = "acme-missing"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                           "tests/devices/test_shoe_device.py::TestShoe"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "no shoe driver named 'acme-missing'" in done.stdout
