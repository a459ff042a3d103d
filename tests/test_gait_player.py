"""Issue 26: one gait player. Every gait is a plug-in found through the gait_player.generators
entry points of its own package (gait_player imports none of them), the keys renamed with the
coupled-wave walk still load, and the one player node plays each kind in its scenario: the
wave walk, the ZMP walk (PD commands) and the snake's timed protocol."""
import ast
from pathlib import Path

import pytest

from gait_player import registry
from gait_player.generator import Generator
from gait_player.legs import LegProtocol

WS = Path(__file__).resolve().parents[1]
PLUG_INS = {'nao_wave_walk': 'coupled_wave_gait', 'nao_wave_walk_flat': 'coupled_wave_gait',
            'nao_wave_walk_smooth': 'coupled_wave_gait', 'nao_zmp_walk': 'zmp_walk',
            'snake_gait': 'snake_gaits'}
GAIT_PACKAGES = set(PLUG_INS.values())


def imported_packages(package: str) -> set[str]:
    out = set()
    for f in (WS / 'src' / package / package).rglob('*.py'):
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.Import):
                out |= {a.name.split('.')[0] for a in n.names}
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                out.add(n.module.split('.')[0])
    return out


def test_every_gait_is_registered_by_its_own_package_through_an_entry_point():
    found = registry.registered()
    assert {name: ep.value.split('.')[0] for name, ep in found.items()} == PLUG_INS
    for name in PLUG_INS:
        entry = registry.lookup(name)
        assert isinstance(entry, LegProtocol if name == 'snake_gait' else Generator), name
    assert registry.lookup('nao_zmp_walk').command_interface == 'pd'


def test_the_player_imports_no_gait_package_and_the_wave_walk_not_the_zmp_walk():
    assert not imported_packages('gait_player') & GAIT_PACKAGES
    assert 'zmp_walk' not in imported_packages('coupled_wave_gait')


def test_a_parameter_file_with_a_key_from_before_the_rename_still_plays_that_walk(tmp_path):
    from zoo_runtime.embedded import context, init, parameter, shutdown
    from gait_player.player_node import GaitPlayer
    ctx = context.Context()
    init(args=[], context=ctx)
    try:
        P = parameter.Parameter
        old = GaitPlayer(context=ctx, parameter_overrides=[P('generator', value='nao_walk_smooth')])
        new = GaitPlayer(context=ctx, parameter_overrides=[P('generator',
                                                             value='nao_wave_walk_smooth')])
        params = old._make_gait.walk_params.from_sequence([0.6, 15, -20, 30, 0.5, 40, 10, 0, -20, 25])
        a = old._make_gait(params, old.version, True)
        b = new._make_gait(params, new.version, True)
        assert (a.sole, a.hip) == (b.sole, b.hip) == ('parallel', 'ramped')
    finally:
        shutdown(context=ctx)


def _play(scenario: str, seconds: float) -> dict:
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    from gait_player.player_node import GaitPlayer
    run = ScenarioRun(load_scenario(scenario))
    try:
        player = run.nodes['walker' if scenario.startswith('nao') else 'gait']
        assert isinstance(player, GaitPlayer)
        run.run(seconds)
        return player.robozoo_metrics()
    finally:
        run.close()


@pytest.mark.parametrize('scenario', ['nao_wave_walk', 'nao_walk'])
def test_the_player_walks_the_wave_and_the_zmp_walk(scenario):
    pytest.importorskip('mujoco')
    m = _play(scenario, 1.5)
    assert m['walks'] == 1 and m['state'] == 'walking' and not m['fell']
    assert m['forward_m'] > 0.02  # under way (the ZMP walk starts slower)


def test_the_player_plays_the_snake_protocol():
    pytest.importorskip('mujoco')
    m = _play('snake_linear_progression', 1.0)
    assert m['gait'] == 'linear_progression' and m['goal_updates'] == 10
    assert m['legs'] == [] and not m['finished']
