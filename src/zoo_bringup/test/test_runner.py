"""The embedded runner end to end on the talker/listener scenario: wiring, sim time, recording,
determinism and the summary."""
import json

import pytest

from zoo_bringup.runner import ScenarioRun, run_scenario
from zoo_bringup.scenario import apply_overrides, load_scenario


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
