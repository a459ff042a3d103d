"""zoo_sim.command_sync: free-running physics waits for the stamped command that is due."""
import time

from zoo_sim.command_sync import CommandSync

MS = 1_000_000


def test_a_command_is_due_one_learnt_period_after_the_last():
    sync = CommandSync()
    sync.note('walker', 4 * MS)
    assert sync.due(100 * MS) == []  # one command: no period yet
    sync.note('walker', 8 * MS)
    assert sync.due(11 * MS) == []
    assert sync.due(12 * MS) == ['walker']
    sync.note('walker', 12 * MS)
    assert sync.due(12 * MS) == []


def test_the_period_is_the_shortest_recent_interval_and_unstamped_commands_are_ignored():
    sync = CommandSync()
    for t in (4, 8, 16, 20):  # one tick missed (12)
        sync.note('walker', t * MS)
    assert sync.due(23 * MS) == [] and sync.due(24 * MS) == ['walker']
    sync.note('teleop', 0)
    assert 'teleop' not in sync.due(10**12)


def test_a_silent_source_is_waited_for_once_then_not_until_it_sends_again():
    sync = CommandSync(timeout_s=0.05)
    sync.note('tracker', 2 * MS)
    sync.note('tracker', 4 * MS)
    start = time.monotonic()
    sync.wait(6 * MS)
    assert 0.05 <= time.monotonic() - start < 1.0
    assert sync.due(100 * MS) == []  # stalled
    sync.note('tracker', 100 * MS)
    assert sync.due(102 * MS) == ['tracker']
