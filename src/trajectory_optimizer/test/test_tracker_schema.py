"""The plan tracker's schema: its gravity default is standard gravity, and a value out of its
range is refused in one line naming the node and the parameter."""
import pytest

from zoo_description_tools.physics import STANDARD_GRAVITY
from zoo_runtime import parameter_schema, rclpy


def test_gravity_default_is_standard_gravity():
    schema = parameter_schema.load('trajectory_optimizer', 'plan_tracker')
    assert schema.entries['gravity'].default == STANDARD_GRAVITY


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
