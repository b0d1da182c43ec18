"""A release bundle (scripts/release) installs offline, the same on every box, and a roll-back restores it
exactly: tablectl and every dependency, as `pip freeze` and the software digest show.

The tests of this module run in order on one box (module-scoped fixtures), as a technician would:
install from the first bundle with no index, play, upgrade to a second bundle (a new tablectl and a
dependency moved), roll back to the first.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.appliance.test_wheel import NEXT, ROOT, build_wheel, run

pytestmark = pytest.mark.slow

DIGEST = ("from controller.journal.selfcheck import installed_manifest, software_digest\n"
          "m, problems = installed_manifest()\n"
          "print(software_digest(m), len(problems))\n")


def install(venv: Path, bundle: Path, work: Path) -> None:
    run(venv / "bin/pip", "install", "-q", "--no-compile", "--no-index", "--find-links", bundle,
        "--require-hashes", "-r", bundle / "requirements.lock", cwd=work, timeout=600)


def freeze(venv: Path, work: Path) -> list[str]:
    return run(venv / "bin/pip", "freeze", "--all", "--exclude", "pip", "--exclude", "setuptools",
               cwd=work).stdout.splitlines()


def digest(venv: Path, work: Path) -> str:
    out = run(venv / "bin/python", "-c", DIGEST, cwd=work).stdout.split()
    assert out[1] == "0", "the installed files do not match their RECORD"
    return out[0]


def lock_line(wheel: Path, name: str, version: str) -> str:
    return f"{name}=={version} --hash=sha256:{hashlib.sha256(wheel.read_bytes()).hexdigest()}"


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """The release bundle of this checkout, and a second one: the next tablectl and an older `six`."""
    work = tmp_path_factory.mktemp("release")
    first = work / "bundle-1"
    done = subprocess.run(["sh", str(ROOT / "scripts/release"), str(first)], capture_output=True, text=True,
                          timeout=1200, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "wheels in requirements.lock" in done.stdout
    second = work / "bundle-2"
    second.mkdir()
    lock = {line.split("==")[0]: line for line in (first / "requirements.lock").read_text().splitlines()}
    for wheel in first.glob("*.whl"):
        if not wheel.name.startswith(("tablectl-", "six-")):
            shutil.copy2(wheel, second / wheel.name)
    upgrade, _ = build_wheel(second, NEXT, work)
    run(sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", second,
        "six==1.16.0", cwd=work, timeout=300)
    six = next(second.glob("six-1.16.0-*.whl"))
    lock["tablectl"] = lock_line(upgrade, "tablectl", NEXT)
    lock["six"] = lock_line(six, "six", "1.16.0")
    (second / "requirements.lock").write_text("".join(lock[n] + "\n" for n in sorted(lock)))
    return {"work": work, "first": first, "second": second}


@pytest.fixture(scope="module")
def box(bundles):
    work = bundles["work"]
    venv = work / "opt-tablectl"
    run(sys.executable, "-m", "venv", venv, cwd=work)
    return {"venv": venv, "work": work}


def test_the_lock_pins_every_wheel_of_the_bundle_by_its_hash(bundles):
    first = bundles["first"]
    lines = (first / "requirements.lock").read_text().splitlines()
    names = [line.split("==")[0] for line in lines]
    assert "tablectl" in names and "pydantic" in names and "numpy" in names
    assert "numba" not in names and "llvmlite" not in names   # the lab's, not the table's
    for line in lines:
        assert " --hash=sha256:" in line
    edited = bundles["work"] / "edited"
    shutil.copytree(first, edited)
    six = next(edited.glob("six-*.whl"))
    six.write_bytes(six.read_bytes() + b"\0")     # one byte more: pip must refuse the whole install
    venv = bundles["work"] / "refused"
    run(sys.executable, "-m", "venv", venv, cwd=bundles["work"])
    refused = run(venv / "bin/pip", "install", "-q", "--no-index", "--find-links", edited, "--require-hashes",
                  "-r", edited / "requirements.lock", cwd=bundles["work"], check=False, timeout=600)
    assert refused.returncode != 0 and "hash" in (refused.stdout + refused.stderr).lower()


def test_installed_offline_from_the_bundle_it_plays(box, bundles):
    install(box["venv"], bundles["first"], box["work"])
    box["freeze"], box["digest"] = freeze(box["venv"], box["work"]), digest(box["venv"], box["work"])
    assert any(line.startswith("tablectl==") for line in box["freeze"])
    played = run(box["venv"] / "bin/tablectl", "run", "--config", "caribbean-stud", "--data-dir",
                 box["work"] / "state", "--autoplay", "--rounds", "1", "--seed", "5", cwd=box["work"],
                 env={"TABLECTL_PAR_BACKGROUND": "0"}, timeout=300)
    [line] = [json.loads(x) for x in played.stdout.splitlines() if x.startswith("{")]
    assert line["game"] == "caribbean-stud"


def test_a_second_box_from_the_same_bundle_shows_the_same_digest(box, bundles):
    other = box["work"] / "other-box"
    run(sys.executable, "-m", "venv", other, cwd=box["work"])
    install(other, bundles["first"], box["work"])
    assert digest(other, box["work"]) == box["digest"]
    assert freeze(other, box["work"]) == box["freeze"]


def test_the_upgrade_moves_tablectl_and_a_dependency(box, bundles):
    install(box["venv"], bundles["second"], box["work"])
    now = freeze(box["venv"], box["work"])
    assert f"tablectl=={NEXT}" in now and "six==1.16.0" in now
    assert digest(box["venv"], box["work"]) != box["digest"]


def test_the_roll_back_restores_the_first_bundle_exactly(box, bundles):
    install(box["venv"], bundles["first"], box["work"])
    assert freeze(box["venv"], box["work"]) == box["freeze"]
    assert digest(box["venv"], box["work"]) == box["digest"]
