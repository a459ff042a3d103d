"""Motion primitives as joint_pid_control keyframes (its keyframe module): the forward stride from
the shipped CSV, turns solved for their angle; sampled on the caller's clock."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from joint_pid_control import keyframes

from . import strides
from .navigator import FORWARD, Command

PACKAGE = 'grid_navigation'


def stride_file(name: str) -> Path:
    """A shipped stride CSV (installed share directory, else the source tree)."""
    from zoo_runtime.resources import package_share  # the locator; imports zoo_runtime
    share = package_share(PACKAGE)
    dirs = ([share / 'config' / 'strides'] if share else []) + [
        Path(__file__).resolve().parents[1] / 'config' / 'strides']
    for d in dirs:
        if (d / name).is_file():
            return d / name
    raise FileNotFoundError(f'stride file {name!r} not found in {", ".join(map(str, dirs))}')


@lru_cache(maxsize=1)
def forward() -> keyframes.Keyframes:
    return keyframes.load(str(stride_file('forward_step.csv')))


def turn(angle: float, params: strides.StrideParams = strides.StrideParams()
         ) -> keyframes.Keyframes:
    """Turn keyframes for ``angle`` (rad; the IK of strides.turn_poses, spec §3.3)."""
    t, cols = strides.turn_frames(angle, params)
    return keyframes.parse_csv(strides.to_csv(t, cols), f'turn({angle:.4f})')


def primitive(cmd: Command) -> keyframes.Keyframes:
    return forward() if cmd.kind == FORWARD else turn(cmd.angle)
