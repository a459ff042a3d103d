"""Camera plug-in: a Gazebo ``<sensor type="camera">`` becomes a MuJoCo camera rendered
offscreen (EGL, else OSMesa; ``render._gl_context``) and published as ``sensor_msgs/Image``
(rgb8) on ``/<robot>/<sensor>`` at the sensor's ``<update_rate>``, only while someone listens.

Gazebo cameras look along their link's +X; MuJoCo cameras along -Z with +Y up, hence the fixed
rotation below (see its comment for the image's up). ``horizontal_fov`` becomes MuJoCo's vertical ``fovy`` for the image's
aspect. Without offscreen OpenGL the camera logs one line saying why and publishes nothing (the
rest of the simulation runs on).
"""
from __future__ import annotations

import math
import sys

import mujoco
import numpy as np

from .sensors import Sensor, SensorSpec, register_sensor

# MuJoCo camera axes (right, up, backward) in the camera link frame: +Y, -Z, -X. Gazebo's
# convention would be -Y, +Z, -X, but the Robobo's spec 5.3 camera pose has the link's +Z
# pointing to the floor at tilt 70 deg (forward +X is right): with it the image came out upside
# down. We keep the pose and roll the image by 180 deg, so the image's up is the world's up.
GAZEBO_TO_MUJOCO_CAMERA = np.array([[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])


@register_sensor('camera')
class Camera(Sensor):
    @property
    def msg_type(self) -> type:  # imported late: building a scene needs no message classes
        from zoo_runtime.interfaces.sensor_msgs.msg import Image
        return Image

    def __init__(self, spec: SensorSpec, prefix: str):
        super().__init__(spec, prefix)
        el = spec.element
        self.width = int(el.findtext('camera/image/width') or 320)
        self.height = int(el.findtext('camera/image/height') or 240)
        self.hfov = float(el.findtext('camera/horizontal_fov') or 1.047)
        self.near = float(el.findtext('camera/clip/near') or 0.01)
        self.far = float(el.findtext('camera/clip/far') or 100.0)
        self.error: str | None = None  # why the camera cannot render, once known
        self._gl = None

    @property
    def camera_name(self) -> str:
        return f'{self.prefix}{self.spec.name}'

    @property
    def fovy(self) -> float:
        """Vertical field of view (rad) for the horizontal one and the image aspect."""
        return 2 * math.atan(math.tan(self.hfov / 2) * self.height / self.width)

    def intrinsics(self) -> tuple[float, float, float, float]:
        """(fx, fy, cx, cy) in pixels of the pinhole image."""
        f = self.width / (2 * math.tan(self.hfov / 2))
        return f, f, (self.width - 1) / 2, (self.height - 1) / 2

    def add_to_spec(self, spec: mujoco.MjSpec, body: mujoco.MjsBody) -> None:
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, GAZEBO_TO_MUJOCO_CAMERA.ravel())
        body.add_camera(name=self.camera_name, quat=quat, fovy=math.degrees(self.fovy))
        g = spec.visual.global_
        g.offwidth, g.offheight = max(g.offwidth, self.width), max(g.offheight, self.height)
        spec.visual.map.znear = min(spec.visual.map.znear, self.near)

    def read(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray | None:
        """The current RGB image (height, width, 3), or None when rendering is impossible."""
        if self.error is not None:
            return None
        try:
            if self._gl is None:
                self._gl = _Offscreen(model, self.width, self.height, self.camera_name)
            return self._gl.render(model, data)
        except Exception as exc:  # no GL library, no device ...: one line, then silence
            self.error = (f'camera {self.spec.robot}/{self.spec.name}: cannot render offscreen '
                          f'({" ".join(str(exc).split()) or type(exc).__name__}); it publishes '
                          'nothing')
            print(f'[zoo_sim] {self.error}', file=sys.stderr)
            return None

    def message(self, values: np.ndarray | None, stamp) -> 'Image | None':
        from zoo_runtime.interfaces.std_msgs.msg import Header
        Image = self.msg_type
        if values is None:
            return None
        return Image(header=Header(stamp=stamp, frame_id=self.frame_id), height=self.height,
                     width=self.width, encoding='rgb8', is_bigendian=0, step=3 * self.width,
                     data=values.tobytes())


class _Offscreen:
    """A GL context, MuJoCo render context and scene kept for one camera."""

    def __init__(self, model: mujoco.MjModel, width: int, height: int, camera: str):
        from .render import _gl_context
        self.ctx = _gl_context(width, height)
        self.con = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_100)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self.con)
        self.scene = mujoco.MjvScene(model, maxgeom=2000)
        self.cam = mujoco.MjvCamera()
        self.cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self.cam.fixedcamid = model.camera(camera).id
        self.opt = mujoco.MjvOption()
        # No shadow pass: with software GL (OSMesa) MuJoCo's 4096^2 shadow map took ~110 ms of
        # the 120 ms of a 480 x 640 frame (11 ms without; measured in robobo_arena), which held
        # the Robobo's 5 Hz camera to ~1x real time. (Gazebo would cast the sun's shadows; SDF
        # lights are not represented here anyway, see mujoco_scene._dress_for_rendering.)
        self.scene.flags[mujoco.mjtRndFlag.mjRND_SHADOW] = 0
        self.viewport = mujoco.MjrRect(0, 0, width, height)
        self.rgb = np.empty((height, width, 3), dtype=np.uint8)

    def render(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        self.ctx.make_current()
        mujoco.mjv_updateScene(model, data, self.opt, None, self.cam,
                               mujoco.mjtCatBit.mjCAT_ALL, self.scene)
        mujoco.mjr_render(self.viewport, self.scene, self.con)
        mujoco.mjr_readPixels(self.rgb, None, self.viewport, self.con)
        return np.flipud(self.rgb).copy()
