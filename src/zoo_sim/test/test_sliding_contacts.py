"""Sliding contacts behave as Coulomb says (zoo_sim.sliding_contacts): a sliding body stays on
the ground, does not rock, and friction stops it where Coulomb's law does. Before the module,
MuJoCo's soft cone pushed sliding contacts off their surface (the box below was without contact
42 % of the steps and spun at up to 3 rad/s; the Robobo's slider was in the air 80 % of the
steps at speed)."""
from __future__ import annotations

import gc

import mujoco
import numpy as np
import pytest

from zoo_sim import SimConfigError, sliding_contacts
from zoo_sim.contract_report import (glide_box, push_box, robobo_slider_contact,
                                     robobo_wheel_contact)
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec


@pytest.mark.parametrize('angle', [0, 30])
def test_a_box_pushed_above_its_sliding_force_stays_flat_on_the_ground(angle):
    record: dict = {}
    push_box(1.2, angle, record)
    assert record['no_contact'] == 0.0
    assert record['max_spin'] < 0.05  # rad/s; a box sliding flat does not turn


def test_a_launched_box_stops_where_coulomb_says():
    distance, coulomb = glide_box(1.0, 30.0)
    assert distance == pytest.approx(coulomb, rel=0.02)


@pytest.mark.parametrize('omega', [1.0, 9.3])
def test_the_robobo_slider_stays_on_the_floor_while_the_robot_drives(omega):
    assert robobo_slider_contact(omega) >= 0.99


def test_wheels_spun_up_by_a_velocity_step_stay_on_the_floor():
    """The step that spins the Robobo's wheels from rest to 9.3 rad/s slips them from within
    that step; the prediction (warm start with the motors' hint) keeps them down: both wheels
    touched in 14 % of the first 50 ms before (in the air for ~35 ms), 100 % now."""
    assert robobo_wheel_contact(9.3) >= 0.95


def test_only_designated_contacts_are_touched():
    """The Robobo's description designates its base_link (the slider) and wheels
    (config/contacts.yaml): exactly those links' collision geoms; a robot without the file gets
    nothing (its steps are MuJoCo's)."""
    ph = MujocoPhysics.create('empty', [RobotSpec('robobo', package='robobo_description')])
    m = ph.model
    s = sliding_contacts.of(m)
    links = {m.body(f'robobo/{ln}').id for ln in ('base_link', 'left_wheel', 'right_wheel')}
    expected = {g for g in range(m.ngeom) if m.geom_bodyid[g] in links and m.geom_contype[g]}
    assert s.designated_set == expected and len(expected) == 6  # body, slider, 2 x 2 tyre
    nao = MujocoPhysics.create('empty', [RobotSpec('nao', package='nao_description')])
    assert sliding_contacts.of(nao.model) is None


def test_compiling_models_still_works_with_the_callback_installed():
    """The callback is a C pointer: MuJoCo calls it while compiling, where a Python callable
    would fail every compile in the process."""
    robobo = MujocoPhysics.create('empty', [RobotSpec('robobo', package='robobo_description')])
    assert mujoco.get_mjcb_control() is not None
    m = mujoco.MjModel.from_xml_string('<mujoco><worldbody><body><freejoint/>'
                                       '<geom size="0.1"/></body></worldbody></mujoco>')
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 10)
    assert np.isfinite(d.qpos).all()
    key = robobo.model._address
    del robobo
    gc.collect()
    assert key not in sliding_contacts._REGISTRY
    if not sliding_contacts._REGISTRY:  # the callback goes with the last designated model
        assert mujoco.get_mjcb_control() is None


def test_an_unknown_sliding_link_is_named():
    with pytest.raises(SimConfigError, match="sliding link 'slider'"):
        MujocoPhysics.create('empty', [RobotSpec('robobo', package='robobo_description',
                                                 sliding_links=['slider'])])
