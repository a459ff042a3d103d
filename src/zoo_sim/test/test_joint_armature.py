"""A description's config/armature.yaml becomes MuJoCo's joint armature: rotor inertia x gear
ratio^2 or an upstream model's figure, each with its source; bad entries are one clear line."""
from __future__ import annotations

import pytest

from zoo_sim import SimConfigError
from zoo_sim.joint_armature import read
from zoo_sim.joint_motors import DRIVER
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

JOINTS = ['FL_hip_joint', 'FL_thigh_joint', 'FL_calf_joint']


def test_rotor_inertia_times_ratio_squared_or_an_upstream_figure(tmp_path):
    path = tmp_path / 'armature.yaml'
    path.write_text('armature:\n'
                    "  - {joints: '.*_calf_joint', rotor_inertia: 1.0e-4, gear_ratio: 9, "
                    "source: a datasheet}\n"
                    "  - {joints: '.*', armature: 0.01, source: an upstream model}\n")
    assert read(path, JOINTS) == pytest.approx(
        {'FL_calf_joint': 0.0081, 'FL_hip_joint': 0.01, 'FL_thigh_joint': 0.01})


@pytest.mark.parametrize('entry,says', [
    ("{joints: '.*', armature: 0.01}", 'armature[0]: expected a mapping with joints'),
    ("{joints: '.*', rotor_inertia: -1, gear_ratio: 9, source: s}", 'rotor_inertia: expected a '
                                                                     'number >= 0'),
    ("{joints: '.*', rotor_inertia: 1, source: s}", 'gear_ratio: expected a number >= 0'),
    ("{joints: '.*', armature: 1, gear_ratio: 2, source: s}", 'not both'),
    ("{joints: 'knee', armature: 1, source: s}", "'knee' matches no actuated joint"),
    ("{joints: '(', armature: 1, source: s}", 'not a regular expression'),
])
def test_bad_entries_are_named(tmp_path, entry, says):
    path = tmp_path / 'armature.yaml'
    path.write_text(f'armature:\n  - {entry}\n')
    with pytest.raises(SimConfigError, match=r'armature\.yaml: armature') as err:
        read(path, JOINTS)
    assert says in str(err.value) and '\n' not in str(err.value)


def test_the_go1_gets_its_motors_armature():
    """go1_description's file (mjlab's rotor x ratio^2): 0.004026 on hips and thighs, 0.009059 on
    calves; nothing elsewhere."""
    ph = MujocoPhysics.create('empty', [RobotSpec('go1', package='go1_description')])
    m = ph.model
    for leg in ('FL', 'FR', 'RL', 'RR'):
        for joint, value in (('hip', 0.000111842 * 36), ('thigh', 0.000111842 * 36),
                             ('calf', 0.000111842 * 81)):
            assert m.dof_armature[m.joint(f'go1/{leg}_{joint}_joint').dofadr[0]] == \
                pytest.approx(value, rel=1e-12)
    go1 = [m.joint(f'go1/{leg}_{j}_joint').dofadr[0] for leg in ('FL', 'FR', 'RL', 'RR')
           for j in ('hip', 'thigh', 'calf')]
    others = {m.joint(m.dof_jntid[d]).name for d in range(m.nv)
              if d not in go1 and m.dof_armature[d] > 0}
    assert others <= {DRIVER}  # (the joint motors' own driver DOF)
