"""A toy description package in a temporary install space, shaped like a real one."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

TOY_XACRO = textwrap.dedent('''\
    <?xml version="1.0"?>
    <robot name="toy" xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:arg name="legs" default="2"/>
      <xacro:arg name="variant" default="light"/>
      <xacro:property name="legs" value="$(arg legs)"/>
      <xacro:property name="variant" value="$(arg variant)"/>
      <xacro:if value="${int(legs) &lt; 1}">${xacro.fatal('arg legs must be >= 1, got ' + str(legs))}</xacro:if>
      <xacro:property name="leg_mass" value="${dict(light=0.25, heavy=0.5)[variant]}"/>
      <link name="base_link">
        <inertial><mass value="1.0"/>
          <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
        <collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision>
      </link>
      <link name="imu_link"/>
      <joint name="imu_joint" type="fixed"><parent link="base_link"/><child link="imu_link"/></joint>
      <xacro:macro name="leg" params="i">
        <link name="leg${i}_foot">
          <inertial><mass value="${leg_mass}"/>
            <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
          <collision><geometry><sphere radius="0.02"/></geometry></collision>
        </link>
        <joint name="leg${i}_joint" type="revolute">
          <parent link="base_link"/><child link="leg${i}_foot"/>
          <origin xyz="${0.05 * i} 0 -0.1"/><axis xyz="0 1 0"/>
          <limit lower="-1" upper="1" effort="2" velocity="3"/>
          <dynamics damping="0.01" friction="0"/>
        </joint>
        <gazebo reference="leg${i}_foot">
          <mu1>0.8</mu1><mu2>0.8</mu2><kp>1e6</kp><kd>100</kd><minDepth>0.001</minDepth>
        </gazebo>
      </xacro:macro>
      <xacro:macro name="legs_from" params="i">
        <xacro:if value="${i &lt;= int(legs)}">
          <xacro:leg i="${i}"/>
          <xacro:legs_from i="${i + 1}"/>
        </xacro:if>
      </xacro:macro>
      <xacro:legs_from i="1"/>
    </robot>
    ''')

TOY_FILES = {
    'package.xml': '<package format="3"><name>toy_description</name></package>\n',
    'README.md': 'toy\n',
    'rviz/toy.rviz': 'Panels: []\n',
    'urdf/toy.urdf.xacro': TOY_XACRO,
    'config/xacro_args.yaml': textwrap.dedent('''\
        legs: {default: 2, type: int, min: 1, max: 4, doc: number of legs}
        variant: {default: light, type: str, choices: [light, heavy], doc: leg mass}
        '''),
    'config/joint_groups.yaml': textwrap.dedent('''\
        groups: {legs: [leg1_joint, leg2_joint]}
        contact_links: [leg1_foot, leg2_foot]
        '''),
    'config/initial_pose.yaml': textwrap.dedent('''\
        base: {xyz: [0, 0, 0.17], rpy: [0, 0, 0]}
        joints: {leg1_joint: 0.0, leg2_joint: 0.5}
        '''),
    'config/pid_gains.yaml': textwrap.dedent('''\
        /**:
          ros__parameters:
            joints: [leg1_joint, leg2_joint]
            gains:
              leg1_joint: {p: 5.0, i: 0.0, d: 0.1, antiwindup_strategy: back_calculation}
              leg2_joint: {p: 5.0, i: 0.0, d: 0.1, antiwindup_strategy: back_calculation}
        '''),
}


@pytest.fixture
def toy_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An install prefix holding share/toy_description (registered in its ament index), first on
    AMENT_PREFIX_PATH."""
    index = tmp_path / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'toy_description').touch()
    share = tmp_path / 'share' / 'toy_description'
    for rel, text in TOY_FILES.items():
        (share / rel).parent.mkdir(parents=True, exist_ok=True)
        (share / rel).write_text(text)
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    return share
