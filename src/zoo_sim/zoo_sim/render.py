"""Pictures of a MuJoCo simulation: an offscreen PNG snapshot (EGL, else OSMesa) for reports, and
MuJoCo's passive viewer where a display exists (``robozoo run --viewer``).

The snapshot opens its own GL context with ``mujoco.egl`` / ``mujoco.osmesa`` rather than
``mujoco.Renderer``, whose GL platform is fixed by ``MUJOCO_GL`` when mujoco is first imported.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import mujoco
import numpy as np

from . import SimConfigError

VIEWER_SYNC_PERIOD = 1 / 60  # s of wall time between viewer refreshes


def _gl_context(width: int, height: int):
    """A current offscreen GL context (MUJOCO_GL's choice if it names one, else EGL then
    OSMesa); raises SimConfigError saying what failed."""
    wanted = os.environ.get('MUJOCO_GL', '').lower()
    order = [wanted] if wanted in ('egl', 'osmesa') else ['egl', 'osmesa']
    errors = []
    for name in order:
        try:
            module = __import__(f'mujoco.{name}', fromlist=['GLContext'])
            ctx = module.GLContext(width, height)
            ctx.make_current()
            return ctx
        except Exception as exc:  # missing libraries raise ImportError, OSError, RuntimeError...
            errors.append(f'{name}: {" ".join(str(exc).split()) or type(exc).__name__}')
    raise SimConfigError('no offscreen OpenGL for a snapshot (' + '; '.join(errors) + '); '
                         'install libegl1 or libosmesa6')


def _camera(physics, camera: str | None) -> mujoco.MjvCamera:
    m = physics.model
    cam = mujoco.MjvCamera()
    if camera is not None:
        if mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, camera) < 0:
            raise SimConfigError(f"snapshot: no camera '{camera}' in the model")
        cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
        cam.fixedcamid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, camera)
        return cam
    cam.type = mujoco.mjtCamera.mjCAMERA_FREE
    if physics.robots:  # look at the robots from a three-quarter view
        bases = np.array([physics.base_pose(name)[0] for name in physics.robots])
        spread = float(np.ptp(bases[:, :2], axis=0).max()) if len(bases) > 1 else 0.0
        cam.lookat[:] = bases.mean(axis=0)
        cam.distance = 1.5 + 1.2 * spread
    else:  # frame the world's objects (planes are infinite)
        solid = m.geom_type != mujoco.mjtGeom.mjGEOM_PLANE
        pts = physics.data.geom_xpos[solid] if solid.any() else np.zeros((1, 3))
        cam.lookat[:] = (pts.min(axis=0) + pts.max(axis=0)) / 2
        cam.distance = 1.0 + 1.5 * float(np.ptp(pts, axis=0).max())
    cam.azimuth, cam.elevation = 135.0, -25.0
    return cam


def render(physics, camera: str | None = None, width: int = 640, height: int = 480,
           segmentation: bool = False) -> np.ndarray:
    """The current state as an RGB image (height, width, 3), or with ``segmentation`` the id of
    the geom seen at each pixel (-1: background)."""
    m, d = physics.model, physics.data
    width = min(width, m.vis.global_.offwidth)
    height = min(height, m.vis.global_.offheight)
    ctx = _gl_context(width, height)
    try:
        con = mujoco.MjrContext(m, mujoco.mjtFontScale.mjFONTSCALE_150)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, con)
        scene = mujoco.MjvScene(m, maxgeom=10000)
        mujoco.mjv_updateScene(m, d, mujoco.MjvOption(), None, _camera(physics, camera),
                               mujoco.mjtCatBit.mjCAT_ALL, scene)
        if segmentation:
            scene.flags[mujoco.mjtRndFlag.mjRND_SEGMENT] = True
            scene.flags[mujoco.mjtRndFlag.mjRND_IDCOLOR] = True
        viewport = mujoco.MjrRect(0, 0, width, height)
        mujoco.mjr_render(viewport, scene, con)
        rgb = np.empty((height, width, 3), dtype=np.uint8)
        mujoco.mjr_readPixels(rgb, None, viewport, con)
        con.free()
    finally:
        ctx.free()
    rgb = np.flipud(rgb)
    if not segmentation:
        return rgb
    seg = rgb[..., 0].astype(np.int64) + (rgb[..., 1].astype(np.int64) << 8) + \
        (rgb[..., 2].astype(np.int64) << 16) - 1  # IDCOLOR paints segid + 1
    ids = np.full_like(seg, -1)
    geoms = [(i, g) for i, g in enumerate(scene.geoms[:scene.ngeom])
             if g.objtype == mujoco.mjtObj.mjOBJ_GEOM]
    for segid, g in geoms:
        ids[seg == g.segid] = g.objid
    return ids


def snapshot_png(physics, path: str | Path, camera: str | None = None, width: int = 640,
                 height: int = 480) -> Path:
    """Render the current state of a :class:`~zoo_sim.mujoco_backend.MujocoPhysics` to a PNG."""
    from PIL import Image
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(render(physics, camera, width, height)).save(path)
    return path


class _ViewerSync:
    """Refreshes a passive viewer after physics steps, at most every VIEWER_SYNC_PERIOD."""

    def __init__(self, handle):
        self.handle = handle
        self._last = 0.0

    def __call__(self) -> None:
        now = time.monotonic()
        if now - self._last >= VIEWER_SYNC_PERIOD and self.handle.is_running():
            self._last = now
            self.handle.sync()


def open_viewer(physics):
    """Open MuJoCo's passive viewer on the simulation; it follows the physics until closed.
    Returns the viewer handle (``close()`` it at the end)."""
    if not os.environ.get('DISPLAY') and not os.environ.get('WAYLAND_DISPLAY'):
        raise SimConfigError('--viewer needs a display (DISPLAY is not set); use the PNG snapshot '
                             'or Foxglove for headless runs')
    import mujoco.viewer
    handle = mujoco.viewer.launch_passive(physics.model, physics.data)
    physics.observers.append(_ViewerSync(handle))
    return handle
