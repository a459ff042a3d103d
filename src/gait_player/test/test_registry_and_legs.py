"""The registry finds generators through the gait_player.generators entry points (and the keys
renamed in issue 26), names the choices on an unknown one; LegPlayback plays legs tick by tick,
asks the observer to measure each leg and stops after the last. No gait package is imported."""
from importlib import metadata

import numpy as np
import pytest

from gait_player import registry
from gait_player.generator import Generator
from gait_player.legs import Leg, LegPlan, LegPlayback, LegProtocol


def _flat() -> Generator:
    return Generator(lambda *a, **k: None)


def _legs() -> LegProtocol:
    return LegProtocol(lambda values, node: None, ('crawl_gaits', '_crawl'))


@pytest.fixture
def installed(monkeypatch):
    """Two plug-ins installed under the group, one of them a renamed key's new name."""
    eps = [metadata.EntryPoint(name, f'{__name__}:{attr}', registry.GROUP)
           for name, attr in (('nao_wave_walk', '_flat'), ('crawl', '_legs'))]
    monkeypatch.setattr(registry.metadata, 'entry_points',
                        lambda group: [e for e in eps if e.group == group])


def test_lookup_loads_the_entry_point_of_a_name_or_its_old_name(installed):
    assert set(registry.registered()) == {'nao_wave_walk', 'crawl'}
    assert isinstance(registry.lookup('crawl'), LegProtocol)
    assert isinstance(registry.lookup('nao_wave_walk'), Generator)
    assert isinstance(registry.lookup('nao_walk'), Generator)  # the key before issue 26
    assert registry.resolve_name('nao_walk_smooth') == 'nao_wave_walk_smooth'


def test_an_unknown_name_gets_one_line_with_the_choices(installed):
    with pytest.raises(ValueError) as e:
        registry.lookup('crawel')
    assert str(e.value) == "expected one of crawl, nao_wave_walk, got 'crawel'; did you mean 'crawl'?"


class Ramp:
    """A generator whose k-th sample is k on every joint."""
    joints = ('a', 'b')

    def __init__(self, sign=1.0):
        self.sign = sign

    def sample_rad(self, k):
        return np.full(2, self.sign * k)


class Counter:
    topic, msg_type = 'poses', object

    def __init__(self):
        self.events = []

    def on_message(self, msg, leg, n_legs):
        self.events.append(('msg', leg, n_legs))

    def begin_leg(self, leg):
        self.events.append(('begin', leg))

    def end_leg(self, kind):
        self.events.append(('end', kind))
        return {'leg': kind, 'n': len(self.events)}


def test_legs_play_in_turn_each_measured_then_the_playback_stops():
    sent = []
    observer = Counter()
    plan = LegPlan('ramp', ['a', 'b'], [Leg('forward', Ramp(), 3), Leg('reversed', Ramp(-1), 2)],
                   0.1, observer)
    play = LegPlayback(plan, lambda joints, q: sent.append((list(joints), q)))
    for _ in range(7):
        play.step()
    assert [q for _, q in sent] == [[0.0] * 2, [1.0] * 2, [2.0] * 2, [0.0] * 2, [-1.0] * 2]
    assert all(j == ['a', 'b'] for j, _ in sent)
    assert observer.events == [('begin', 0), ('end', 'forward'), ('begin', 1), ('end', 'reversed')]
    assert play.finished()
    assert play.metrics() == {'gait': 'ramp', 'goal_updates': 5, 'finished': True,
                              'legs': [{'leg': 'forward', 'n': 2}, {'leg': 'reversed', 'n': 4}]}
    play.on_message('m')
    assert observer.events[-1] == ('msg', 2, 2)


def test_legs_without_an_observer_record_only_their_kind():
    play = LegPlayback(LegPlan('once', ['a', 'b'], [Leg('file', Ramp(), 1)], 0.1), lambda *_: None)
    play.step()
    assert play.metrics()['legs'] == [{'leg': 'file'}] and play.finished()
