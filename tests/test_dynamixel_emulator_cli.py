"""`bin/robozoo dxl-emulator`: backed by the simulated snake (snake_stand, real-time paced), real
clients from PyPI (dynamixel-sdk, pypot) write goals and the simulated joints move accordingly;
bad arguments get one line."""
import contextlib
import subprocess
import time
from pathlib import Path

import pytest
from dxl_clients import pypot_goal_moves_the_snake, sdk_sync_write_moves_the_snake

ROBOZOO = str(Path(__file__).resolve().parents[1] / 'bin' / 'robozoo')


def _emulator(*args):
    p = subprocess.Popen([ROBOZOO, 'dxl-emulator', *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = p.stdout.readline().strip()
    assert path.startswith('/dev/'), p.stderr.read() if p.poll() is not None else path
    return p, path


def _stop(p):
    p.terminate()
    assert p.wait(timeout=20) == 0


SNAKE = ('--protocol', '1', '--ids', '1-16', '--scenario', 'snake_stand')


@contextlib.contextmanager
def _served(*args):
    """The emulator's pty path while it runs with ``args``; it must then stop cleanly."""
    p, path = _emulator(*args)
    try:
        yield path
    finally:
        _stop(p)


def test_sdk_goals_move_the_simulated_snake():
    """dxl_clients.sdk_sync_write_moves_the_snake (also run under real ROS: tests/ros/
    test_real_clients_under_ros.py)."""
    with _served(*SNAKE) as path:
        sdk_sync_write_moves_the_snake(path)


def test_pypot_goals_move_the_simulated_snake():
    with _served(*SNAKE) as path:
        pypot_goal_moves_the_snake(path)


def test_a_goal_with_torque_off_leaves_the_simulated_joint():
    """Issue 27: a goal written with torque off moved the simulated joint (102 steps)."""
    from dxl_clients import sdk_goal_with_torque_off_waits
    with _served(*SNAKE) as path:
        sdk_goal_with_torque_off_waits(path)


def test_pypot_goal_with_torque_off_leaves_the_simulated_joint():
    from dxl_clients import pypot_torque_off_goal_waits
    with _served(*SNAKE) as path:
        pypot_torque_off_goal_waits(path)


def test_a_push_against_the_stop_reads_the_limit_then_overloads():
    """Issue 27: a goal beyond the stop halted there with Present Load about 0, no overload."""
    from dxl_clients import sdk_push_against_the_stop_overloads
    with _served(*SNAKE) as path:
        sdk_push_against_the_stop_overloads(path)


def test_an_xm430_pushing_against_the_stop_reads_its_current_limit_then_overloads():
    """Issue 27: the overload error when a joint is held against its stop, XM430 (Protocol 2.0)."""
    from dxl_clients import sdk_xm430_push_against_the_stop_overloads
    with _served('--protocol', '2', '--baud', '1000000', '--ids', '1-16',
                 '--scenario', 'snake_stand') as path:
        sdk_xm430_push_against_the_stop_overloads(path)


@pytest.mark.parametrize('check', ['sdk_moving_speed_caps_the_move',
                                   'sdk_torque_limit_zero_does_not_move',
                                   'pypot_moving_speed_caps_the_move'])
def test_speed_and_torque_limits_reach_the_simulated_joint(check):
    """Issue 27: Moving Speed and Torque Limit were ignored by the simulated joints."""
    import dxl_clients
    with _served(*SNAKE) as path:
        getattr(dxl_clients, check)(path)


@pytest.mark.parametrize('args,words', [
    (['--ids', '3-x'], "'3-x': expected ids like 1-16"),
    (['--baud', '3000000'], '--baud 3000000: AX-12A cannot run at that rate'),
    (['--scenario', 'snake_nope'], "unknown scenario 'snake_nope'"),
    (['--fault', 'melt:3'], "'melt 3': expected"),
])
def test_bad_arguments_one_line(args, words):
    r = subprocess.run([ROBOZOO, 'dxl-emulator', *args], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, \
        r.stderr


@pytest.mark.parametrize('delay_us', [0, 500])
def test_a_status_never_beats_its_wire_time_across_processes(delay_us):
    """The emulator in its own process (as the benchmark runs it) takes only a lower bound of the
    pty's delivery off the bus time: over 200 round trips, none is faster than the wire (request
    8 bytes + the return delay + status 8 bytes at 1 Mbps). Load can only make them slower."""
    import os
    import select

    from dynamixel_bridge import instructions as ins
    from dynamixel_bridge import protocol1
    p, path = _emulator('--protocol', '1', '--ids', '1-4', '--quiet', '--realtime',
                        '--return-delay-us', str(delay_us))
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    wire = 16 * 10e-6 + delay_us * 1e-6
    fastest = 1.0
    try:
        req = protocol1.encode(1, ins.READ, bytes([36, 2]))
        for _ in range(200):
            select.select([], [], [], 0.001)
            t0 = time.perf_counter()
            os.write(fd, req)
            got = b''
            while len(got) < 8 and time.perf_counter() - t0 < 1.0:  # the fastest observer: a
                try:                                                 # spinning reader
                    got += os.read(fd, 64)
                except BlockingIOError:
                    pass
            fastest = min(fastest, time.perf_counter() - t0)
            assert len(got) == 8
    finally:
        os.close(fd)
        _stop(p)
    assert fastest >= wire, f'{fastest * 1e6:.1f} us, the wire needs {wire * 1e6:.0f}'


def test_id_write_then_the_new_id_on_the_simulated_snake():
    """Issue 25: an ID write (5 -> 50) then READs at 50 killed the bus thread (the joints plant
    knew servos by their first id) and the process later exited 0. Now the servo answers at 50,
    the bus keeps serving, and the emulator exits 0 on SIGTERM with nothing wrong."""
    from dxl_clients import sdk_id_write_readdresses_the_servo
    with _served(*SNAKE) as path:
        sdk_id_write_readdresses_the_servo(path, 1, 5, 50)


def test_broadcast_id_write_collides_and_warns_once():
    """A broadcast ID write (0xFE, ID 7) keeps 16 servos, all at 7: statuses collide (the client
    sees them corrupt or missing), and one warning names the id and the servos."""
    from dxl_clients import sdk_broadcast_id_write_collides
    p, path = _emulator('--protocol', '1', '--ids', '1-16')
    try:
        sdk_broadcast_id_write_collides(path, 1, list(range(1, 17)), 7)
    finally:
        p.terminate()
        out, err = p.communicate(timeout=20)
    assert p.returncode == 0, err
    warnings = [line for line in err.splitlines() if 'id 7 is shared by 16 servos' in line]
    assert len(warnings) == 1, err
