"""Issue 17 item 2 acceptance: a separate process using plain cyclonedds (its own IdlStruct of
sensor_msgs/JointState under the ROS 2 type name, no robozoo import) receives /nao/joint_states
from a running ``nao_stand_dds`` scenario as ``rt/nao/joint_states`` and moves HeadYaw by
publishing velocity commands on ``rt/nao/joint_commands``.

Cyclone runs over loopback with unicast discovery (zoo_dds.transport.LOOPBACK_CONFIG in
CYCLONEDDS_URI: no multicast needed) on a random domain id, so parallel runs do not meet.
Timeouts are generous (discovery + scenario start take ~3 s here; the peer waits up to 60 s).

Run the peer alone: ``python tests/test_dds_interop.py <domain_id>`` (prints one JSON line).
"""

import json
import sys
import time
from dataclasses import dataclass, field

from cyclonedds.domain import DomainParticipant
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import float64, int32, sequence, uint32
from cyclonedds.pub import DataWriter
from cyclonedds.qos import Policy, Qos
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration


@dataclass
class Time_(IdlStruct, typename='builtin_interfaces.msg.dds_.Time_'):
    sec: int32 = 0
    nanosec: uint32 = 0


@dataclass
class Header_(IdlStruct, typename='std_msgs.msg.dds_.Header_'):
    stamp: Time_ = field(default_factory=Time_)
    frame_id: str = ''


@dataclass
class JointState_(IdlStruct, typename='sensor_msgs.msg.dds_.JointState_'):
    header: Header_ = field(default_factory=Header_)
    name: sequence[str] = field(default_factory=list)
    position: sequence[float64] = field(default_factory=list)
    velocity: sequence[float64] = field(default_factory=list)
    effort: sequence[float64] = field(default_factory=list)


JOINT = 'HeadYaw'
SPEED = 1.0          # rad/s commanded
COMMAND_S = 1.5      # wall seconds of commands
TIMEOUT_S = 60.0     # for the first samples (scenario start + discovery)


def peer(domain_id: int) -> dict:
    """Wait for joint states, command JOINT at SPEED for COMMAND_S, report what was seen."""
    qos = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.History.KeepLast(10),
              Policy.Durability.Volatile)
    dp = DomainParticipant(domain_id)
    states = Topic(dp, 'rt/nao/joint_states', JointState_, qos=qos)
    reader = DataReader(dp, states, qos)
    writer = DataWriter(dp, Topic(dp, 'rt/nao/joint_commands', JointState_, qos=qos), qos)
    out: dict = {'topic': states.name, 'type': states.typename, 'samples': 0}

    def position(deadline: float) -> "float | None":
        last = None
        while time.monotonic() < deadline:
            for s in reader.take(64):
                out['samples'] += 1
                if JOINT in s.name:
                    last = s.position[s.name.index(JOINT)]
                    out['names'] = len(s.name)
            if last is not None:
                return last
            time.sleep(0.01)
        return None

    out['q0'] = position(time.monotonic() + TIMEOUT_S)
    if out['q0'] is None:
        return out
    time.sleep(0.5)  # the bridge's reader has matched our writer by now (both sides discovered)
    out['q0'] = position(time.monotonic() + 5.0)
    end = time.monotonic() + COMMAND_S
    while time.monotonic() < end:
        writer.write(JointState_(name=[JOINT], velocity=[SPEED]))
        time.sleep(0.02)
    out['q1'] = position(time.monotonic() + 5.0)
    out['matched_commands'] = len(writer.get_matched_subscriptions())
    return out


if __name__ == '__main__':
    print(json.dumps(peer(int(sys.argv[1]))), flush=True)


# -- the test (pytest process; the peer above runs in its own process) ------------------------
def test_plain_cyclonedds_peer_sees_joint_states_and_moves_a_joint(tmp_path):
    import os
    import random
    import signal
    import subprocess
    from pathlib import Path

    from zoo_dds.transport import LOOPBACK_CONFIG

    ws = Path(__file__).resolve().parents[1]
    domain = random.Random().randrange(100, 232)
    env = dict(os.environ, CYCLONEDDS_URI=LOOPBACK_CONFIG, ROS_DOMAIN_ID=str(domain))
    run = subprocess.Popen([str(ws / 'bin' / 'robozoo'), 'run', 'nao_stand_dds', '--duration',
                            '120', '--quiet', '--output', str(tmp_path / 'run')], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        peer_out = subprocess.run([sys.executable, __file__, str(domain)], env=env,
                                  capture_output=True, text=True, timeout=TIMEOUT_S + 30)
    finally:
        run.send_signal(signal.SIGINT)
        try:
            log = run.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            run.kill()
            log = run.communicate()[0]
    assert peer_out.returncode == 0, peer_out.stderr
    seen = json.loads(peer_out.stdout.strip().splitlines()[-1])
    assert seen['topic'] == 'rt/nao/joint_states', seen
    assert seen['type'] == 'sensor_msgs::msg::dds_::JointState_', seen
    assert seen['q0'] is not None, f'no joint states within {TIMEOUT_S} s: {seen}\n{log[-3000:]}'
    assert seen['names'] == 25 and seen['matched_commands'] == 1, seen
    # 1 rad/s for 1.5 s; the joint starts at rest and the sim is paced at real time
    assert seen['q1'] - seen['q0'] > 0.75 * SPEED * COMMAND_S, seen
    summary = json.loads((tmp_path / 'run' / 'summary.json').read_text())
    bridge = summary['metrics']['dds_bridge']
    assert bridge['domain_id'] == domain and bridge['received']['/nao/joint_commands'] > 10
    assert bridge['sent']['/nao/joint_states'] > 100
    assert bridge['sim_to_wall'] is None or bridge['sim_to_wall'] < 1.5  # paced
