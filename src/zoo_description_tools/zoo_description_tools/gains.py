"""The PID gains schema (issue 26: one owner): ``gains.<joint>.<key>`` in a description's
``config/pid_gains.yaml`` and in joint_pid_control's parameters, in ros2_control's shape
(specs/ros_stack.md §2.4-2.5). joint_pid_control's ``Gains`` has exactly these fields, in this
order (its tests check); the description contract requires ``DESCRIPTION_GAIN_KEYS`` and refuses
keys not in ``GAIN_KEYS``.
"""
from __future__ import annotations

GAIN_KEYS = ('p', 'i', 'd', 'u_clamp_max', 'u_clamp_min', 'i_clamp_max', 'i_clamp_min',
             'antiwindup_strategy', 'tracking_time_constant', 'error_deadband',
             'feedforward_gain', 'derivative_filter_time_constant')
STRATEGIES = ('none', 'back_calculation', 'conditional_integration')
# what every description's pid_gains.yaml sets (the rest take joint_pid_control's defaults; the
# output clamp u_clamp_* its URDF's velocity limit, so the contract refuses them there)
DESCRIPTION_GAIN_KEYS = ('p', 'i', 'd', 'antiwindup_strategy')
