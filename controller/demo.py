"""What `sh scripts/table` says on a terminal: where the screens are, then a line a round.

The demo table prints each settlement as one JSON line (the contract scripts and the
tests read, kept when the output is piped or `--json` is asked); a person at a
terminal reads one line a round instead: the round, who won what, in dollars.

    python -m controller.demo url PROFILE      the screens' address, from the profile's [screen]
    python -m controller.demo summary          JSON lines on stdin, one summary line each on stdout
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any


def screens_url(profile_file: str) -> str:
    """The dealer's console's address as the table serves it (the supervisor's is URL + "supervisor")."""
    from controller.appliance import profile_path
    from controller.config import load_profile
    screen = load_profile(profile_path(profile_file)).screen
    import ipaddress
    address = ipaddress.ip_address(screen.bind)
    host = "127.0.0.1" if address.is_unspecified else f"[{address}]" if address.version == 6 else str(address)
    return f"http://{host}:{screen.port}/"


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else "+" if cents > 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def _wagers(seat: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for value in seat.values():
        if isinstance(value, dict) and isinstance(value.get("stake"), int):
            yield value


def summary(line: dict[str, Any]) -> str:
    """One round in a line: its id and game, the dealer's hand, the seats' wagers and what they won."""
    if "round" not in line:
        return " ".join(f"{k}: {v}" for k, v in line.items())   # e.g. {"fault": ...} at the end
    said = [str(line["round"]), str(line.get("game", "?"))]
    if line.get("void"):
        return "  ".join([*said, "VOIDED"])
    settlement = line.get("settlement") or {}
    dealer = settlement.get("dealer")
    if isinstance(dealer, dict):
        hand = dealer.get("hand") or dealer.get("card")
        if hand is not None:
            said.append(f"dealer {hand}" + ("" if dealer.get("qualifies", True) else " (does not qualify)"))
    seats = [s for s in settlement.get("seats", []) if isinstance(s, dict)]
    if seats:
        wagers = [w for s in seats for w in _wagers(s)]
        said.append(f"{len(seats)} seat{'s' if len(seats) != 1 else ''}")
        said.append(f"wagered {_money(sum(w['stake'] for w in wagers)).lstrip('+')}")
        said.append(f"players {_money(sum(w.get('net', 0) for w in wagers))}")
    before, after = settlement.get("stacks_before"), settlement.get("stacks_after")
    if isinstance(before, list) and isinstance(after, list):   # a poker game: the pot moved between players
        said.append(f"{len(before)} players, pot moved {_money(sum(abs(a - b) for a, b in zip(after, before, strict=False)) // 2).lstrip('+')}")
    if isinstance(settlement.get("rake"), int):
        said.append(f"rake {_money(settlement['rake']).lstrip('+')}")
    return "  ".join(said)


def main(argv: list[str]) -> int:
    if argv[:1] == ["url"] and len(argv) == 2:
        print(screens_url(argv[1]))
        return 0
    if argv == ["summary"]:
        for raw in sys.stdin:
            try:
                line = json.loads(raw)
            except ValueError:
                print(raw, end="")
                continue
            print(summary(line) if isinstance(line, dict) else raw.rstrip("\n"), flush=True)
        return 0
    print("usage: python -m controller.demo url PROFILE | summary", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
