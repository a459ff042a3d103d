"""Load a URDF into MuJoCo with its own URDF importer (the simulator builds richer models with
MjSpec; this is the acceptance check that MuJoCo accepts the description as it is)."""
from __future__ import annotations

from .errors import DescriptionError


def load_mujoco(urdf_text: str, floating: bool = True):
    """The compiled ``mujoco.MjModel``; with ``floating`` the root link gets a free joint (MuJoCo
    would otherwise weld it to the world)."""
    import mujoco

    try:
        spec = mujoco.MjSpec.from_string(urdf_text)
        if floating and spec.worldbody.first_body() is not None:
            spec.worldbody.first_body().add_freejoint()
        return spec.compile()
    except ValueError as exc:
        raise DescriptionError(f'URDF: MuJoCo cannot load it: {" ".join(str(exc).split())}') from exc


def mujoco_mass(model) -> float:
    return float(model.body_mass.sum())


def floor_contacts(urdf_text: str, base_xyz, base_rpy, joints: dict[str, float],
                   margin: float = 0.002) -> list[tuple[str, float]]:
    """(link, signed distance) of every collision geometry within ``margin`` of a z = 0 floor, for
    the robot floating at ``base_xyz``/``base_rpy`` (roll-pitch-yaw) with ``joints`` (rad; others
    0). Negative distances are penetrations. Used to check that an initial pose rests on the
    ground. Bodies are not fused, so the link names are the URDF's."""
    import mujoco
    import numpy as np

    spec = mujoco.MjSpec.from_string(urdf_text)
    spec.compiler.fusestatic = False
    spec.worldbody.first_body().add_freejoint()
    spec.worldbody.add_geom(name='floor', type=mujoco.mjtGeom.mjGEOM_PLANE, size=[10, 10, 0.1],
                            margin=margin)
    model = spec.compile()
    data = mujoco.MjData(model)
    roll, pitch, yaw = base_rpy
    quat = np.zeros(4)
    mujoco.mju_euler2Quat(quat, [roll, pitch, yaw], 'XYZ')
    data.qpos[:7] = [*base_xyz, *quat]
    for name, q in joints.items():
        data.qpos[model.joint(name).qposadr[0]] = q
    mujoco.mj_forward(model, data)
    floor = model.geom('floor').id
    result = []
    for c in data.contact[:data.ncon]:
        if floor in (c.geom1, c.geom2):
            other = c.geom2 if c.geom1 == floor else c.geom1
            result.append((model.body(model.geom_bodyid[other]).name, float(c.dist)))
    return result
