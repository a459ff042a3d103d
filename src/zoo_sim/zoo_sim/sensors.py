"""Pluggable robot sensors: a Gazebo ``<sensor type="...">`` in a description's ``<gazebo
reference="link">`` block becomes a MuJoCo sensor and a ROS topic when a class is registered for
its type. The IMU and foot contacts are built in (``imu`` and ``contacts`` topics); range and
camera sensors are added by the robots that need them, e.g.::

    @register_sensor('gpu_lidar')
    class IrRange(Sensor):
        def add_to_spec(self, spec, body): ...      # sites + mjSENS_RANGEFINDER sensors
        msg_type = Range                             # sensor_msgs/Range
        def read(self, model, data): ...            # numpy values from data.sensordata
        def message(self, values, stamp): ...       # a Range

and importing that module before the simulator node builds its scene.
"""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from typing import Any, Callable

import mujoco

SENSOR_KINDS: dict[str, type['Sensor']] = {}


def register_sensor(gazebo_type: str) -> Callable[[type['Sensor']], type['Sensor']]:
    def decorate(cls: type['Sensor']) -> type['Sensor']:
        SENSOR_KINDS[gazebo_type] = cls
        return cls
    return decorate


@dataclasses.dataclass
class SensorSpec:
    robot: str
    link: str
    name: str
    type: str
    element: ET.Element  # the <sensor> element of the Gazebo block (update_rate, ray, camera ...)

    @property
    def rate(self) -> float:
        """Hz, from <update_rate> (Gazebo's default 0 means every step; we use 100 Hz)."""
        text = self.element.findtext('update_rate')
        return float(text) if text and float(text) > 0 else 100.0


class Sensor:
    """One sensor instance: added to the MuJoCo spec while the scene is built, read at its rate
    and published as ``msg_type`` on :attr:`topic`. ``prefix`` is the robot's name prefix in the
    model (``<robot>/``)."""

    msg_type: type = type(None)  # the ROS message class :meth:`message` returns
    # True: :meth:`read` takes a third argument, the robot's seeded noise generator (noise.py)
    wants_rng = False
    publishes = True  # False: no topic of its own (it changes what a built-in topic carries)

    def __init__(self, spec: SensorSpec, prefix: str):
        self.spec = spec
        self.prefix = prefix

    @property
    def topic(self) -> str:
        return f'/{self.spec.robot}/{self.spec.name}'

    @property
    def frame_id(self) -> str:
        return f'{self.spec.robot}/{self.spec.link}'

    def add_to_spec(self, spec: mujoco.MjSpec, body: mujoco.MjsBody) -> None:
        """Add sites and MuJoCo sensors under ``body`` (the link); names should start with
        ``self.prefix``."""
        raise NotImplementedError

    def read(self, model: mujoco.MjModel, data: mujoco.MjData) -> Any:
        raise NotImplementedError

    def message(self, values: Any, stamp) -> Any:
        """The ROS message for ``values`` (``stamp``: builtin_interfaces/Time)."""
        raise NotImplementedError

    def sensordata(self, model: mujoco.MjModel, data: mujoco.MjData, name: str):
        """The slice of ``data.sensordata`` of the MuJoCo sensor ``name``."""
        s = model.sensor(name)
        return data.sensordata[s.adr[0]:s.adr[0] + s.dim[0]]
