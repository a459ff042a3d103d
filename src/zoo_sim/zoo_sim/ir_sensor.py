"""IR sensor plug-in: a Gazebo ``gpu_lidar``/``ray`` grid becomes a bundle of rays cast in one
batch (``mujoco.mj_multiRay``) and reported as an IR intensity in ``sensor_msgs/Range.range``
(the Robobo's ``/<robot>/<sensor>`` topics, specs/robobo.md 5.2 and R17-R19).

The ray grid comes from the description (``ray_grid``), the intensity law and the rule for rays
that hit nothing from ``ir_law``. Options, from an optional ``<plugin>`` child of the
``<sensor>`` element (``<preset>thesis|mint</preset>``, ``<miss_rule>inf|max_range</miss_rule>``),
else :data:`DEFAULTS`. Rays see collision geoms only (MuJoCo group 0), the robot's own included:
the sensor frames lie outside the robot's shapes (robobo_description tests it).

Noise: the description's ``<lidar><noise>`` (Gazebo's per-ray range noise, noise.py ``RayNoise``)
on every ray's distance before the law, from the robot's seeded generator, which the backend
hands to sensors that set ``wants_rng``. The contact value gets none: a window in or behind an
obstacle reads the same saturated value whatever the draw.

Contact: the window (the sensor frame) can end up inside an obstacle or, past a thin wall, behind
it (the Robobo's front_c sits 1.84 cm ahead of its collision box, the arena's walls are 1 cm).
Rays cast from there would see nothing, or the wall's far face. So a probe ray goes from the
robot's root link origin (inside its body) to the window, ignoring the robot's own geoms: if
something else lies on the way, the window is in or past it and the sensor reads the law's
contact value (ir_law.CONTACT_M).
"""
from __future__ import annotations

import mujoco
import numpy as np

from .ir_law import MISS_RULES, intensity, law
from .noise import ray_noise
from .ray_grid import scan_grid
from .sensors import Sensor, SensorSpec, register_sensor

DEFAULTS = {'preset': 'thesis', 'miss_rule': 'inf'}  # spec 10 #6 and #12
COLLISION_GROUP = np.array([1, 0, 0, 0, 0, 0], dtype=np.uint8)  # visuals are group 1


@register_sensor('gpu_lidar')
@register_sensor('ray')
class IrBundle(Sensor):
    wants_rng = True  # the range noise (module docstring, "Noise")

    @property
    def msg_type(self) -> type:  # imported late: building a scene needs no message classes
        from zoo_runtime.interfaces.sensor_msgs.msg import Range
        return Range

    def __init__(self, spec: SensorSpec, prefix: str):
        super().__init__(spec, prefix)
        where = f'{spec.robot}: gazebo[{spec.link}]/sensor[{spec.name}]'
        self.grid = scan_grid(spec.element, where)
        block = spec.element.find('lidar')
        self.noise = ray_noise(block if block is not None else spec.element.find('ray'), where)
        plugin = spec.element.find('plugin')
        opts = dict(DEFAULTS)
        for key in opts:
            text = plugin.findtext(key) if plugin is not None else None
            if text:
                opts[key] = text.strip()
        law(opts['preset'])  # a clear error now rather than at the first reading
        if opts['miss_rule'] not in MISS_RULES:
            raise ValueError(f"{where}: miss_rule '{opts['miss_rule']}': expected one of "
                             f"{', '.join(MISS_RULES)}")
        self.preset, self.miss_rule = opts['preset'], opts['miss_rule']
        self.local_dirs = self.grid.directions()
        n = len(self.local_dirs)
        self._geomid = np.zeros(n, dtype=np.int32)
        self._dist = np.zeros(n)
        self._site = -1
        self._probe_geom = np.zeros(1, dtype=np.int32)

    @property
    def site_name(self) -> str:
        return f'{self.prefix}{self.spec.name}_ir'

    def add_to_spec(self, spec: mujoco.MjSpec, body: mujoco.MjsBody) -> None:
        body.add_site(name=self.site_name, size=[0.002, 0, 0], group=4)

    def distances(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        """Distance along each ray to the first collision geom (m; -1: none within range)."""
        if self._site < 0:
            self._site = model.site(self.site_name).id
        rot = data.site_xmat[self._site].reshape(3, 3)
        vec = (self.local_dirs @ rot.T).ravel()
        mujoco.mj_multiRay(model, data, data.site_xpos[self._site].copy(), vec, COLLISION_GROUP,
                           1, -1, self._geomid, self._dist, None, len(self.local_dirs),
                           self.grid.range_max)
        return self._dist.copy()

    def window_blocked(self, model: mujoco.MjModel, data: mujoco.MjData) -> bool:
        """Whether a geom not of this robot lies between the robot's root link origin and the
        sensor's window (module docstring, "Contact")."""
        root = model.body_rootid[model.site_bodyid[self._site]]
        start = data.xpos[root].copy()
        window = data.site_xpos[self._site]
        for _ in range(8):  # step past the robot's own geoms (wheels) on the way
            gap = window - start
            length = float(np.linalg.norm(gap))
            if length < 1e-9:
                return False
            unit = gap / length
            hit = mujoco.mj_ray(model, data, start, unit, COLLISION_GROUP, 1, -1,
                                self._probe_geom)
            if hit < 0 or hit > length:
                return False
            if model.body_rootid[model.geom_bodyid[self._probe_geom[0]]] != root:
                return True
            start = start + unit * (hit + 1e-6)
        return False

    def read(self, model: mujoco.MjModel, data: mujoco.MjData,
             rng: np.random.Generator | None = None) -> float:
        dist = self.distances(model, data)
        if self.noise is not None and rng is not None:
            dist = self.noise.apply(dist, self.grid.range_max, rng)
        return intensity(dist, self.grid.range_max, self.preset, self.miss_rule,
                         contact=self.window_blocked(model, data))

    def message(self, values: float, stamp) -> 'Range':
        from zoo_runtime.interfaces.std_msgs.msg import Header
        Range = self.msg_type
        return Range(header=Header(stamp=stamp, frame_id=self.frame_id),
                     radiation_type=Range.INFRARED,
                     field_of_view=float(self.grid.h_max - self.grid.h_min),
                     min_range=float(self.grid.range_min), max_range=float(self.grid.range_max),
                     range=float(values))
