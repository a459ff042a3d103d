"""The Robobo Remote Access Protocol (RRAP) as robobopy 1.5.0 and robobosim 1.5.1 speak it: frame
parsing, command validation and status encoding. No ROS, no sockets.

Facts (read from the PyPI packages, cited per item; no code copied):
- robobopy/remotelib.py: robot id i is ``ws://<ip>:40404 + 10 i`` (no port argument); the first
  frame is the text ``PASSWORD: <pw>``; blocking calls poll every 0.1 s of wall time until the
  matching UNLOCK-* status clears their lock; a status must carry ``name`` and ``value``.
- robobopy/utils/Message.py: a command is JSON ``{"name", "parameters", "id"}`` with every
  parameter value written as a string (``str(value)``, so booleans arrive as "True"/"False").
- robobopy/processors/RobProcessor.py: MOVE / MOVE-BLOCKING (lspeed, rspeed: int; time: seconds;
  blockid), MOVEBY-DEGREES, RESET-WHEELS, SET-LEDCOLOR, SET-SENSOR-FREQUENCY; statuses WHEELS
  (wheelPosR/L, wheelSpeedR/L), IRS (keys Front-C ... Back-L), UNLOCK-MOVE.
- robobopy/processors/PTProcessor.py: MOVEPAN(-BLOCKING) with pos = external + 180 (the app's
  11..343), MOVETILT(-BLOCKING) pos 7..105 (client-side clamps); statuses PAN (panPos, app
  convention), TILT (tiltPos), UNLOCK-PAN, UNLOCK-TILT.
- robobopy/processors/VisionProcessor.py: CONFIGURE-BLOBTRACKING (red, green, blue, custom),
  CONFIGURE-LOSTBLOB; status BLOB (color, posx, posy, size).
- robobosim/remotelib.py and processors/: port 50505, password REMOTE-SIM; RESET-SIM,
  SIM-LOCATION-SET / SIM-OBJECT-LOCATION-SET (position and rotation are Python dict reprs, as
  ``str(dict)`` writes them: ``{}`` or ``{'x': 1.0, 'y': 2, 'z': 3.5}``); statuses SIM-LOCATION
  (id, tx, ty, tz, rx, ry, rz) and SIM-OBJECT-LOCATION (object-id, ...).
- The real app (mintforpeople/robobo-app-ios, remote-control and rob-interface pods) encodes
  every status value as a string, ignores frames it cannot decode and commands it has no executor
  for (it only logs them), and checks no password.

Frames are parsed by ``parse_frame`` with bounded work (a size cap, then ``json.loads`` and a
small parser for robobosim's dict reprs; no ``ast.literal_eval``), in the websocket server's
thread (robobo_api.ws_server), so the nodes' loops only see parsed commands.

The simulator answers a refused or unknown command with an extra status ``ERROR`` (value:
``command``, ``message``); robobopy and robobosim ignore status names they do not know.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from .status_rates import LEVELS

ROBOT_PORT_BASE = 40404   # robobopy/remotelib.py: 40404 + 10 * robot_id
ROBOT_PORT_STEP = 10
SIM_PORT = 50505          # robobosim/remotelib.py
SPEED_LIMIT = 100         # robobopy docs: speed factor -100..100; beyond it the API clamps
INT16 = (-32768, 32767)   # the ROS fields (robobo_msgs MovePanTilt) that carry positions
MAX_TIME_S = 2_147_483.0  # robobo_msgs MoveWheels time is Int32 milliseconds
# the largest frame parsed (bytes): robobopy's and robobosim's commands are a few hundred bytes
# (Message.encode: a name, a few string parameters, an id); larger frames are refused unparsed
MAX_COMMAND = 1 << 16
MAX_DICT_REPR = 1024      # a robobosim position/rotation repr ({'x': .., 'y': .., 'z': ..})
LOCATION_SETS = ('SIM-LOCATION-SET', 'SIM-OBJECT-LOCATION-SET')
BLOB_COLORS = ('red', 'green', 'blue', 'custom')
# robobo_msgs/IRs fields -> the IRS status keys (robobopy/utils/IR.py)
IRS_KEYS = {'frontc': 'Front-C', 'frontr': 'Front-R', 'frontrr': 'Front-RR', 'frontl': 'Front-L',
            'frontll': 'Front-LL', 'backc': 'Back-C', 'backr': 'Back-R', 'backl': 'Back-L'}
# commands robobopy can send that the simulator does not model: accepted, answered with ERROR
NOT_SIMULATED = {'PLAY-NOTE', 'START-STREAM', 'STOP-STREAM', 'START-CAMERA', 'STOP-CAMERA', 'SET-CAMERA',
                 'SET-CAMERA-FPS', 'SET-STREAM-FPS', 'SYNC', 'START-COLOR-DETECTION',
                 'STOP-COLOR-DETECTION', 'STOP-COLOR-MEASUREMENT', 'START-FACE-DETECTION',
                 'STOP-FACE-DETECTION', 'START-OBJECT-RECOGNITION', 'STOP-OBJECT-RECOGNITION',
                 'START-QR-TRACKING', 'STOP-QR-TRACKING', 'START-TAG', 'STOP-TAG',
                 'CHANGE-SIZE-TAG', 'START-LANE', 'STOP-LANE', 'START-LINE', 'STOP-LINE',
                 'START-LINE-STATS', 'STOP-LINE-STATS', 'INVERT-COLORS-LANE-ON',
                 'INVERT-COLORS-LANE-OFF', 'START-AUDIO-STREAM', 'STOP-AUDIO-STREAM',
                 'SYNC-AUDIO', 'START-SPEECH-DETECTION', 'STOP-SPEECH-DETECTION',
                 'CONFIGURE-LOSTBLOB', 'SIM-LOAD-ITEM', 'SIM-UNLOAD-ITEM'}
# what a blocking client waits for after each of these (robobopy remotelib/processors)
UNLOCKS = {'MOVE-BLOCKING': 'UNLOCK-MOVE', 'MOVEBY-DEGREES': 'UNLOCK-MOVE',
           'MOVEPAN-BLOCKING': 'UNLOCK-PAN', 'MOVETILT-BLOCKING': 'UNLOCK-TILT',
           'TALK': 'UNLOCK-TALK'}
# effects served through the robot's ROS services (robobo_api.effects): command -> (service,
# the command's parameters in the request's field order; robobopy processors Rob/Smartphone/Sound)
EFFECTS = {'SET-LEDCOLOR': ('setLed', ('led', 'color')), 'SET-EMOTION': ('setEmotion', ('emotion',)),
           'PLAY-SOUND': ('playSound', ('sound',)), 'TALK': ('talk', ('text',))}
# every command name the servers know (served or not): the kinds bad input is counted by
KNOWN_COMMANDS = frozenset({*EFFECTS, 'MOVEBY-DEGREES', 'MOVE', 'MOVE-BLOCKING', 'MOVEPAN', 'MOVEPAN-BLOCKING', 'MOVETILT',
                            'MOVETILT-BLOCKING', 'RESET-WHEELS', 'CONFIGURE-BLOBTRACKING',
                            'SET-SENSOR-FREQUENCY', 'RESET-SIM', *LOCATION_SETS,
                            *NOT_SIMULATED, *UNLOCKS})


class ProtocolError(ValueError):
    """A frame or command the server refuses; the message says why, ``command`` names the command
    when the frame got as far as naming one ('?' otherwise)."""

    def __init__(self, message: str, command: str = '?'):
        super().__init__(message)
        self.command = command


@dataclass(frozen=True)
class Password:
    value: str


@dataclass(frozen=True)
class Command:
    name: str
    params: dict = field(default_factory=dict)
    id: str = ''


@dataclass(frozen=True)
class Wheels:
    lspeed: int
    rspeed: int
    time_ms: int
    blockid: str | None  # set for MOVE-BLOCKING


@dataclass(frozen=True)
class Axis:
    axis: str            # 'pan' or 'tilt'
    pos: int             # degrees, the app's convention (pan 180 = forward)
    speed: int
    blockid: str | None


@dataclass(frozen=True)
class Location:
    """SIM-LOCATION-SET / SIM-OBJECT-LOCATION-SET: target (None: keep) in RoboboSim axes."""
    target: str | int
    position: dict | None
    rotation: dict | None


def robot_port(robot_id: int) -> int:
    return ROBOT_PORT_BASE + ROBOT_PORT_STEP * int(robot_id)


def parse_frame(raw: str | bytes) -> Password | Command:
    """One websocket frame: the password line or a JSON command as robobopy's and robobosim's
    Message.encode write it (robobosim's location dict reprs parsed too); ProtocolError otherwise.
    Bounded: a frame over MAX_COMMAND bytes is refused before any parsing."""
    if isinstance(raw, str):
        raw = raw.encode('utf-8', 'surrogatepass')
    if len(raw) > MAX_COMMAND:
        raise ProtocolError(f'frame of {len(raw)} bytes, over the {MAX_COMMAND}-byte limit '
                            '(RRAP commands are a few hundred bytes); not parsed')
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError:
        raise ProtocolError('frame is not UTF-8 text') from None
    if text.startswith('PASSWORD:'):
        return Password(text[len('PASSWORD:'):].strip())
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(f'not JSON: {_short(text)}') from None
    if not isinstance(data, dict) or not isinstance(data.get('name'), str):
        raise ProtocolError(f'expected {{"name", "parameters", "id"}}, got {_short(text)}')
    name, params = data['name'], data.get('parameters', {})
    if not isinstance(params, dict):
        raise ProtocolError(f"{_short(name)}: 'parameters' must be an object",
                            name if name in KNOWN_COMMANDS else '?')
    if name in LOCATION_SETS:
        params = {k: dict_repr(v, name, k) if k in ('position', 'rotation') and
                  isinstance(v, str) else v for k, v in params.items()}
    return Command(name, params, str(data.get('id', '')))


def known(name: str) -> str:
    """``name`` when it is a command this codec knows, else one word for the rest: a bounded set
    of kinds to count bad input by (the servers' ``(peer, kind)`` keys of
    zoo_runtime.rate_limited_log)."""
    return name if name in KNOWN_COMMANDS else 'unparsed or unknown'


def refused_line(key: tuple[str, str], why: str) -> str:
    """The servers' first log line of a kind of bad input from a peer (``key``: peer, kind)."""
    return f'{key[0]}: {why}'


def refused_count_line(c) -> str:
    """The count line that follows (``c``: a zoo_runtime.rate_limited_log.Count)."""
    peer, kind = c.key
    return f'{c.n} more such frames from {peer} in {c.seconds:.1f} s ({kind}), the last: {c.last}'


# a "'key': number" entry of a Python dict repr, then ',' or '}'; the number is what repr() of an
# int or a float writes (float() reads it), at most 64 characters
_DICT_ENTRY = re.compile(r"""\s*(?:'([^'\\]{1,32})'|"([^"\\]{1,32})")\s*:\s*"""
                         r"""([-+.\w]{1,64})\s*([,}])""")


def dict_repr(text: str, command: str, key: str) -> dict:
    """robobosim's ``str(dict)`` of numbers (``{}``, ``{'x': 1.0, 'y': 2, 'z': -3e-05}``) as a dict
    of floats, by a linear scan of at most MAX_DICT_REPR characters (no ast.literal_eval)."""
    def bad() -> ProtocolError:
        return ProtocolError(f'{command}: {key} must be a dict of x, y, z as robobosim writes it '
                             f"(e.g. {{'x': 1.0, 'y': 2.0, 'z': 3.0}}), got {_short(text)}",
                             command)
    s = text.strip()
    if len(s) > MAX_DICT_REPR or not s.startswith('{'):
        raise bad()
    if s[1:].strip() == '}':
        return {}
    out, pos = {}, 1
    while True:
        m = _DICT_ENTRY.match(s, pos)
        if m is None:
            raise bad()
        try:
            out[m.group(1) if m.group(1) is not None else m.group(2)] = float(m.group(3))
        except ValueError:
            raise bad() from None
        pos = m.end()
        if m.group(4) == '}':
            break
    if pos != len(s):
        raise bad()
    return out


def number(cmd: Command, key: str) -> float:
    """A finite numeric parameter (robobopy sends numbers as strings)."""
    if key not in cmd.params:
        raise ProtocolError(f'{cmd.name}: missing parameter {key!r}')
    raw = cmd.params[key]
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ProtocolError(f'{cmd.name}: {key} must be a number, got {_short(raw)}') from None
    if not math.isfinite(value):
        raise ProtocolError(f'{cmd.name}: {key} must be finite, got {_short(repr(raw))}')
    return value


def integer(cmd: Command, key: str, lo: int, hi: int) -> int:
    value = number(cmd, key)
    if value != int(value) or not lo <= value <= hi:
        raise ProtocolError(f'{cmd.name}: {key} must be an integer in {lo}..{hi}, got '
                            f'{_short(repr(cmd.params[key]))}')
    return int(value)


def text(cmd: Command, key: str) -> str:
    if key not in cmd.params:
        raise ProtocolError(f'{cmd.name}: missing parameter {key!r}')
    return str(cmd.params[key])


def flag(cmd: Command, key: str) -> bool:
    raw = str(cmd.params.get(key, '')).strip().lower()
    if raw not in ('true', 'false', '1', '0'):
        raise ProtocolError(f'{cmd.name}: {key} must be True or False, got '
                            f'{_short(cmd.params.get(key))}')
    return raw in ('true', '1')


def blockid(cmd: Command) -> str | None:
    return str(cmd.params.get('blockid', cmd.id)) if cmd.name in UNLOCKS else None


def wheels(cmd: Command) -> Wheels:
    """MOVE / MOVE-BLOCKING. Speeds beyond +-100 are clamped here (the ROS fields are Int8; the
    same rule as robobo_api.commands.wheels); the time check (> 0) stays with the API."""
    clamp = lambda v: int(round(max(-SPEED_LIMIT, min(SPEED_LIMIT, v))))  # noqa: E731
    time_s = number(cmd, 'time')
    if abs(time_s) > MAX_TIME_S:
        raise ProtocolError(f'{cmd.name}: time must be at most {MAX_TIME_S:g} s, got {time_s}')
    return Wheels(clamp(number(cmd, 'lspeed')), clamp(number(cmd, 'rspeed')),
                  int(round(time_s * 1000)), blockid(cmd))


def by_degrees(cmd: Command) -> tuple[str, int, int]:
    """MOVEBY-DEGREES (robobopy RobProcessor.moveWheelsByDegree): (wheel, degrees, speed); the
    speed is clamped to +-100 (the ROS field is Int8), the robot checks the rest."""
    degrees = integer(cmd, 'degrees', -2**31, 2**31 - 1)
    return text(cmd, 'wheel'), degrees, int(max(-100.0, min(100.0, number(cmd, 'speed'))))


def axis(cmd: Command) -> Axis:
    """MOVEPAN(-BLOCKING) / MOVETILT(-BLOCKING): pos and speed must fit the ROS fields; the range
    rules (pan 11..344, tilt 5..110, speed clamps) are the API's (robobo_api.commands.axis)."""
    name = 'pan' if cmd.name.startswith('MOVEPAN') else 'tilt'
    pos = integer(cmd, 'pos', *INT16)
    speed = int(round(max(-SPEED_LIMIT, min(SPEED_LIMIT, number(cmd, 'speed')))))
    return Axis(name, pos, speed, blockid(cmd))


def blob_colors(cmd: Command) -> dict[str, bool]:
    """CONFIGURE-BLOBTRACKING: which colours to track."""
    return {c: flag(cmd, c) for c in BLOB_COLORS}


def status_level(cmd: Command) -> str:
    """SET-SENSOR-FREQUENCY: the level, as the Android app's executor accepts it (status_rates);
    robobopy's StatusFrequency.High sends HIGH, which that app logs and ignores."""
    value = str(cmd.params.get('frequency', ''))
    if value not in LEVELS:
        hint = (' (robobopy\'s StatusFrequency.High: the app knows it as FAST and ignores HIGH,'
                ' so the frequency stays)' if value == 'HIGH' else '')
        raise ProtocolError(f"{cmd.name}: frequency must be one of {', '.join(LEVELS)}, got "
                            f"{_short(cmd.params.get('frequency'))}{hint}")
    return value


def location(cmd: Command) -> Location:
    """SIM-LOCATION-SET (id) or SIM-OBJECT-LOCATION-SET (object-id); robobosim writes position
    and rotation as Python dict reprs (``str(dict)`` in its Message.encode)."""
    key = 'id' if cmd.name == 'SIM-LOCATION-SET' else 'object-id'
    if key not in cmd.params:
        raise ProtocolError(f'{cmd.name}: missing parameter {key!r}')
    target = integer(cmd, 'id', 0, 1000) if key == 'id' else str(cmd.params[key])
    return Location(target, _xyz(cmd, 'position'), _xyz(cmd, 'rotation'))


def _xyz(cmd: Command, key: str) -> dict | None:
    raw = cmd.params.get(key, {})
    if isinstance(raw, str):  # parse_frame has parsed robobosim's; a Command built otherwise
        raw = dict_repr(raw, cmd.name, key) if raw.strip() else {}
    if not isinstance(raw, dict):
        raise ProtocolError(f'{cmd.name}: {key} must be a dict of x, y, z, got {_short(raw)}')
    if not raw:
        return None
    out = {}
    for axis_name in ('x', 'y', 'z'):
        try:
            out[axis_name] = float(raw[axis_name])
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(f'{cmd.name}: {key} needs numbers x, y and z, got '
                                f'{_short(raw)}') from None
        if not math.isfinite(out[axis_name]):
            raise ProtocolError(f'{cmd.name}: {key}.{axis_name} must be finite')
    return out


# -- statuses --------------------------------------------------------------------------------
def status(name: str, **value) -> str:
    """A status frame as the app writes it: every value a string."""
    return json.dumps({'name': name, 'value': {k: _text(v) for k, v in value.items()}})


def error(command: str, message: str) -> str:
    return status('ERROR', command=command, message=message)


def irs_status(values: dict[str, float]) -> str:
    return status('IRS', **{k: int(round(v)) for k, v in values.items()})


def location_status(robot_id: int, position: dict, rotation: dict) -> str:
    return status('SIM-LOCATION', id=robot_id, **_pose_fields(position, rotation))


def object_location_status(object_id: str, position: dict, rotation: dict) -> str:
    return status('SIM-OBJECT-LOCATION', **{'object-id': object_id},
                  **_pose_fields(position, rotation))


def _pose_fields(position: dict, rotation: dict) -> dict:
    return {'tx': position['x'], 'ty': position['y'], 'tz': position['z'],
            'rx': rotation['x'], 'ry': rotation['y'], 'rz': rotation['z']}


def _text(v) -> str:
    if isinstance(v, float):
        return f'{v:.6g}' if abs(v) < 1e6 else str(v)
    return str(v)


def _short(v, n: int = 80) -> str:
    s = repr(v) if not isinstance(v, str) else v
    return s if len(s) <= n else s[:n] + '...'
