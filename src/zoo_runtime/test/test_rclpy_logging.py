"""Loggers: rcutils' console format, levels, child loggers, once / skip_first / throttle."""
from __future__ import annotations

import re

LINE = re.compile(r'^\[(DEBUG|INFO|WARN|ERROR|FATAL)\] \[(\d+)\.(\d{9})\] \[([\w.]+)\]: (.*)$')


def _lines(capfd):
    return [line for line in capfd.readouterr().err.splitlines() if LINE.match(line)]


def test_format_and_levels(rt, capfd):
    node = rt.node('speaker', namespace='/robot')
    log = node.get_logger()
    capfd.readouterr()
    log.info('hello')
    log.debug('hidden by default')
    log.warn('careful')
    log.error('broken')
    lines = _lines(capfd)
    parsed = [LINE.match(line).group(1, 4, 5) for line in lines]
    assert parsed == [('INFO', 'robot.speaker', 'hello'), ('WARN', 'robot.speaker', 'careful'),
                      ('ERROR', 'robot.speaker', 'broken')]
    log.set_level(rt.rclpy.logging.LoggingSeverity.DEBUG)
    log.debug('now visible')
    assert [LINE.match(x).group(5) for x in _lines(capfd)] == ['now visible']


def test_child_loggers_inherit_the_parent_level(rt, capfd):
    parent = rt.rclpy.logging.get_logger('zoo_parent')
    child = parent.get_child('gait')
    assert child.name == 'zoo_parent.gait'
    parent.set_level(rt.rclpy.logging.LoggingSeverity.ERROR)
    capfd.readouterr()
    child.warning('suppressed')
    child.error('shown')
    assert [LINE.match(x).group(4, 5) for x in _lines(capfd)] == [('zoo_parent.gait', 'shown')]
    parent.set_level(rt.rclpy.logging.LoggingSeverity.INFO)


def test_once_skip_first_and_throttle(rt, capfd):
    log = rt.rclpy.logging.get_logger('zoo_filters')
    capfd.readouterr()
    for i in range(5):
        log.info(f'once {i}', once=True)
    for i in range(3):
        log.info(f'skip {i}', skip_first=True)
    for i in range(50):
        log.info(f'throttled {i}', throttle_duration_sec=1000.0)
    messages = [LINE.match(x).group(5) for x in _lines(capfd)]
    assert messages == ['once 0', 'skip 1', 'skip 2', 'throttled 0']


def test_throttle_on_a_sim_clock(embedded_rt, capfd):
    rt = embedded_rt
    clock = rt.rclpy.clock.ROSClock()
    clock._set_ros_time_is_active(True)
    log = rt.rclpy.logging.get_logger('zoo_sim_throttle')
    Time = rt.rclpy.time.Time
    capfd.readouterr()
    for ms in range(0, 3000, 100):
        clock.set_ros_time_override(Time(nanoseconds=ms * 1_000_000,
                                         clock_type=rt.rclpy.clock.ClockType.ROS_TIME))
        log.info(f't={ms}', throttle_duration_sec=1.0, throttle_time_source_type=clock)
    assert [LINE.match(x).group(5) for x in _lines(capfd)] == ['t=0', 't=1000', 't=2000']
