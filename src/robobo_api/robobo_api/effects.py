"""The Robobo's effects (no ROS): base LEDs, the phone's face (emotion), sounds and speech, checked
as the real app accepts them so a program's effects can be published and checked.

Names are robobopy 1.5.0's (utils/LED.py, Color.py, Emotions.py, Sounds.py). LED colours: the
app's table (mintforpeople/robobo-app-ios, RemoteRobModuleImplementation.swift, SET-LEDCOLOR:
channel values 0..3000, orange = 3000/1500/0, "on" = white), scaled to 0..1 for
std_msgs/ColorRGBA; "all" sets the seven base LEDs.
"""
from __future__ import annotations

LEDS = ('Front-LL', 'Front-L', 'Front-C', 'Front-R', 'Front-RR', 'Back-R', 'Back-L')
COLORS = {'off': (0.0, 0.0, 0.0), 'white': (1.0, 1.0, 1.0), 'on': (1.0, 1.0, 1.0),
          'red': (1.0, 0.0, 0.0), 'blue': (0.0, 0.0, 1.0), 'cyan': (0.0, 1.0, 1.0),
          'magenta': (1.0, 0.0, 1.0), 'yellow': (1.0, 1.0, 0.0), 'green': (0.0, 1.0, 0.0),
          'orange': (1.0, 0.5, 0.0)}
EMOTIONS = ('happy', 'laughing', 'surprised', 'sad', 'angry', 'normal', 'sleeping', 'tired',
            'afraid')
SOUNDS = ('purr', 'moan', 'angry', 'approve', 'disapprove', 'discomfort', 'doubtful', 'laugh',
          'likes', 'mumble', 'ouch', 'thinking', 'various')
OK, INVALID = 0, 1


def led(led_id: str, color: str) -> tuple[list[tuple[str, tuple[float, float, float]]], str | None]:
    """[(led, rgb)] to set, or [] and why not."""
    if color not in COLORS:
        return [], f'setLed: color {color!r} is not one of {", ".join(COLORS)}'
    if led_id == 'all':
        return [(name, COLORS[color]) for name in LEDS], None
    if led_id not in LEDS:
        return [], f'setLed: id {led_id!r} is not one of {", ".join(LEDS)}, all'
    return [(led_id, COLORS[color])], None


def one_of(kind: str, value: str, allowed: tuple[str, ...]) -> str | None:
    """Why ``value`` is refused, or None."""
    return None if value in allowed else f'{kind}: {value!r} is not one of {", ".join(allowed)}'


def speech(text: str) -> str | None:
    return None if text.strip() else 'talk: text is empty'
