"""Operator logs: JSON lines with the table and round bound through contextvars."""

from __future__ import annotations

import io
import json
import logging
import os

import pytest
import structlog

from controller import logs


@pytest.fixture(autouse=True)
def fresh_logging():
    logs.reset()
    yield
    logs.reset()
    for handler in [h for h in logging.getLogger().handlers if getattr(h, "_tablectl", False)]:
        logging.getLogger().removeHandler(handler)


def lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_lines_on_stdout_carry_the_bound_table_and_round(capsys) -> None:
    logs.configure(level="info", table="CS-01")
    log = logs.get_logger("round")
    logs.bind_round("R-000042")
    log.info("dealt", seat=3)
    logs.unbind_round()
    log.info("idle")
    first, second = lines(capsys)
    assert first["event"] == "dealt" and first["seat"] == 3
    assert (first["table"], first["round"], first["logger"], first["level"]) == ("CS-01", "R-000042", "round", "info")
    assert second["table"] == "CS-01" and "round" not in second
    assert first["timestamp"].endswith("Z")


def test_round_context_restores_what_was_bound(capsys) -> None:
    logs.configure(table="CW-01")
    log = logs.get_logger()
    with logs.round_context("R-1"), logs.device_context("shoe"):
        log.info("card", card="As")
    log.info("after")
    inside, after = lines(capsys)
    assert (inside["round"], inside["device"], inside["card"]) == ("R-1", "shoe", "As")
    assert "round" not in after and "device" not in after


def test_level_filters_and_errors_carry_the_traceback(capsys) -> None:
    logs.configure(level="warning")
    log = logs.get_logger()
    log.info("hidden")
    try:
        raise RuntimeError("shoe jammed")
    except RuntimeError:
        log.exception("device failed")
    (only,) = lines(capsys)
    assert only["level"] == "error" and "RuntimeError: shoe jammed" in only["exception"]


def test_standard_library_logs_come_out_as_the_same_json(capsys) -> None:
    logs.configure(table="PK-01")
    with logs.round_context("H-7"):
        logging.getLogger("usb.core").warning("device %s gone", "1-2")
        logging.getLogger("transitions.core").info("state change")  # quietened: the journal has it
    (only,) = lines(capsys)
    assert (only["event"], only["logger"], only["table"], only["round"]) == ("device 1-2 gone", "usb.core", "PK-01", "H-7")


def test_console_output_when_the_stream_is_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    logs.configure(stream=out, table="CS-01")
    logs.get_logger().info("opened", seats=7)
    text = out.getvalue()
    assert "opened" in text and "seats" in text and "CS-01" in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_configured_once(capsys) -> None:
    logs.configure(format="json", table="A")
    logs.configure(format="console", table="B")  # ignored but for the table binding
    logs.get_logger().info("x")
    (only,) = lines(capsys)
    assert only["table"] == "B"
    assert isinstance(structlog.get_config()["processors"][-1], structlog.processors.JSONRenderer)


def test_bad_level_or_format_is_refused() -> None:
    with pytest.raises(ValueError, match="log level"):
        logs.configure(level="loud")
    with pytest.raises(ValueError, match="log format"):
        logs.configure(format="xml")


def _journal_stream(path, monkeypatch):
    """A file standing in for journald's stream: $JOURNAL_STREAM names its device and inode, as systemd sets it."""
    f = open(path, "w", encoding="utf-8")   # noqa: SIM115  (closed by the test)
    st = os.fstat(f.fileno())
    monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
    return f


def test_under_journald_each_line_leads_with_its_priority(tmp_path, monkeypatch) -> None:
    stream = _journal_stream(tmp_path / "journal", monkeypatch)
    logs.configure(level="debug", format="json", stream=stream)
    log = logs.get_logger("table")
    log.debug("d")
    log.info("i")
    log.warning("w")
    log.error("e")
    logging.getLogger("usb").warning("a library's warning")
    stream.close()
    got = (tmp_path / "journal").read_text().splitlines()
    assert [line[:3] for line in got] == ["<7>", "<6>", "<4>", "<3>", "<4>"]
    assert [json.loads(line[3:])["event"] for line in got] == ["d", "i", "w", "e", "a library's warning"]


def test_a_stream_that_is_not_the_journals_gets_plain_json(tmp_path, monkeypatch) -> None:
    _journal_stream(tmp_path / "journal", monkeypatch).close()   # the journal's stream is another file
    with open(tmp_path / "elsewhere", "w", encoding="utf-8") as other:
        logs.configure(format="json", stream=other)
        logs.get_logger().warning("w")
    [line] = (tmp_path / "elsewhere").read_text().splitlines()
    assert json.loads(line)["event"] == "w"
