"""pytest plugin of the ROS tier (tools/test_ros.sh): counts the tests that ran on real rclpy (a
conformance test's ``ros`` half, every test of tests/ros/, and the tests of a module that says
``RUNS_ON_REAL_RCLPY = True``) and fails the run when any test was skipped for want of rclpy: the
tier exists to run them."""
from __future__ import annotations

import os
import signal

import pytest

_NO_RCLPY = 'real rclpy is not importable'


class _Tally:
    def __init__(self):
        self.real_ids: set[str] = set()
        self.real = 0
        self.other = 0
        self.no_rclpy: list[str] = []

    def pytest_runtest_logreport(self, report):
        if report.skipped and _NO_RCLPY in str(report.longrepr):
            self.no_rclpy.append(report.nodeid)
        elif report.when == 'call' and not report.skipped:
            if report.nodeid in self.real_ids:
                self.real += 1
            else:
                self.other += 1

    def pytest_collection_modifyitems(self, items):
        for item in items:
            callspec = getattr(item, 'callspec', None)
            if ((callspec is not None and callspec.params.get('rt') == 'ros')
                    or getattr(item.module, 'RUNS_ON_REAL_RCLPY', False)
                    or item.nodeid.startswith('tests/ros/')):
                self.real_ids.add(item.nodeid)

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_line(
            f'ROS tier: {self.real} tests ran on real rclpy, {self.other} beside them (the '
            f'embedded half of the conformance suite, embedded-only behaviour); '
            f'{len(self.no_rclpy)} skipped for want of rclpy')
        for nodeid in self.no_rclpy:
            terminalreporter.write_line(f'  skipped for want of rclpy: {nodeid}')

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        if self.no_rclpy and session.exitstatus == 0:
            session.exitstatus = 1


def pytest_configure(config):
    # The tests stop `ros2 launch`, `ros2 bag record` and nodes with SIGINT, as Ctrl-C would. A
    # shell that started this run in the background ignores SIGINT, and programs inherit an
    # ignored signal (some, like `ros2 bag record`, then never stop): a handler here makes every
    # child start with the default.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.get('ZOO_RUNTIME') != 'ros':
        raise pytest.UsageError('the ROS tier runs with ZOO_RUNTIME=ros (tools/test_ros.sh sets '
                                'it through tools/ros2_env.sh)')
    config.pluginmanager.register(_Tally(), 'ros_tier_tally')
