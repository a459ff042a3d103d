"""Load a URDF into pinocchio."""
from __future__ import annotations

import numpy as np

from .errors import DescriptionError
from .physics import EARTH_GRAVITY


def load_pinocchio(urdf_text: str, floating: bool = True):
    """(model, data) of the URDF, with a free-flyer root joint when ``floating``."""
    import pinocchio as pin

    try:
        if floating:
            model = pin.buildModelFromXML(urdf_text, pin.JointModelFreeFlyer())
        else:
            model = pin.buildModelFromXML(urdf_text)
    except (RuntimeError, ValueError) as exc:
        raise DescriptionError(f'URDF: pinocchio cannot load it: {" ".join(str(exc).split())}') from exc
    # pinocchio's default is 9.81; the workspace's one Earth g is 9.80665 (physics.py)
    model.gravity.linear = np.array(EARTH_GRAVITY)
    return model, model.createData()


def pinocchio_mass(model) -> float:
    return float(sum(inertia.mass for inertia in model.inertias))


def pinocchio_at(urdf_text: str, joints: dict[str, float], base_xyz=(0.0, 0.0, 0.0)):
    """(model, data, q) of the floating-base robot at ``base_xyz`` with the given joint angles,
    forward kinematics and frame placements done."""
    import pinocchio as pin

    model, data = load_pinocchio(urdf_text)
    q = pin.neutral(model)
    q[:3] = base_xyz
    for name, value in joints.items():
        q[model.joints[model.getJointId(name)].idx_q] = value
    pin.forwardKinematics(model, data, q)
    pin.updateFramePlacements(model, data)
    return model, data, q


def frame_xyz(model, data, name: str):
    """World position of frame ``name`` after :func:`pinocchio_at`."""
    return data.oMf[model.getFrameId(name)].translation.copy()
