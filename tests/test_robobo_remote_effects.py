"""The Robobo's effects over the Remote Access Protocol (issue 27): robobopy 1.5.0 (PyPI,
unmodified) sets LEDs, the face, sounds and speech; each shows on the robot's ROS topics
(``leds`` robobo_msgs/Led, ``emotion``, ``sound``, ``speech`` std_msgs/String), is answered as
the app answers (no ERROR; ``sayText`` gets its UNLOCK-TALK), and bad names are refused."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')
from robobopy.utils.Color import Color  # noqa: E402
from robobopy.utils.Emotions import Emotions  # noqa: E402
from robobopy.utils.LED import LED  # noqa: E402
from robobopy.utils.Sounds import Sounds  # noqa: E402

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import connect  # noqa: E402

TOPICS = ('/robobo/leds', '/robobo/emotion', '/robobo/sound', '/robobo/speech')


def wait_until(check, wall_s: float = 10.0) -> bool:
    deadline = time.time() + wall_s
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_robobopy_effects_show_on_ros_topics():
    seen: list[tuple[str, object]] = []
    robot_id = free_robot_id()
    with ServedRun(robot_id, sim_server=False) as served:
        served.run.context.add_publish_observer(
            lambda t, m: seen.append((t, m)) if t in TOPICS else None, TOPICS)
        rob = connect(robot_id)
        errors: list[dict] = []
        rob.rem.processors['ROB'].supportedMessages.append('ERROR')   # see ERROR statuses
        original = rob.rem.processors['ROB'].process
        rob.rem.processors['ROB'].process = lambda s: (
            errors.append(s) if s['name'] == 'ERROR' else original(s))
        try:
            rob.setLedColorTo(LED.FrontC, Color.RED)
            rob.setLedColorTo(LED.All, Color.ORANGE)
            rob.setEmotionTo(Emotions.HAPPY)
            rob.playSound(Sounds.LAUGH)
            talked = threading.Event()
            threading.Thread(target=lambda: (rob.sayText('hello there'), talked.set()),
                             daemon=True).start()
            assert talked.wait(10.0), 'sayText never returned (no UNLOCK-TALK)'
            assert wait_until(lambda: any(t == '/robobo/speech' for t, _ in seen))
            rob.setLedColorTo(LED.BackL, SimpleNamespace(value='purple'))   # no such colour: refused
            assert wait_until(lambda: errors)
        finally:
            rob.disconnect()
    leds = [(m.id.data, (m.color.r, m.color.g, m.color.b)) for t, m in seen if t == TOPICS[0]]
    assert leds[0] == ('Front-C', (1.0, 0.0, 0.0))
    assert sorted(n for n, _ in leds[1:]) == sorted(
        ['Front-LL', 'Front-L', 'Front-C', 'Front-R', 'Front-RR', 'Back-R', 'Back-L'])
    assert {rgb for _, rgb in leds[1:]} == {(1.0, 0.5, 0.0)}   # the app's orange 3000/1500/0
    said = {t: m.data for t, m in seen if t != TOPICS[0]}
    assert said == {'/robobo/emotion': 'happy', '/robobo/sound': 'laugh',
                    '/robobo/speech': 'hello there'}
    assert [e['value']['command'] for e in errors] == ['SET-LEDCOLOR']
    assert 'purple' in errors[0]['value']['message']
