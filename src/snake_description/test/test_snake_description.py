"""Lola-OP snake description: the model facts of specs/snake.md (R1-R5)."""
from __future__ import annotations

import mujoco
import numpy as np
import pinocchio as pin
import pytest
import yaml

from snake_description import JOINT_LIMIT, MODULE_INERTIA, MODULE_MASS, joint_names
from zoo_description_tools import (find_description, floor_contacts,
                                   load_mujoco, load_pinocchio, parse_urdf, xacro_to_urdf)

PKG = 'snake_description'


def model_yaml() -> dict:
    return yaml.safe_load((find_description(PKG) / 'config/snake_model.yaml').read_text())



def test_topology_16_revolute_joints_17_bodies() -> None:
    model = parse_urdf(xacro_to_urdf(PKG))
    movable = model.movable_joints()
    assert sorted(movable, key=lambda n: int(n.split('_')[1])) == joint_names()
    assert all(j.type == 'revolute' for j in movable.values())
    bodies = [n for n, link in model.links.items() if not link.is_frame]
    assert sorted(bodies) == sorted(['base_link'] + [f'link_{i}' for i in range(1, 17)])
    chain = [movable[f'joint_{i}'] for i in range(1, 17)]
    assert [(j.parent, j.child) for j in chain] == [
        ('base_link' if i == 1 else f'link_{i - 1}', f'link_{i}') for i in range(1, 17)]


@pytest.mark.parametrize('first_axis, odd_axis', [('pitch', 1), ('yaw', 2)])
def test_axes_alternate_and_are_perpendicular_to_the_body(first_axis, odd_axis) -> None:
    """R2 in the straight pose: consecutive axes orthogonal, all perpendicular to the snake (x);
    joint 1 pitches (world y) by default and yaws (world z) with first_axis = yaw."""
    model, data = load_pinocchio(xacro_to_urdf(PKG, {'first_axis': first_axis}), floating=False)
    pin.forwardKinematics(model, data, pin.neutral(model))
    axes = []
    for name in joint_names():
        jid = model.getJointId(name)
        axes.append(data.oMi[jid].rotation @ np.array([0.0, 0.0, 1.0]))
    for i, axis in enumerate(axes, 1):
        assert abs(axis[0]) < 1e-9
        expected = odd_axis if i % 2 == 1 else 3 - odd_axis
        assert abs(abs(axis[expected]) - 1.0) < 1e-9, (i, axis)
    for a, b in zip(axes, axes[1:]):
        assert abs(a @ b) < 1e-9
    # Joint i sits one module pitch after joint i-1 along x.
    xs = [data.oMi[model.getJointId(n)].translation[0] for n in joint_names()]
    np.testing.assert_allclose(np.diff(xs), model_yaml()['module_pitch']['value'], atol=1e-12)


def test_joint_limits_effort_and_speed() -> None:
    for joint in parse_urdf(xacro_to_urdf(PKG)).movable_joints().values():
        assert (joint.lower, joint.upper) == pytest.approx((-JOINT_LIMIT, JOINT_LIMIT), abs=1e-12)
        assert (joint.effort, joint.velocity) == (1.5, 6.178)  # AX-12: 1.5 N m stall, 59 rpm


@pytest.mark.parametrize('kind', ['elastomer', 'plain'])
def test_module_mass_inertia_and_geometry(kind) -> None:
    """R4: mass and inertia verbatim (Eqs 3.1 / 3.2) as MuJoCo reads them back; the elastomer
    ring (75 x 35 mm) 0.0215 m and the box 0.0105 m from the module CoM."""
    text = xacro_to_urdf(PKG, {'variant': kind})
    mj = load_mujoco(text)
    model, _ = load_pinocchio(text)
    for i in range(1, 17):
        body = mj.body(f'link_{i}')
        assert body.mass[0] == pytest.approx(MODULE_MASS[kind], rel=1e-6)
        # MuJoCo stores principal moments in its own order; pinocchio keeps the link axes.
        np.testing.assert_allclose(sorted(body.inertia), sorted(MODULE_INERTIA[kind]), rtol=1e-6)
        inertia = model.inertias[model.getJointId(f'joint_{i}')]
        np.testing.assert_allclose(inertia.inertia, np.diag(MODULE_INERTIA[kind]), atol=1e-15)
    spec = mujoco.MjSpec.from_string(text)
    geoms = spec.body('link_3').geoms
    com_x = spec.body('link_3').ipos[0]
    boxes = [g for g in geoms if g.type == mujoco.mjtGeom.mjGEOM_BOX]
    np.testing.assert_allclose(2 * boxes[0].size, [0.032, 0.050, 0.040], atol=1e-12)
    rings = [g for g in geoms if g.type in (mujoco.mjtGeom.mjGEOM_CYLINDER,
                                            mujoco.mjtGeom.mjGEOM_MESH)]
    if kind == 'plain':
        assert not rings and boxes[0].pos[0] == pytest.approx(com_x)
    else:
        (ring,) = rings
        assert ring.type == mujoco.mjtGeom.mjGEOM_CYLINDER  # the thesis' primitive by default
        assert (ring.size[0], 2 * ring.size[1]) == pytest.approx((0.0375, 0.035))
        assert ring.pos[0] - com_x == pytest.approx(-0.0215)
        assert boxes[0].pos[0] - com_x == pytest.approx(0.0105)


@pytest.mark.parametrize('faces', [0, 24])
def test_ring_is_75_by_35_mm_as_a_cylinder_or_a_polygon(faces) -> None:
    """The ring's collision shape (ring_faces): the thesis' cylinder, or an N-gon prism with the
    ring's 37.5 mm circumradius and 35 mm length, a face down on pitch and yaw modules."""
    text = xacro_to_urdf(PKG, {'ring_faces': faces, 'modules': 2})
    model = load_mujoco(text)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    kinds = (int(mujoco.mjtGeom.mjGEOM_CYLINDER), int(mujoco.mjtGeom.mjGEOM_MESH))
    (g,) = [g for g in range(model.ngeom) if model.geom_bodyid[g] == model.body('link_1').id and
            int(model.geom_type[g]) in kinds]
    if faces == 0:
        assert model.geom_type[g] == mujoco.mjtGeom.mjGEOM_CYLINDER
        assert (model.geom_size[g][0], 2 * model.geom_size[g][1]) == pytest.approx((0.0375, 0.035))
        return
    m = model.geom_dataid[g]
    verts = model.mesh_vert[model.mesh_vertadr[m]:model.mesh_vertadr[m] + model.mesh_vertnum[m]]
    world = data.geom_xpos[g] + verts @ data.geom_xmat[g].reshape(3, 3).T  # mesh frame -> world
    assert len(verts) == 2 * faces
    radial = np.linalg.norm((world - data.geom_xpos[g])[:, 1:], axis=1)
    np.testing.assert_allclose(radial, 0.0375, atol=1e-9)  # coaxial with the snake (x)
    assert np.ptp(world[:, 0]) == pytest.approx(0.035, abs=1e-9)
    for link in ('link_1', 'link_2'):  # pitch and yaw module: a face (two vertices) lowest
        gg = [k for k in range(model.ngeom) if model.geom_bodyid[k] == model.body(link).id and
              int(model.geom_type[k]) == kinds[1]][0]
        w = data.geom_xpos[gg] + verts @ data.geom_xmat[gg].reshape(3, 3).T
        low = np.sort(w[:, 2])
        assert low[3] - low[0] < 1e-9 and low[4] - low[0] > 1e-4  # 4 vertices: 1 face, both ends


def _self_contacts(text: str, q: dict[str, float]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Contacts MuJoCo generates at q (robot in the air), and pairs of neighbouring links whose
    geometries overlap (mj_geomDistance < 0) whether or not a contact is generated."""
    model = load_mujoco(text)
    data = mujoco.MjData(model)
    data.qpos[2] = 1.0
    for name, value in q.items():
        data.qpos[model.joint(name).qposadr[0]] = value
    mujoco.mj_forward(model, data)
    names = lambda g: model.body(model.geom_bodyid[g]).name  # noqa: E731
    contacts = [(names(c.geom1), names(c.geom2)) for c in data.contact[:data.ncon]]
    overlaps = []
    for g1 in range(model.ngeom):
        for g2 in range(g1 + 1, model.ngeom):
            if model.geom_bodyid[g1] != model.geom_bodyid[g2] and mujoco.mj_geomDistance(
                    model, data, g1, g2, 0.01, None) < 0:
                overlaps.append((names(g1), names(g2)))
    return contacts, overlaps


def test_plain_boxes_clear_each_other_over_the_whole_joint_range() -> None:
    text = xacro_to_urdf(PKG, {'variant': 'plain', 'modules': 4})
    for sign in (1, -1):
        contacts, overlaps = _self_contacts(text, {n: sign * JOINT_LIMIT for n in joint_names(4)})
        assert contacts == [] and overlaps == []


def test_elastomer_neighbours_overlap_but_do_not_collide() -> None:
    """Spec 2.3: box i reaches into ring i+1 across the joint range and the thesis disabled
    adjacent-module collisions; the engines' parent-child filter does exactly that."""
    text = xacro_to_urdf(PKG, {'modules': 4})
    contacts, overlaps = _self_contacts(text, {n: JOINT_LIMIT for n in joint_names(4)})
    assert contacts == []
    assert ('link_1', 'link_2') in overlaps


@pytest.mark.parametrize('kind', ['elastomer', 'plain'])
def test_initial_pose_rests_on_the_ground(kind) -> None:
    pose = yaml.safe_load((find_description(PKG) / 'config/initial_pose.yaml').read_text())
    base = pose['base'] if kind == 'elastomer' else pose['variants'][kind]['base']
    contacts = floor_contacts(xacro_to_urdf(PKG, {'variant': kind}), base['xyz'], base['rpy'],
                              pose['joints'])
    distances = [d for _, d in contacts]
    assert min(distances) == pytest.approx(0.0, abs=1e-9)
    touching = {link for link, d in contacts if abs(d) < 1e-9}
    # Elastomer: all 16 rings; plain: the 8 pitch modules stand on their 0.050 m side.
    expected = {f'link_{i}' for i in range(1, 17) if kind == 'elastomer' or i % 2 == 1}
    assert touching == expected


def test_model_yaml_records_a_source_for_every_number() -> None:
    """R5: no empty or placeholder field."""
    for name, entry in model_yaml().items():
        assert set(entry) == {'value', 'unit', 'source'}, name
        assert entry['value'] not in (None, '', []) and len(entry['source']) > 10, name
        assert 'TODO' not in entry['source'] and 'TBD' not in entry['source'], name
