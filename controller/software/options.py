"""The arguments of `tablectl software ...`, declared apart from the commands so --help stays cheap."""

from __future__ import annotations

import argparse


def add_arguments(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    if path == ("software", "verify"):
        parser.add_argument("--seed", required=True, help="the key of the HMAC, in hexadecimal (the lab's seed)")
        parser.add_argument("--algorithm", choices=("sha256", "sha1"), default="sha256",
                            help="HMAC-SHA-256 (default) or HMAC-SHA-1, as the lab's tool asks")
        parser.add_argument("--json", action="store_true",
                            help="the seed, algorithm, digest, number of files and the manifest, as JSON")
        parser.add_argument("--config", help="the table's profile (TOML), covered by the digest")
        parser.add_argument("--root", default="/",
                            help="where `tablectl system install` put the units (default: /)")
    elif path == ("software", "history"):
        parser.add_argument("--data-dir", help="journal directory (default: user state dir)")
        parser.add_argument("--json", action="store_true", help="one JSON list, oldest first")
