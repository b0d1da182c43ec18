"""`tablectl software verify --seed HEX`: the table's software verified on demand, as a lab asks for it.

The GSA's convention (GAT) for verifying a program on a floor: the inspector brings a seed, the
box answers with a keyed digest over its whole program, and the inspector compares it with the
figure the lab computed under the same seed from the certified release. A seed the box cannot
know in advance means a stored answer is worth nothing. The figure is an HMAC (SHA-256, or SHA-1
where a lab's tool asks) keyed with the seed, over every file of tree.py in the order of their
names' bytes, each fed as `name NUL length(8 bytes, big-endian) bytes`, where the bytes leave out
what differs between two boxes of one release (tree.figure_bytes). docs/CERTIFICATION.md holds the
lab's own script for it, which the tests run against this command.

Every file is also checked: against its RECORD where one lists it, and any file of the install's
tree that no RECORD lists is reported. Exit 0 when everything authenticates, 1 when something does
not (each problem a line), 2 for a seed that is not hexadecimal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.software import tree

ALGORITHMS = ("sha256", "sha1")
MAX_SEED_HEX = 256       # 128 bytes: longer than any HMAC key a lab's tool uses
CHUNK = 1 << 20


class BadSeed(ValueError):
    """The seed is not an even number of hexadecimal digits (1 to 128 bytes)."""


def parse_seed(text: object) -> bytes:
    if not isinstance(text, str):
        raise BadSeed("the seed must be hexadecimal digits")
    s = text.strip().lower()
    if s.startswith("0x"):
        s = s[2:]
    if not s or len(s) > MAX_SEED_HEX or len(s) % 2 or any(c not in "0123456789abcdef" for c in s):
        raise BadSeed(f"the seed must be an even number of hexadecimal digits, 2 to {MAX_SEED_HEX}")
    return bytes.fromhex(s)


@dataclass
class Verified:
    seed: str
    algorithm: str
    digest: str
    manifest: list[dict[str, Any]]
    problems: list[tree.Finding]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "algorithm": self.algorithm, "digest": self.digest,
                "files": len(self.manifest), "manifest": self.manifest,
                "problems": [{"code": p.code, "where": p.where, "detail": p.detail} for p in self.problems]}


def collect(profile: Path | None = None, system_root: Path | None = None) -> tuple[list[tree.File], list[tree.Finding]]:
    """Every file of the figure, in its order, and what the tree's walk found wrong (no file read yet)."""
    install = tree.install_tree()
    files = [f for f in install.files if f.in_figure] + tree.interpreter_files() + checkout_files()
    if system_root is not None:
        files += tree.system_files(system_root)
    if profile is not None:
        files.append(tree.File(f"profile/{profile.name}", str(profile.resolve())))
    files.sort(key=lambda f: f.name.encode())
    return files, [*install.findings, *tree.customize_findings()]


def checkout_files() -> list[tree.File]:
    """A developer's checkout (an editable install): its packages' directories are what runs, not files
    a RECORD lists, so they are in the figure as `checkout/PACKAGE/...` (never on a floor: no release)."""
    from importlib import metadata

    from controller.journal import selfcheck
    try:
        dist = metadata.distribution(selfcheck.DISTRIBUTION)
    except metadata.PackageNotFoundError:
        dist = None
    if dist is not None and selfcheck._runs_from_record(dist):
        return []
    files: list[tree.File] = []
    for root in selfcheck.package_roots():
        base = root.parent
        for path in tree.walk(root):
            if f"{os.sep}__pycache__{os.sep}" in path or os.path.isdir(path):
                continue   # Python rewrites a checkout's bytecode at will (as selfcheck.directory_manifest);
                #            a link to a directory (the checkout's data/systemd) is the checkout's layout
            files.append(tree.File(f"checkout/{Path(path).relative_to(base).as_posix()}", path))
    return files


def _sources(files: list[tree.File]) -> dict[str, tree.File]:
    """For each compiled file of the figure, the source (a file of the figure) it was compiled from."""
    by_name = {f.name: f for f in files}
    out = {}
    for f in files:
        if f.name.endswith(".pyc"):
            source = tree.compiled_source_name(f.name)
            if source is not None and source in by_name:
                out[f.name] = by_name[source]
    return out


def verify(seed: bytes, algorithm: str = "sha256", *, profile: Path | None = None,
           system_root: Path | None = None) -> Verified:
    """Read every file once: the keyed figure, each file's SHA-256, and each against its RECORD."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm: one of {', '.join(ALGORITHMS)}")
    files, problems = collect(profile, system_root)
    sources = _sources(files)
    mac = hmac.new(seed, digestmod=algorithm)
    manifest: list[dict[str, Any]] = []
    for f in files:
        source = sources.get(f.name)
        try:
            whole, body = _read(f, mac, source)
        except OSError as exc:
            problems.append(tree.Finding("software-integrity", f.name, f"cannot be read ({exc.strerror})"))
            continue
        if f.recorded is not None and whole != f.recorded:
            problems.append(tree.Finding("software-integrity", f"{f.owner}: {f.name}",
                                         "differs from the hash its wheel installed (RECORD)"))
        manifest.append({"name": f.name, "path": f.path, "sha256": body,
                         **({"source": source.name} if source is not None else {})})
    return Verified(seed.hex(), algorithm, mac.hexdigest(), manifest, problems)


def _read(f: tree.File, mac: hmac.HMAC, source: tree.File | None) -> tuple[str, str]:
    """Feed the file to the figure; (SHA-256 of the whole file, SHA-256 of what the figure read).

    A large file is read in chunks: only a .pyc (small) is rewritten whole (tree.figure_bytes)."""
    whole, body = hashlib.sha256(), hashlib.sha256()
    with open(f.path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        head = fh.read(CHUNK)
        whole.update(head)
        if f.name.endswith(".pyc") or (f.name.startswith("bin/") and head.startswith(b"#!")):
            rest = fh.read()
            whole.update(rest)
            data = tree.figure_bytes(f.name, head + rest, source.path if source else None,
                                     source.name if source else None)
            mac.update(f.name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
            body.update(data)
            return whole.hexdigest(), body.hexdigest()
        mac.update(f.name.encode() + b"\0" + size.to_bytes(8, "big"))
        mac.update(head)
        body.update(head)
        while chunk := fh.read(CHUNK):
            whole.update(chunk)
            mac.update(chunk)
            body.update(chunk)
    return whole.hexdigest(), body.hexdigest()


def raise_software_fault(table: Any, found: list[tree.Finding]) -> None:
    """The running table in a software fault, as the start puts it (selfcheck.raise_fault): its problems are
    the files' own, so clearing it is refused while they differ and one supervisor clears it once they are back."""
    from controller.journal.sealing import Problem
    from controller.journal.selfcheck import raise_fault
    problems = [Problem(p.code, p.where, p.detail) for p in found]
    entry = raise_fault(table.data_dir, table.journal, "software", problems)
    table.set_fault([{"at": entry.at if entry else None, "source": "software",
                      "problems": [p.to_json() for p in problems]}], problems)


def main(args) -> int:
    try:
        seed = parse_seed(args.seed)
    except BadSeed as exc:
        print(f"tablectl software verify: {exc}", file=sys.stderr)
        return 2
    profile = Path(args.config) if getattr(args, "config", None) else None
    if profile is not None and not profile.is_file():
        print(f"tablectl software verify: {profile}: no such profile", file=sys.stderr)
        return 2
    result = verify(seed, args.algorithm, profile=profile, system_root=Path(args.root))
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print(f"digest: {result.digest}")
        print(f"hmac-{result.algorithm} under seed {result.seed} over {len(result.manifest)} files")
        for p in result.problems:
            print(f"  {p.where}: {p.detail}")
        print("authentic" if not result.problems else f"NOT AUTHENTIC: {len(result.problems)} problem(s)")
    if result.problems:
        print(f"tablectl software verify: {len(result.problems)} file(s) do not authenticate", file=sys.stderr)
    return 1 if result.problems else 0
