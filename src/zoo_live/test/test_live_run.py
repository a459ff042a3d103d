"""Issue 17 acceptance: `robozoo run <scenario> --live` serves Foxglove's protocol; a client
subscribes and decodes a JointState and a TF message with the advertised schemas, and gets the
robot model. A taken port is one line and exit 2."""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import threading
from pathlib import Path

from foxglove_client import receive

WS = Path(__file__).resolve().parents[3]
ROBOZOO = str(WS / 'bin' / 'robozoo')


def _start(tmp_path: Path) -> tuple[subprocess.Popen, str, list[str]]:
    proc = subprocess.Popen([ROBOZOO, 'run', 'go1_stand', '--live-port', '0', '--duration', '60',
                             '--quiet', '--output', str(tmp_path / 'out')], cwd=WS,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    lines: list[str] = []
    found = threading.Event()

    def read():  # keep draining stderr, so node logs never block the run
        for line in proc.stderr:
            lines.append(line)
            if 'ws://' in line:
                found.set()
    threading.Thread(target=read, daemon=True).start()
    assert found.wait(60), ''.join(lines)
    url = re.search(r'ws://[\d.]+:\d+', next(x for x in lines if 'ws://' in x)).group(0)
    return proc, url, lines


def test_live_run_serves_joint_states_tf_and_the_robot_model(tmp_path):
    proc, url, lines = _start(tmp_path)
    try:
        topics = ['/go1/joint_states', '/tf', '/go1/robot_description']
        info, channels, got = asyncio.run(receive(url, topics))
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # a clean stop: summary written, exit 130
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, out
    assert (tmp_path / 'out' / 'summary.json').is_file()
    assert 'time' in info['capabilities'] and channels['/tf']['schemaName'] == \
        'tf2_msgs/msg/TFMessage'
    joints = got['/go1/joint_states']
    assert len(joints.name) == len(joints.position) == 12 and joints.name[0] == 'FL_hip_joint'
    frames = {(t.header.frame_id, t.child_frame_id) for t in got['/tf'].transforms}
    assert ('world', 'go1/base_link') in frames
    assert '<robot' in got['/go1/robot_description'].data
    assert any('config/foxglove/go1.json' in x for x in lines)
    layout = json.loads((WS / 'config' / 'foxglove' / 'go1.json').read_text())
    named = set(re.findall(r'"(/go1/[a-z_/]+|/tf)[".]', json.dumps(layout)))
    assert named and named <= set(channels), named - set(channels)  # the layout's topics exist


def test_a_taken_port_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([ROBOZOO, 'run', 'go1_stand', '--live-port', str(port),
                            '--duration', '0.1', '--quiet', '--output', str(tmp_path / 'out')],
                           cwd=WS, capture_output=True,
                           text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr == (f'robozoo: error: --live: port {port} on 127.0.0.1 is taken (another '
                        'robozoo run --live, or a Foxglove bridge?); choose another with '
                        '--live-port PORT, or 0 for any free one\n')
