"""The embedded runner end to end on the talker/listener scenario: wiring, sim time, recording,
determinism and the summary."""
import json

import pytest

from zoo_scenario.runner import ScenarioRun, run_scenario
from zoo_scenario.scenario import ScenarioError, apply_overrides, load_scenario


def test_talker_listener_wiring_summary_and_bag(tmp_path):
    from zoo_runtime.bag import read_bag
    sc = load_scenario('talker_listener')
    summary = run_scenario(sc, duration=2.0, record=True, output=tmp_path)
    assert summary['sim_time'] == pytest.approx(2.0)
    m = summary['metrics']
    # 10 Hz on sim time for 2 s: timers at 0.1, 0.2, ... 2.0 s, each message received once.
    assert m['talker']['sent'] == 20
    assert m['listener']['received'] == 20 and m['listener']['last'] == 'hello robozoo 19'
    assert json.loads((tmp_path / 'summary.json').read_text())['metrics'] == m
    assert set(summary) >= {'scenario', 'seed', 'sim_time', 'wall_time', 'real_time_factor',
                            'robots', 'metrics'}
    bag = read_bag(tmp_path / 'bag')
    chatter = bag['/demo/chatter']
    assert [msg.data for msg in chatter.msgs] == [f'hello robozoo {i}' for i in range(20)]
    assert chatter.t == pytest.approx([0.1 * (i + 1) for i in range(20)])
    assert summary['recorded'] == {'/demo/chatter': 20, '/demo/count': 20}
    counts = bag['/demo/count']
    assert list(counts['count']) == list(range(1, 21))


def test_overrides_reach_the_node_and_service_round_trip():
    from zoo_runtime.interfaces.std_srvs.srv import Trigger
    sc = apply_overrides(load_scenario('talker_listener'), ['talker.rate=50.0'])
    with ScenarioRun(sc) as run:
        run.run(1.0)
        assert run.nodes['talker'].sent == 50
        client = run.nodes['talker'].create_client(Trigger, '/demo/reset_count')
        future = client.call_async(Trigger.Request())
        run.run(0.001)
        assert future.done() and future.result().success
        assert future.result().message == 'reset after 50 messages'
        assert run.nodes['listener'].received == 0


def test_same_seed_same_bag(tmp_path):
    from zoo_runtime.bag import read_bag
    sc = load_scenario('talker_listener')
    for d in ('a', 'b'):
        run_scenario(sc, duration=1.0, record=True, output=tmp_path / d, seed=3)
    a, b = (read_bag(tmp_path / d / 'bag')['/demo/count'] for d in ('a', 'b'))
    assert list(a.t) == list(b.t) and [m.last for m in a.msgs] == [m.last for m in b.msgs]


def _refuse_constant(name):
    raise ValueError(f'not strict JSON: {name}')


def test_summary_json_is_strict_json(tmp_path, monkeypatch):
    """A NaN or infinity in the summary was written as NaN/Infinity, which strict JSON parsers
    refuse (issue 25): null, and a warning naming where."""
    from zoo_bringup.demo_nodes import Talker
    monkeypatch.setattr(Talker, 'robozoo_metrics', lambda self: {
        'sent': self.sent, 'jitter': float('nan'), 'peaks': [1.0, float('inf')]})
    run_scenario(load_scenario('talker_listener'), duration=0.2, output=tmp_path)
    data = json.loads((tmp_path / 'summary.json').read_text(), parse_constant=_refuse_constant)
    assert data['metrics']['talker'] == {'sent': 2, 'jitter': None, 'peaks': [1.0, None]}
    assert data['warnings'] == ['not finite, written as null: metrics.talker.jitter, '
                                'metrics.talker.peaks[1]']


def test_a_run_that_fails_over_an_earlier_one_keeps_it(tmp_path, monkeypatch):
    """--overwrite removed the earlier run before the new one had run (issue 25): the new run
    writes beside it and replaces it only at its end; a failure half-way keeps the earlier run
    whole and leaves the failed run's outputs in their own folder."""
    from zoo_bringup.demo_nodes import Listener
    from zoo_scenario.output_dir import RunFolder
    from zoo_runtime.bag import read_bag

    sc = load_scenario('talker_listener')
    out = tmp_path / 'o'
    run_scenario(sc, duration=0.3, record=True, output=RunFolder(out, sc.name))
    (out / 'notes.txt').write_text('mine')
    earlier = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    earlier_bag = (out / 'bag' / 'bag.mcap').read_bytes()

    with pytest.raises(ScenarioError, match='holds an earlier run'):
        RunFolder(out, sc.name)  # without overwrite
    original = Listener._on_chatter

    def failing(self, msg):
        if self.received == 12:
            raise RuntimeError('listener failed half-way')
        original(self, msg)

    monkeypatch.setattr(Listener, '_on_chatter', failing)
    folder = RunFolder(out, sc.name, overwrite=True)
    with pytest.raises(RuntimeError, match='listener failed half-way'):
        run_scenario(sc, duration=3.0, record=True, output=folder)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == earlier
    assert (out / 'bag' / 'bag.mcap').read_bytes() == earlier_bag
    note = folder.abandon()
    assert note == (f"the earlier run in {out} is kept; this run's outputs are in "
                    f'{folder.work}')
    assert folder.work.parent == out and (folder.work / 'bag').is_dir()
    failed = folder.work.name

    monkeypatch.setattr(Listener, '_on_chatter', original)
    folder = RunFolder(out, sc.name, overwrite=True)
    summary = run_scenario(sc, duration=0.5, record=True, output=folder)
    assert summary['bag'] == str(out / 'bag')
    assert json.loads((out / 'summary.json').read_text())['sim_time'] == pytest.approx(0.5)
    assert read_bag(out / 'bag')['/demo/chatter'].t[-1] == pytest.approx(0.5)
    assert (out / 'notes.txt').read_text() == 'mine'
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ['bag', 'notes.txt', 'summary.json', failed])
