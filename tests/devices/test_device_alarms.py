"""The dealer's device alarms (issue 18): each cleared by the message that ends its condition,
and in plain words that say what to do, never a driver's error text."""

from __future__ import annotations

import re

from controller.runtime.devices import ADVICE, advice_for, alarm_for, cleared_by
from drivers.shoe import protocol as sp
from drivers.shuffler import protocol as fp


def test_a_jam_is_cleared_by_the_shoe_reporting_it_free():
    jam = alarm_for(sp.ShoeJammed(sp.JamCode.CARD_FEED, 7))
    assert jam["condition"] == "shoe_jammed" and jam["device"] == "shoe"
    assert "shoe_jammed" in cleared_by(sp.JamCleared(7))
    assert "shoe_jammed" in cleared_by(sp.ShoeLoaded(52))       # a reload also means the shoe works
    assert cleared_by(sp.ShoeJammed(sp.JamCode.CARD_FEED, 8)) == frozenset()


def test_a_shuffler_fault_is_cleared_by_the_shuffler():
    fault = alarm_for(fp.ShufflerFault(fp.FaultCode.JAM))
    assert fault["condition"] == "shuffler_fault"
    assert cleared_by(fp.FaultCleared()) == {"shuffler_fault"}
    assert "shoe_jammed" not in cleared_by(fp.FaultCleared())


def test_an_empty_shoe_is_cleared_by_loading_it():
    empty = alarm_for(sp.ShoeEmpty(52))
    assert empty["condition"] == "shoe_empty"
    assert "shoe_empty" in cleared_by(sp.ShoeLoaded(312))


def test_alarms_and_advice_are_plain_words_saying_what_to_do():
    raw = re.compile(r"errno|\[Errno|Traceback|Exception|/dev/|0x[0-9a-f]", re.I)
    messages = [alarm_for(m)["message"] for m in (sp.ShoeJammed(sp.JamCode.CARD_FEED, 0), sp.ShoeEmpty(0),
                                                  fp.ShufflerFault(fp.FaultCode.JAM))]
    messages += list(ADVICE.values())
    for text in messages:
        assert not raw.search(text), text
        assert text[0].isupper() and text.endswith("."), text
    assert advice_for("shoe", "disconnected").startswith("The dealing shoe is disconnected: check its cable")
    assert advice_for("shoe", "connected") == advice_for("progressive", "emulated") == ""
