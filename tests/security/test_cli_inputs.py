"""The CLI never prints a traceback (issue 15, Deliver 7).

Every command that reads a file or stdin, handed input nested a hundred thousand
deep, a number of five thousand digits, bytes that are not UTF-8 or a file far
larger than any record, answers with exit status 2 and one line naming what is
wrong. The installed command, as a person at the box runs it.
"""

from __future__ import annotations

import argparse
import re

import pytest

from controller import cli

from tests.security.security_helpers import tablectl

DEPTH = 100_000
DIGITS = 5_000

JSON_INPUTS = {
    "deep": ("[" * DEPTH + "]" * DEPTH).encode(),
    "digits": ('{"game": "caribbean-stud", "meter": ' + "9" * DIGITS + "}").encode(),
    "not-utf8": b'{"game": "caribbean-stud\xff\xfe"}',
}
TOML_INPUTS = {
    "deep": ("a = " + "[" * DEPTH + "]" * DEPTH + "\n").encode(),
    "digits": ("a = " + "9" * DIGITS + "\n").encode(),
    "not-utf8": b'game = "caribbean-stud\xff"\n',
}
WHAT = {"deep": "nested too deeply", "digits": "too many digits|too long", "not-utf8": "utf-8"}
# command words, where the file goes ({} the file), the inputs it reads
COMMANDS = [
    (("settle", "{}"), JSON_INPUTS),
    (("poker", "replay", "{}"), TOML_INPUTS),
    (("config", "check", "{}"), TOML_INPUTS),
    (("run", "--config", "{}"), TOML_INPUTS),
    (("supervisor", "add", "S1", "--secrets", "{}", "--pin-stdin"), TOML_INPUTS),
]


def one_line(done) -> str:
    err = done.stderr if isinstance(done.stderr, str) else done.stderr.decode(errors="replace")
    assert "Traceback" not in err, err[-3000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[-3000:]
    return lines[0]


@pytest.mark.parametrize("words, inputs", COMMANDS, ids=[" ".join(w[:2]) for w, _ in COMMANDS])
def test_a_bad_input_is_one_line_and_exit_2(tmp_path, words, inputs):
    for name, data in inputs.items():
        path = tmp_path / f"{name}.in"
        path.write_bytes(data)
        done = tablectl(*[str(path) if w == "{}" else w for w in words], input=b"123412\n")
        line = one_line(done)
        assert done.returncode == 2, (name, line)
        assert re.search(WHAT[name], line, re.I), (name, line)


def test_settle_from_stdin_and_a_file_too_large_to_be_a_record(tmp_path):
    done = tablectl("settle", "-", input=JSON_INPUTS["not-utf8"])
    assert done.returncode == 2 and one_line(done).startswith("stdin: not UTF-8")
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.write(b'{"game": "' + b"x" * (17 * 1024 * 1024) + b'"}')
    done = tablectl("settle", big)
    assert done.returncode == 2 and "larger than" in one_line(done)


def test_an_internal_error_is_one_line_and_no_traceback(capsys, monkeypatch):
    monkeypatch.delenv("TABLECTL_TRACEBACK", raising=False)
    args = argparse.Namespace(_command=("settle",), file="x.json")
    assert cli._refuse(args, KeyError("a bug")) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "internal error" in err
    assert cli._refuse(args, RecursionError("maximum recursion depth exceeded")) == 2
    assert capsys.readouterr().err.strip() == "tablectl settle: x.json: nested too deeply to read"


def test_a_file_that_is_not_an_archive_is_one_line(tmp_path):
    for name, data in {"text": b"garbage\n", "binary": bytes(range(256)) * 64, "empty": b""}.items():
        path = tmp_path / f"{name}.tar.gz"
        path.write_bytes(data)
        done = tablectl("journal", "verify", "--archive", path)
        assert done.returncode == 2, (name, done.stderr)
        assert "not a journal archive" in one_line(done), name
