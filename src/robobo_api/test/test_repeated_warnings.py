"""Rate-limited warnings for bad input (issue 25): the first of a kind from a peer in full, then
a count every period, and the rest when the peer goes."""
from robobo_api.repeated_warnings import RepeatedWarnings


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_first_in_full_then_periodic_counts_then_the_rest_on_forget():
    clock, lines = Clock(), []
    w = RepeatedWarnings(period_s=5.0, clock=clock)
    for i in range(20_000):
        clock.t += 0.001                       # 20 s of bad frames
        w.warn('client 1 (127.0.0.1:5000)', '?', f'not JSON: {i}', lines.append)
        w.tick()
    w.forget('client 1 (127.0.0.1:5000)')
    assert lines[0] == 'client 1 (127.0.0.1:5000): not JSON: 0'
    assert 4 <= len(lines) <= 6, lines
    counts = [int(line.split()[0]) for line in lines[1:]]
    assert sum(counts) == 19_999
    assert all(' more such frames from client 1 (127.0.0.1:5000)' in line for line in lines[1:])
    assert lines[-1].endswith('not JSON: 19999')
    said = len(lines)
    w.forget('client 1 (127.0.0.1:5000)')    # nothing left to say
    assert len(lines) == said


def test_kinds_and_peers_are_counted_apart_and_a_quiet_period_starts_afresh():
    clock, lines = Clock(), []
    w = RepeatedWarnings(period_s=5.0, clock=clock)
    w.warn('client 1', 'MOVE', 'time must be > 0', lines.append)
    w.warn('client 1', 'SET-LEDCOLOR', 'not simulated', lines.append)
    w.warn('client 2', 'MOVE', 'time must be > 0', lines.append)
    w.warn('client 1', 'MOVE', 'time must be > 0', lines.append)
    assert lines == ['client 1: time must be > 0', 'client 1: not simulated',
                     'client 2: time must be > 0']
    clock.t += 6.0
    w.tick()                                   # the period is over: the count comes
    assert lines[-1].startswith('1 more such frames from client 1 in 6.0 s (MOVE), the last: ')
    clock.t += 6.0
    w.tick()                                   # a quiet period: the next one in full again
    w.warn('client 1', 'MOVE', 'time must be > 0', lines.append)
    assert lines[-1] == 'client 1: time must be > 0' and len(lines) == 5
