"""The player's parameters come from its schemas: the walk's part agrees with the constants the
code owns, and each kind of gait gets its own set (a walk's and its plug-in's part, or a timed
protocol's part alone)."""
from gait_player.generator import PLAYBACK_MODES, Generator
from gait_player.legs import LegProtocol
from gait_player.player_node import schema_of
from gait_player.walk_evaluation import REFERENCE_FITNESS
from zoo_runtime import parameter_schema

WALK = parameter_schema.load('gait_player', '_walk')


def test_the_walk_part_agrees_with_the_code():
    assert dict(WALK.entries['mode'].validation)['one_of'] == (list(PLAYBACK_MODES),)
    assert WALK.entries['fitness_ref'].default == REFERENCE_FITNESS
    assert WALK.problem('ramp_time', -1.0) == 'expected >= 0 s, got -1.0'


def test_each_kind_of_gait_declares_its_own_parameters():
    wave = schema_of(Generator(lambda *a, **k: None))
    zmp = schema_of(Generator(lambda *a, **k: None, parameters=('zmp_walk', '_zmp_walk')))
    snake = schema_of(LegProtocol(lambda values, node: None, ('snake_gaits', '_snake_gait')))
    assert set(wave.entries) == {'generator'} | set(WALK.entries)
    assert set(zmp.entries) == set(wave.entries) | {'gait.<option>'}
    assert zmp.entry('gait.step_length') is not None and wave.entry('gait.step_length') is None
    assert 'mode' not in snake.entries and snake.entry('leg_s') is not None
