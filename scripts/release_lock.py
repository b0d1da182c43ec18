"""requirements.lock of a release bundle (scripts/release): each wheel it installs, by name, version and sha256.

    python scripts/release_lock.py DIR INSTALLED_JSON

INSTALLED_JSON is `pip list --format=json` of an offline install of tablectl from DIR: the
distributions the release takes, each matched to its wheel in DIR.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import zipfile
from pathlib import Path


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def name_version(wheel: Path) -> tuple[str, str]:
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    name = re.search(r"^Name: (.+)$", meta, re.M)
    version = re.search(r"^Version: (.+)$", meta, re.M)
    if name is None or version is None:
        raise SystemExit(f"scripts/release: {wheel.name} has no name or version in its metadata")
    return canonical(name.group(1).strip()), version.group(1).strip()


def main(out: Path, installed: list[dict[str, str]]) -> None:
    wheels = {name_version(w): w for w in out.glob("*.whl")}
    lines = []
    for dist in sorted(installed, key=lambda d: canonical(d["name"])):
        key = (canonical(dist["name"]), dist["version"])
        if key not in wheels:
            raise SystemExit(f"scripts/release: {key[0]} {key[1]} was installed, but no wheel of it is in {out}")
        digest = hashlib.sha256(wheels[key].read_bytes()).hexdigest()
        lines.append(f"{key[0]}=={key[1]} --hash=sha256:{digest}")
    (out / "requirements.lock").write_text("".join(line + "\n" for line in lines))
    print(f"{out}: {len(lines)} wheels in requirements.lock")


if __name__ == "__main__":
    main(Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text()))
