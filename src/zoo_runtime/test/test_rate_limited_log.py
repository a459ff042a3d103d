"""Rate-limited log lines (zoo_runtime.rate_limited_log): the first event of a key in full, then a
count every period, a quiet key in full again, and nothing lost at flush or forget. A fake clock."""
from zoo_runtime.rate_limited_log import Count, RateLimitedLog


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def peer_full(key, why):
    return f'{key[0]}: {why}'


def peer_count(c: Count):
    return (f'{c.n} more such frames from {c.key[0]} in {c.seconds:.1f} s ({c.key[1]}), '
            f'the last: {c.last}')


def peer_log(clock):
    return RateLimitedLog(5.0, clock, full=peer_full, count=peer_count)


def test_many_events_give_few_lines_with_exact_counts_and_forget_says_the_rest():
    clock, lines = Clock(), []
    log = peer_log(clock)
    peer = 'client 1 (127.0.0.1:5000)'
    for i in range(20_000):
        clock.t += 0.001                       # 20 s of bad frames
        log.event((peer, '?'), f'not JSON: {i}', lines.append)
        log.tick()
    log.forget(lambda key: key[0] == peer)
    assert lines[0] == 'client 1 (127.0.0.1:5000): not JSON: 0'
    assert 4 <= len(lines) <= 6, lines
    assert sum(int(line.split()[0]) for line in lines[1:]) == 19_999
    assert all(' more such frames from client 1 (127.0.0.1:5000)' in line for line in lines[1:])
    assert lines[-1].endswith('not JSON: 19999')
    said = len(lines)
    log.forget(lambda key: key[0] == peer)     # nothing left to say
    assert len(lines) == said
    log.event((peer, '?'), 'again', lines.append)   # forgotten: in full at once
    assert lines[-1] == f'{peer}: again'


def test_keys_are_counted_apart_and_a_quiet_period_starts_afresh():
    clock, lines = Clock(), []
    log = peer_log(clock)
    log.event(('client 1', 'MOVE'), 'time must be > 0', lines.append)
    log.event(('client 1', 'SET-LEDCOLOR'), 'not simulated', lines.append)
    log.event(('client 2', 'MOVE'), 'time must be > 0', lines.append)
    log.event(('client 1', 'MOVE'), 'time must be > 0', lines.append)
    assert lines == ['client 1: time must be > 0', 'client 1: not simulated',
                     'client 2: time must be > 0']
    clock.t += 6.0
    log.tick()                                 # the period is over: the count comes
    assert lines[-1] == '1 more such frames from client 1 in 6.0 s (MOVE), the last: ' \
        'time must be > 0' and len(lines) == 4
    clock.t += 6.0
    log.tick()                                 # a quiet period: the next one in full again
    log.event(('client 1', 'MOVE'), 'time must be > 0', lines.append)
    assert lines[-1] == 'client 1: time must be > 0' and len(lines) == 5
    clock.t += 6.0                             # quiet again, and no tick in between
    log.event(('client 1', 'MOVE'), 'time must be > 0 (3)', lines.append)
    assert lines[-1] == 'client 1: time must be > 0 (3)' and len(lines) == 6


def test_an_event_after_the_period_brings_the_count_with_it():
    clock, lines = Clock(), []
    log = peer_log(clock)
    for i in range(3):
        log.event(('c', 'MOVE'), f'#{i}', lines.append)   # at 0, 3 and 6 s
        clock.t += 3.0
    assert lines == ['c: #0', '2 more such frames from c in 6.0 s (MOVE), the last: #2']


def test_drained_lines_by_default_and_flush_says_the_rest_of_every_key():
    clock = Clock()
    log = RateLimitedLog(5.0, clock)
    for _ in range(3):
        for kind in ('dropped datagram (crc)', 'dropped datagram (length)'):
            log.event(kind, 'from 1.2.3.4:5: bad')
    assert log.drain() == ['dropped datagram (crc) from 1.2.3.4:5: bad',
                           'dropped datagram (length) from 1.2.3.4:5: bad']
    clock.t += 2.0
    log.tick()
    assert log.drain() == []                   # counted, not yet said
    log.flush(lambda key: key.endswith('(crc)'))
    assert log.drain() == ['dropped datagram (crc): 2 more in the last 2.0 s (3 in all), the '
                           'last from 1.2.3.4:5: bad']
    log.flush()                                # at shutdown
    assert log.drain() == ['dropped datagram (length): 2 more in the last 2.0 s (3 in all), '
                           'the last from 1.2.3.4:5: bad']
    log.flush()
    assert log.drain() == [] and log.total('dropped datagram (crc)') == 3
    assert log.total('never') == 0


def test_lines_go_to_the_logs_emit_or_the_events_and_stay_with_their_key():
    clock, warnings, errors = Clock(), [], []
    log = RateLimitedLog(5.0, clock, emit=warnings.append)
    log.event('refused', 'a')
    log.event('internal error', 'b', errors.append)
    log.event('internal error', 'c')           # counted; its line goes where its key's go
    clock.t += 5.0
    log.tick()
    assert warnings == ['refused a'] and log.lines == []
    assert errors == ['internal error b',
                      'internal error: 1 more in the last 5.0 s (2 in all), the last c']
