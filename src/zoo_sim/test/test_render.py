"""Snapshots render the robot headless; the viewer refuses clearly without a display."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from conftest import urdf_text
from zoo_sim import SimConfigError
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.render import _gl_context, open_viewer, render, snapshot_png


@pytest.fixture
def physics():
    return MujocoPhysics.create('empty', [RobotSpec('w', urdf=urdf_text('walker.urdf'),
                                                    pose=(0, 0, 0.12, 0, 0, 0))])


def test_snapshot_png_shows_the_robot(physics, tmp_path):
    try:
        _gl_context(8, 8).free()
    except SimConfigError as exc:
        pytest.skip(str(exc))
    path = snapshot_png(physics, tmp_path / 'shot.png', width=320, height=240)
    img = np.asarray(Image.open(path))
    assert img.shape == (240, 320, 3) and img.std() > 5
    assert robot_share(physics) > 0.02
    physics.set_pose('w', [50.5, 50.5, 0.2], [1, 0, 0, 0])  # the camera follows the robot
    assert robot_share(physics) > 0.02


def robot_share(physics) -> float:
    """Fraction of the picture's pixels that show one of the robot's geoms."""
    ids = render(physics, width=320, height=240, segmentation=True)
    robot = np.flatnonzero(physics.robots['w'].geom_mask)
    return float(np.isin(ids, robot).mean())


def test_snapshot_rejects_unknown_camera(physics, tmp_path):
    with pytest.raises(SimConfigError, match="no camera 'top'"):
        snapshot_png(physics, tmp_path / 'x.png', camera='top')


def test_viewer_needs_a_display(physics, monkeypatch):
    monkeypatch.delenv('DISPLAY', raising=False)
    monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
    with pytest.raises(SimConfigError, match='needs a display'):
        open_viewer(physics)
