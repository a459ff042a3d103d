"""Which implementation of the robot contract a simulator node runs: the backend registry.

``backend`` (a parameter of ``zoo_sim/simulator``, ``sim.backend`` in a scenario) names one entry:
MuJoCo and Gazebo are zoo_sim's own; hardware links register themselves from their packages
through the entry-point group ``zoo_sim.backends`` (``name = module:Class``), so zoo_sim imports
no bridge. Every entry is a class with

- ``from_config(config: BackendConfig) -> RobotBackend`` (robot_interface.RobotBackend);
- ``PARAMETERS``: ``{name: (default, description)}``, its own options, declared by the node as
  ``<backend>.<name>`` (``--set sim.dynamixel.port=/dev/ttyUSB0``) and handed over in
  ``config.options``.
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib
from importlib import metadata
from typing import Any, Mapping, Sequence

from . import SimConfigError
from .joint_motors import DEFAULT_MOTOR

GROUP = 'zoo_sim.backends'
BUILTIN = {'mujoco': 'zoo_sim.mujoco_backend:MujocoPhysics',
           'gazebo': 'zoo_sim.gazebo.gazebo_backend:GazeboPhysics'}


@dataclasses.dataclass
class BackendConfig:
    """What the simulator node hands a backend: the scenario's world and robots, and its options."""
    world: str | None                     # an SDF world name or path (None: empty, no ground)
    robots: Sequence[Any]                 # mujoco_scene.RobotSpec, one per robot
    gravity: list[float] | None = None    # None: the world's
    step: float | None = None             # physics step, s (None: the world's)
    validate: bool = True                 # check the world with libsdformat
    seed: int = 0                         # noise streams
    real_time_factor: float = 0.0         # 0: as fast as possible; a hardware link paces itself
    joint_motor: str = DEFAULT_MOTOR        # MuJoCo's joint-motor model (joint_motors.py)
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # PARAMETERS' values


def registered() -> dict[str, str]:
    """name -> 'module:Class' of every backend installed here."""
    found = dict(BUILTIN)
    for ep in metadata.entry_points(group=GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def backend_class(name: str) -> type:
    """The class registered as ``name``; a one-line SimConfigError naming the choices."""
    entries = registered()
    if name not in entries:
        close = difflib.get_close_matches(name, entries, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ''
        raise SimConfigError(f"parameter backend: expected one of {', '.join(sorted(entries))}, "
                             f"got '{name}'{hint}")
    module, _, attr = entries[name].partition(':')
    return getattr(importlib.import_module(module), attr)


def backend_parameters(cls: type) -> dict[str, tuple[Any, str]]:
    """A backend's own options: ``{name: (default, description)}``."""
    return dict(getattr(cls, 'PARAMETERS', {}))
