"""Time, Duration, clocks, sim time from /clock, and timers on wall and ROS clocks."""
from __future__ import annotations

import threading
import time

import pytest


def test_time_and_duration_arithmetic(rt):
    Time, Duration = rt.rclpy.time.Time, rt.rclpy.duration.Duration
    ClockType = rt.rclpy.clock.ClockType
    t = Time(seconds=1, nanoseconds=500_000_000, clock_type=ClockType.ROS_TIME)
    d = Duration(seconds=0.25)
    assert t.nanoseconds == 1_500_000_000
    assert (t + d).nanoseconds == 1_750_000_000
    assert (t - d).nanoseconds == 1_250_000_000
    later = Time(seconds=3, clock_type=ClockType.ROS_TIME)
    assert later - t == Duration(seconds=1.5)
    assert t < later and later >= t and t != later
    assert t.seconds_nanoseconds() == (1, 500_000_000)
    assert Duration(seconds=2) > Duration(seconds=1)
    with pytest.raises(TypeError):
        t - Time(seconds=1, clock_type=ClockType.SYSTEM_TIME)
    with pytest.raises(ValueError):
        Time(seconds=-1)


def test_time_message_round_trip(rt):
    Time, Duration = rt.rclpy.time.Time, rt.rclpy.duration.Duration
    ClockType = rt.rclpy.clock.ClockType
    t = Time(seconds=12, nanoseconds=34, clock_type=ClockType.ROS_TIME)
    msg = t.to_msg()
    assert (msg.sec, msg.nanosec) == (12, 34)
    assert Time.from_msg(msg) == t
    dmsg = Duration(nanoseconds=2_000_000_001).to_msg()
    assert (dmsg.sec, dmsg.nanosec) == (2, 1)
    assert Duration.from_msg(dmsg).nanoseconds == 2_000_000_001


def _clock_msg(rt, ns):
    Clock = rt.msg('rosgraph_msgs/msg/Clock')
    TimeMsg = rt.msg('builtin_interfaces/msg/Time')
    return Clock(clock=TimeMsg(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000))


def test_sim_time_follows_clock_topic(rt):
    P = rt.rclpy.parameter.Parameter
    sim = rt.node('sim_user', parameter_overrides=[P('use_sim_time', value=True)])
    driver = rt.node('clock_driver')
    pub = driver.create_publisher(rt.msg('rosgraph_msgs/msg/Clock'), '/clock', 10)
    ex = rt.executor(sim, driver)
    assert sim.get_clock().ros_time_is_active
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() >= 1)
    pub.publish(_clock_msg(rt, 42_500_000_000))
    assert rt.spin_until(ex, lambda: sim.get_clock().now().nanoseconds == 42_500_000_000)
    pub.publish(_clock_msg(rt, 43_000_000_000))
    assert rt.spin_until(ex, lambda: sim.get_clock().now().nanoseconds == 43_000_000_000)
    wall = driver.get_clock().now().nanoseconds
    assert abs(wall - time.time_ns()) < 5e9  # a node without use_sim_time reads system time


def test_use_sim_time_can_be_switched_on_later(rt):
    P = rt.rclpy.parameter.Parameter
    node = rt.node('switcher')
    assert not node.get_clock().ros_time_is_active
    assert node.set_parameters([P('use_sim_time', value=True)])[0].successful
    assert node.get_clock().ros_time_is_active
    assert not node.set_parameters([P('use_sim_time', value='yes')])[0].successful


def test_sim_time_timer_fires_as_clock_advances(rt):
    P = rt.rclpy.parameter.Parameter
    sim = rt.node('sim_timer', parameter_overrides=[P('use_sim_time', value=True)])
    driver = rt.node('sim_timer_driver')
    pub = driver.create_publisher(rt.msg('rosgraph_msgs/msg/Clock'), '/clock', 10)
    fired = []
    sim.create_timer(0.5, lambda: fired.append(sim.get_clock().now().nanoseconds))
    ex = rt.executor(sim, driver)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() >= 1)
    for ms in (100, 400, 500, 700, 1000):
        pub.publish(_clock_msg(rt, ms * 1_000_000))
        assert rt.spin_until(ex, lambda: sim.get_clock().now().nanoseconds == ms * 1_000_000)
        rt.spin_for(ex, 0.02)
    assert fired == [500_000_000, 1_000_000_000]


def test_tick_time_is_the_instant_a_late_call_was_due(rt):
    """zoo_runtime.tick_time: however late the executor runs a sim-time timer's callback (the
    clock jumped past its tick, or past several), the instant the call was due, on the timer's
    grid; what a controller stamps so that the simulator's command sync sees exact periods."""
    from zoo_runtime.tick_time import tick_time
    P = rt.rclpy.parameter.Parameter
    sim = rt.node('tick_timer', parameter_overrides=[P('use_sim_time', value=True)])
    driver = rt.node('tick_timer_driver')
    pub = driver.create_publisher(rt.msg('rosgraph_msgs/msg/Clock'), '/clock', 10)
    fired = []
    timer = None

    def on_tick():
        fired.append((sim.get_clock().now().nanoseconds, tick_time(timer).nanoseconds))
    timer = sim.create_timer(0.5, on_tick)
    ex = rt.executor(sim, driver)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() >= 1)
    for ms in (100, 700, 1000, 2300):
        pub.publish(_clock_msg(rt, ms * 1_000_000))
        assert rt.spin_until(ex, lambda: sim.get_clock().now().nanoseconds == ms * 1_000_000)
        rt.spin_for(ex, 0.02)
    assert fired == [(700_000_000, 500_000_000), (1_000_000_000, 1_000_000_000),
                     (2_300_000_000, 2_000_000_000)]
    assert tick_time(timer).nanoseconds == 2_000_000_000  # between calls: the last tick


def test_wall_timer_fires_and_can_be_cancelled_and_reset(rt):
    node = rt.node('wall_timer')
    count = [0]
    timer = node.create_timer(0.01, lambda: count.__setitem__(0, count[0] + 1))
    assert timer.timer_period_ns == 10_000_000
    ex = rt.executor(node)
    assert rt.spin_until(ex, lambda: count[0] >= 3)
    timer.cancel()
    assert timer.is_canceled() and timer.time_until_next_call() is None
    frozen = count[0]
    rt.spin_for(ex, 0.05)
    assert count[0] == frozen
    timer.reset()
    assert not timer.is_canceled()
    assert 0 < timer.time_until_next_call() <= 10_000_000
    assert rt.spin_until(ex, lambda: count[0] > frozen)


def test_timer_created_without_autostart_waits_for_reset(rt):
    node = rt.node('manual_timer')
    count = [0]
    timer = node.create_timer(0.005, lambda: count.__setitem__(0, count[0] + 1),
                              autostart=False)
    ex = rt.executor(node)
    rt.spin_for(ex, 0.05)
    assert count[0] == 0 and timer.is_canceled()
    timer.reset()
    assert rt.spin_until(ex, lambda: count[0] >= 1)


def test_steady_clock_is_monotonic(rt):
    clock = rt.rclpy.clock.Clock(clock_type=rt.rclpy.clock.ClockType.STEADY_TIME)
    a = clock.now()
    b = clock.now()
    assert b >= a and a.clock_type == rt.rclpy.clock.ClockType.STEADY_TIME


def test_ros_clock_jump_callbacks(rt):
    rclock = rt.rclpy.clock
    Duration, Time = rt.rclpy.duration.Duration, rt.rclpy.time.Time
    clock = rclock.ROSClock()
    jumps = []
    threshold = rclock.JumpThreshold(min_forward=Duration(seconds=1), min_backward=None,
                                     on_clock_change=True)
    handle = clock.create_jump_callback(threshold, post_callback=jumps.append)
    clock._set_ros_time_is_active(True)
    clock.set_ros_time_override(Time(seconds=0.5, clock_type=rclock.ClockType.ROS_TIME))
    clock.set_ros_time_override(Time(seconds=5, clock_type=rclock.ClockType.ROS_TIME))
    assert [j.clock_change for j in jumps] == [rclock.ClockChange.ROS_TIME_ACTIVATED,
                                               rclock.ClockChange.ROS_TIME_NO_CHANGE]
    assert jumps[1].delta.nanoseconds == 4_500_000_000
    handle.unregister()


def test_rate_sleeps_until_sim_time_reaches_each_period(rt):
    P = rt.rclpy.parameter.Parameter
    node = rt.node('rate_user', parameter_overrides=[P('use_sim_time', value=True)])
    driver = rt.node('rate_driver')
    pub = driver.create_publisher(rt.msg('rosgraph_msgs/msg/Clock'), '/clock', 10)
    ex = rt.executor(node, driver)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() >= 1)
    rate = node.create_rate(10.0)
    woke = []

    def loop():
        for _ in range(3):
            rate.sleep()
            woke.append(node.get_clock().now().nanoseconds)

    sleeper = threading.Thread(target=loop, daemon=True)
    sleeper.start()
    for ms in range(50, 400, 50):
        pub.publish(_clock_msg(rt, ms * 1_000_000))
        assert rt.spin_until(ex, lambda: node.get_clock().now().nanoseconds == ms * 1_000_000)
        rt.spin_until(ex, lambda: len(woke) >= ms // 100, timeout_sec=2.0)
    sleeper.join(timeout=5.0)
    assert woke == [100_000_000, 200_000_000, 300_000_000]


def test_sim_timer_restarts_after_clock_jumps_back(rt):
    P = rt.rclpy.parameter.Parameter
    sim = rt.node('rewinder', parameter_overrides=[P('use_sim_time', value=True)])
    driver = rt.node('rewind_driver')
    pub = driver.create_publisher(rt.msg('rosgraph_msgs/msg/Clock'), '/clock', 10)
    fired = []
    sim.create_timer(0.3, lambda: fired.append(sim.get_clock().now().nanoseconds // 1_000_000))
    ex = rt.executor(sim, driver)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() >= 1)
    for ms in (100, 350, 200, 450, 500):  # back from 350 to 200: next call is 200 + 300
        pub.publish(_clock_msg(rt, ms * 1_000_000))
        assert rt.spin_until(ex, lambda: sim.get_clock().now().nanoseconds == ms * 1_000_000)
        rt.spin_for(ex, 0.02)
    assert fired == [350, 500]
