"""The leak check itself: it must see what a careless driver would leave behind."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from .conftest import TaskLeak, run
from .leaks import Snapshot, TaskWatch


def test_a_thread_left_running_is_reported_and_one_that_ends_is_not():
    before = Snapshot.take()
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, name="forgotten-reader")
    t.start()
    try:
        assert before.leaks(grace=0.05) == ["thread 'forgotten-reader' still running"]
    finally:
        stop.set()
        t.join()
    assert before.leaks(grace=0.05) == []


def test_a_file_descriptor_left_open_is_reported():
    before = Snapshot.take()
    r, w = os.pipe()
    try:
        leaks = before.leaks(grace=0.05)
        assert len(leaks) == 2 and all("pipe:" in line for line in leaks)
    finally:
        os.close(r)
        os.close(w)
    assert before.leaks(grace=0.05) == []


def test_a_task_left_running_fails_the_scenario():
    async def scenario():
        asyncio.get_running_loop().create_task(asyncio.sleep(60), name="forgotten-heartbeat")

    with pytest.raises(TaskLeak, match="forgotten-heartbeat"):
        run(scenario())


def test_a_task_left_behind_by_asyncio_run_is_noted_before_asyncio_cancels_it():
    watch = TaskWatch()
    loop = watch.new_event_loop()
    try:
        async def scenario():
            asyncio.get_running_loop().create_task(asyncio.sleep(60), name="forgotten-reconnect")
        loop.run_until_complete(scenario())
        assert watch.leaked == ["forgotten-reconnect"]
        for task in asyncio.all_tasks(loop):
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        assert watch.leaked == ["forgotten-reconnect"]   # only the main coroutine's end counts
    finally:
        loop.close()
