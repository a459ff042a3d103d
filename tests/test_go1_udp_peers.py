"""Issue 25, the simulated Go1's side: who gets the state, and what is dropped, said in the log.
``bin/robozoo run go1_udp_endpoint_hung`` (paced at real time, on a free port) is the robot.

- Two clients at once (the real unitree_legged_sdk, ``robot_interface``, and a raw socket)
  alternate their commands: the state goes to the last sender (a real Go1 does the same), and the
  change is logged once in full naming the old and the new peer, then counted (one line per 5 s,
  the rest at shutdown), not one line per packet.
- Bad datagrams (CRC, length, head) are logged: the first of each in full naming the peer and the
  reason, then a count."""
from __future__ import annotations

import json
import re
import socket
import time

import pytest

pytest.importorskip('unitree_legged_sdk.robot_interface')
from go1_udp_clients import free_port, robozoo_run  # noqa: E402
from unitree_udp.low_level import LowCmd, decode_low_state, encode_low_cmd  # noqa: E402
from unitree_udp.packet import DecodeError  # noqa: E402

LOWLEVEL = 0xFF
N_BAD = 100              # of each kind
ALTERNATE_S = 1.5


def _udp(port: int = 0) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('127.0.0.1', port))
    s.settimeout(0.05)
    return s


def _states(sock: socket.socket, seconds: float) -> int:
    """LowStates that reached ``sock`` within ``seconds``."""
    n, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            decode_low_state(sock.recv(2048))
            n += 1
        except (OSError, DecodeError):
            pass
    return n


@pytest.fixture(scope='module')
def session(tmp_path_factory):
    from unitree_legged_sdk import robot_interface as sdk
    out = tmp_path_factory.mktemp('peers') / 'run'
    port, sdk_port = free_port(), free_port()
    raw, bad = _udp(), _udp()
    zero = encode_low_cmd(LowCmd())           # every loop off (the SDK's InitCmdData)
    got = {}
    try:
        with robozoo_run('go1_udp_endpoint_hung', out, [f'go1_udp_endpoint.port={port}']) as proc:
            end = time.monotonic() + 30
            while True:                        # the raw client first: the robot is up
                assert time.monotonic() < end, 'the simulated Go1 did not answer'
                raw.sendto(zero, ('127.0.0.1', port))
                if _states(raw, 0.05):
                    break
            udp = sdk.UDP(LOWLEVEL, sdk_port, '127.0.0.1', port)
            cmd, state = sdk.LowCmd(), sdk.LowState()
            udp.InitCmdData(cmd)
            udp.SetSend(cmd)
            t_end = time.monotonic() + ALTERNATE_S
            while time.monotonic() < t_end:    # both clients, alternating every 2 ms
                udp.Send()
                time.sleep(0.001)
                raw.sendto(zero, ('127.0.0.1', port))
                time.sleep(0.001)
                udp.Recv()
                udp.GetRecv(state)
            got['sdk_tick'] = state.tick
            for _ in range(20):                # the SDK alone: the states go to it
                udp.Send()
                time.sleep(0.002)
            _states(raw, 0.1)                  # (what was under way to the raw client)
            got['raw_after_sdk'] = _states(raw, 0.3)
            good = bytearray(zero)
            bad_crc = bytearray(good)
            bad_crc[30] ^= 0xFF
            for packet in (bytes(bad_crc), bytes(good[:-1]), b'\0\0' + bytes(good[2:])):
                for _ in range(N_BAD):
                    bad.sendto(packet, ('127.0.0.1', port))
                    time.sleep(0.001)
            time.sleep(0.2)
        summary = json.loads((out / 'summary.json').read_text())
        return dict(got, stderr=proc.outputs[1], port=port, sdk_port=sdk_port,
                    raw=raw.getsockname()[1], bad=bad.getsockname()[1],
                    ep=summary['metrics']['go1_udp_endpoint'])
    finally:
        raw.close()
        bad.close()


def _warnings(stderr: str, fragment: str) -> list[str]:
    return [ln for ln in stderr.splitlines()
            if ln.startswith('[WARN]') and '[go1_udp_endpoint]' in ln and fragment in ln]


def test_the_state_goes_to_the_last_sender(session):
    assert session['sdk_tick'] > 0             # the SDK got states while alternating
    assert session['raw_after_sdk'] == 0       # the SDK sent last: nothing for the raw client


def test_a_change_of_client_is_logged_once_naming_both_then_counted(session):
    s = session
    lines = _warnings(s['stderr'], 'client changed')
    assert lines[0].endswith(f'client changed from 127.0.0.1:{s["raw"]} to '
                             f'127.0.0.1:{s["sdk_port"]} (states go to the last sender)'), lines
    changes = s['ep']['client_changes']
    assert changes >= 200, s['ep']                  # ~750 alternations in 1.5 s
    assert len(lines) <= 1 + 3, lines               # one in full, a count per 5 s, at shutdown
    counted = [int(m.group(1)) for ln in lines[1:]
               for m in [re.search(r'client changed: (\d+) more in the last', ln)] if m]
    assert 1 + sum(counted) == changes and f'({changes} in all)' in lines[-1], lines


@pytest.mark.parametrize('kind, reason', [('crc', 'LowCmd: CRC mismatch'),
                                          ('length', 'LowCmd: 613 bytes, expected 614'),
                                          ('head', 'LowCmd: head 0000, expected feef')])
def test_dropped_datagrams_are_logged_in_full_once_then_counted(session, kind, reason):
    s = session
    lines = _warnings(s['stderr'], f'dropped datagram ({kind})')
    assert lines[0].endswith(f'dropped datagram ({kind}) from 127.0.0.1:{s["bad"]}: {reason}'), \
        lines
    assert s['ep'][f'{kind}_errors'] == N_BAD, s['ep']
    assert 2 <= len(lines) <= 3 and f'({N_BAD} in all), the last from 127.0.0.1:' in lines[-1], \
        lines
