"""ODE's contact surface layer (``minDepth``) for the links a description lists under
``surface_layer_links`` (contact_params.LAYER_D0, zoo_sim README "Contact parameters"; issue 28):
a lightly loaded foot stays in contact when small upward kicks (a PD command's step) reach it."""
from __future__ import annotations

import mujoco
import pytest

from zoo_sim import SimConfigError
from zoo_sim.contact_params import DEFAULT_SOLIMP, LAYER_D0, from_ode
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec, surface_layer_links

STEP = 0.0005


def _steps_off_the_ground(surface_layer: bool) -> int:
    """A 0.4 kg sphere (4 N, a Go1 foot between stances) on the ground with the Go1 foot's
    surface (kp 1e6 N/m, kd 1, minDepth 0.5 mm, a 12 kg robot), kicked up by 6 N for one step
    every 2 ms: the steps it spends without contact."""
    p = from_ode(0.6, 0.6, 1e6, 1.0, 5e-4, None, 12.0, STEP, surface_layer=surface_layer)
    m = mujoco.MjModel.from_xml_string(f'''<mujoco><option timestep="{STEP}"/><worldbody>
      <geom type="plane" size="1 1 0.1"/>
      <body pos="0 0 0.0199"><freejoint/><geom type="sphere" size="0.02" mass="0.4"
        priority="1" solref="{p.solref[0]} {p.solref[1]}"
        solimp="{' '.join(map(str, p.solimp))}"/></body></worldbody></mujoco>''')
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 2000)  # settle
    off = 0
    for i in range(4000):
        d.xfrc_applied[1, 2] = 6.0 if i % 4 == 0 else 0.0
        mujoco.mj_step(m, d)
        off += d.ncon == 0
    return off


def test_a_light_foot_kicked_every_command_stays_on_the_ground_in_its_surface_layer():
    assert _steps_off_the_ground(False) > 100  # 272 of 4000: the contact breaks every kick
    assert _steps_off_the_ground(True) == 0


def test_the_layer_changes_only_where_the_impedance_starts():
    plain = from_ode(0.6, 0.6, 1e6, 1.0, 5e-4, None, 12.0, STEP)
    layer = from_ode(0.6, 0.6, 1e6, 1.0, 5e-4, None, 12.0, STEP, surface_layer=True)
    assert plain.solimp == (DEFAULT_SOLIMP[0], DEFAULT_SOLIMP[1], 5e-4, *DEFAULT_SOLIMP[3:])
    assert layer.solimp == (LAYER_D0, *plain.solimp[1:]) and layer.solref == plain.solref
    assert from_ode(0.6, 0.6, 1e6, 1.0, None, None, 12.0, STEP, surface_layer=True).solimp \
        is None  # no minDepth, no layer


def test_the_go1_feet_and_only_they_rest_in_their_layer():
    assert surface_layer_links('go1_description') == ['FR_foot', 'FL_foot', 'RR_foot', 'RL_foot']
    assert surface_layer_links('nao_description') == []
    ph = MujocoPhysics.create('empty', [RobotSpec('go1', package='go1_description')], step=STEP)
    m, feet = ph.model, 0
    for body in range(m.nbody):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, body) or ''
        for g in range(m.body_geomadr[body], m.body_geomadr[body] + m.body_geomnum[body]):
            if m.geom_contype[g] or m.geom_conaffinity[g]:
                feet += name.endswith('_foot')
                expected = LAYER_D0 if name.endswith('_foot') else DEFAULT_SOLIMP[0]
                assert m.geom_solimp[g][0] == pytest.approx(expected), name
    assert feet == 4


def test_a_bad_surface_layer_entry_is_one_line(tmp_path, monkeypatch):
    import zoo_description_tools
    (tmp_path / 'config').mkdir()
    (tmp_path / 'config' / 'contacts.yaml').write_text('surface_layer_links: FR_foot\n')
    monkeypatch.setattr(zoo_description_tools, 'find_description', lambda package: tmp_path)
    with pytest.raises(SimConfigError, match=r'contacts.yaml: surface_layer_links: expected a '
                                             r'list of link names'):
        surface_layer_links('x')
