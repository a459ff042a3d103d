"""The instant a timer's call was scheduled for, to stamp the commands it computes.

A controller under real ROS that stamps its commands with the clock's now stamps, on a loaded
machine, a few ms after its tick, differently every time: the simulator's command sync
(zoo_sim.command_sync) then never sees equal periods and never waits for it, so the commands
stay late (a snake's lateral roll under ``ros2 launch`` lost a 10 Hz goal and went 0.21-0.25 m
for 0.158). Stamped with the tick's own instant, the periods are exact however late the callback
runs. In the embedded lockstep executor a timer runs at its instant, and both are the same.
"""
from __future__ import annotations

__all__ = ['tick_time']


def tick_time(timer):
    """The time on ``timer``'s clock at which the call now running was due, between calls the
    last call's (an rclpy Time; the clock's now for a canceled timer). rclpy has no call for it:
    rcl sets the next call time before the callback runs (skipping the periods missed), and the
    tick is that less one period."""
    now = timer.clock.now()
    until = timer.time_until_next_call()
    if until is None:
        return now
    due = now.nanoseconds + until - timer.timer_period_ns
    if not 0 <= due <= now.nanoseconds:
        return now
    return type(now)(nanoseconds=due, clock_type=now.clock_type)
