"""The plan tracker's schema: gravity and terrain are the world's unless overridden, and a value
out of its range is refused in one line naming the node and the parameter."""
import pytest

from zoo_runtime import parameter_schema, rclpy


def test_gravity_and_terrain_default_to_the_worlds():
    schema = parameter_schema.load('trajectory_optimizer', 'plan_tracker')
    assert schema.entries['gravity'].default == 0.0  # 0: the world's (/sim/gravity)
    assert schema.entries['world'].default == ''     # '': the simulator's (/sim/world)


@pytest.mark.parametrize('name, value, words', [
    ('swing_warp', 1.5, 'expected in [0, 1], got 1.5'), ('rate', 0.0, 'expected > 0, got 0.0'),
    ('kp', [1.0], 'expected 3 values (hip, thigh, calf)'), ('end', 'sit', "expected '' (hold)")])
def test_bad_values_are_named(name, value, words):
    from trajectory_optimizer.tracker_node import PlanTracker
    ctx = rclpy.context.Context()
    rclpy.init(context=ctx)
    try:
        with pytest.raises(ValueError) as e:
            PlanTracker(context=ctx, parameter_overrides=[rclpy.parameter.Parameter(name,
                                                                                    value=value)])
        assert str(e.value).startswith(f"node 'plan_tracker': parameter '{name}' = ")
        assert words in str(e.value)
    finally:
        rclpy.shutdown(context=ctx)
