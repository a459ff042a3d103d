"""zoo_sim.command_sync: free-running physics waits for the stamped command that is due."""
import time

from zoo_sim.command_sync import CommandSync

MS = 1_000_000


def test_a_command_is_due_one_period_after_the_last_once_the_source_is_regular():
    sync = CommandSync()
    for t in (4, 8, 12):
        sync.note('walker', t * MS)
        assert sync.due(100 * MS) == []  # fewer than three equal intervals: not yet periodic
    sync.note('walker', 16 * MS)
    assert sync.due(19 * MS) == []
    assert sync.due(20 * MS) == ['walker']
    sync.note('walker', 20 * MS)
    assert sync.due(20 * MS) == []


def test_events_missed_ticks_and_unstamped_commands_are_not_waited_for():
    sync = CommandSync()
    for t in (4, 8, 12, 16, 24):  # a missed tick (20): irregular until three equal intervals
        sync.note('walker', t * MS)
    assert sync.due(100 * MS) == []
    for t in (28, 32, 36):
        sync.note('walker', t * MS)
    assert sync.due(40 * MS) == ['walker']
    for t in (5, 6, 9, 30):  # commands on events
        sync.note('teleop', t * MS)
    sync.note('joy', 0)
    assert sync.due(10**12) == ['walker']


def test_a_silent_source_is_waited_for_once_then_not_until_it_sends_again():
    sync = CommandSync(timeout_s=0.05)
    for t in (2, 4, 6, 8):
        sync.note('tracker', t * MS)
    start = time.monotonic()
    sync.wait(10 * MS)
    assert 0.05 <= time.monotonic() - start < 1.0
    assert sync.due(100 * MS) == []  # stalled
    sync.note('tracker', 100 * MS)  # sends again after its silence: irregular until it ticks on
    assert sync.due(102 * MS) == []
