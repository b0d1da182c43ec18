"""Frames a SIGKILL leaves in a log reused in place are not mistaken for lost commits.

Found by the crash lanes (benchmarks/crash.py): after RESTART checkpoints the log
file keeps the frames of earlier generations, so (a) before the new generation's
first frame, frame 1 is an old, checkpointed one, and (b) a kill between a commit
frame's header and its page leaves a frame that looks whole and fails its
checksum. Both read as "committed transactions dropped" and faulted the table
after an ordinary kill. A byte flipped in a transaction the writer had published
is still loss (tests/journal/test_tamper.py).
"""

from __future__ import annotations

from pathlib import Path

from controller.journal.sealing import Wal, WalFrame

NEW, OLD, OLDER = (101, 7), (100, 3), (99, 5)   # SQLite adds 1 to salt-1 at each restart of the log


def frames(*spec: tuple[tuple[int, int], bool]) -> tuple[WalFrame, ...]:
    return tuple(WalFrame(i + 1, 2, 9 if commit else 0, salt, 32 + i * 4120 + 24)
                 for i, (salt, commit) in enumerate(spec))


def test_old_generations_behind_a_fresh_header_are_not_lost():
    wal = Wal(Path("x"), 4096, NEW, frames((OLD, False), (OLD, True), (OLD, True), (OLDER, True)))
    assert wal.lost_commits(0) == [] and wal.lost_commits(0, published=0) == []


def test_a_commit_torn_by_the_kill_is_not_lost_but_a_published_one_is():
    wal = Wal(Path("x"), 4096, NEW, frames((NEW, False), (NEW, True), (NEW, False), (NEW, True), (OLD, True)))
    # the writer had published frame 2; frames 3-4 were being written when it was killed
    assert wal.lost_commits(2, published=2) == []
    # the writer had published frame 4, and recovery stopped at 2: a flipped byte lost it
    assert [f.index for f in wal.lost_commits(2, published=4)] == [4]
    # no wal-index to ask: only the generation's last commit may be the kill's
    assert wal.lost_commits(2) == []
    assert [f.index for f in wal.lost_commits(0)] == [2]


def test_a_flipped_salt_in_the_header_still_finds_the_generation_by_its_first_frame():
    wal = Wal(Path("x"), 4096, (NEW[0], 12345), frames((NEW, False), (NEW, True), (NEW, True)))
    assert [f.index for f in wal.lost_commits(0, published=3)] == [2, 3]
