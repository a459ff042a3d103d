"""Gazebo systems and sensors for one robot, as URDF ``<gazebo>`` blocks (libsdformat copies them
into the SDF it makes from the URDF).

gz topics (the bridge maps them to ROS, see :mod:`.bridge`):
- ``/model/<robot>/joint/<joint>/cmd_vel``: gz-sim-joint-controller-system, velocity mode (the
  default): a JointVelocityCmd, an ideal velocity with no PID; the effort limit applies only where
  the physics engine enforces the joint's ``<effort>`` on velocity commands (ros_stack.md 3.7).
- ``/model/<robot>/joint/<joint>/cmd_force``: gz-sim-apply-joint-force-system (a torque).
- ``/world/<world>/model/<robot>/joint_state``: gz-sim-joint-state-publisher-system.
- ``/model/<robot>/odometry``: gz-sim-odometry-publisher-system (3-D, ground truth).
- ``/model/<robot>/pose``: gz-sim-pose-publisher-system, link poses as a Pose_V (-> /tf).
- ``/<robot>/imu``: an ``imu`` sensor on the IMU link (needs the world's gz-sim-imu-system).
- ``/<robot>/contacts/<link>``: a ``contact`` sensor per contact link (gz-sim-contact-system).
Fixed-jointed contact links get ``preserveFixedJoint`` so libsdformat keeps them as links.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from ..urdf_robot import RobotDescription


def collision_names(desc: RobotDescription, link: str) -> list[str]:
    """The names libsdformat gives a URDF link's collisions when it converts the URDF: the i-th
    unnamed one ``<link>_collision`` (i = 0) or ``<link>_collision_<i>``, a named one
    ``<link>_fixed_joint_lump__<name>_collision``."""
    import xml.etree.ElementTree as ET
    el = next(e for e in ET.fromstring(desc.urdf).findall('link') if e.get('name') == link)
    out = []
    for i, c in enumerate(el.findall('collision')):
        if c.get('name'):
            out.append(f"{link}_fixed_joint_lump__{c.get('name')}_collision")
        else:
            out.append(f'{link}_collision' if i == 0 else f'{link}_collision_{i}')
    return out


def robot_gazebo_blocks(robot: str, desc: RobotDescription, *, base_link: str, imu_link: str,
                        contact_links: list[str], rates: dict[str, float]) -> str:
    """URDF ``<gazebo>`` blocks realising the simulator's topic contract for ``robot``.
    ``rates`` holds the node's ``joint_states_rate``, ``odometry_rate``, ``imu_rate``,
    ``tf_rate`` and ``contacts_rate`` (Hz)."""
    model = [_plugin('joint-state-publisher', 'JointStatePublisher', '')]
    for j in desc.actuated:
        model.append(_plugin('joint-controller', 'JointController',
                             f'<joint_name>{escape(j.name)}</joint_name>'
                             f'<topic>/model/{robot}/joint/{escape(j.name)}/cmd_vel</topic>'))
        model.append(_plugin('apply-joint-force', 'ApplyJointForce',
                             f'<joint_name>{escape(j.name)}</joint_name>'))
    model.append(_plugin('odometry-publisher', 'OdometryPublisher',
                         f'<odom_frame>world</odom_frame>'
                         f'<robot_base_frame>{robot}/{escape(base_link)}</robot_base_frame>'
                         f"<odom_publish_frequency>{rates['odometry_rate']:g}"
                         '</odom_publish_frequency><dimensions>3</dimensions>'
                         f'<odom_topic>/model/{robot}/odometry</odom_topic>'))
    model.append(_plugin('pose-publisher', 'PosePublisher',
                         '<publish_link_pose>true</publish_link_pose>'
                         '<publish_nested_model_pose>false</publish_nested_model_pose>'
                         '<use_pose_vector_msg>true</use_pose_vector_msg>'
                         f"<update_frequency>{rates['tf_rate']:g}</update_frequency>"))
    blocks = ['<gazebo>' + ''.join(model) + '</gazebo>',
              f'<gazebo reference="{escape(imu_link)}"><sensor name="{robot}_imu" type="imu">'
              f"<always_on>true</always_on><update_rate>{rates['imu_rate']:g}</update_rate>"
              f'<topic>/{robot}/imu</topic></sensor></gazebo>']
    fixed = {j.child: j.name for j in desc.joints if j.type == 'fixed'}
    for link in contact_links:
        if link in fixed:
            blocks.append(f'<gazebo reference="{escape(fixed[link])}">'
                          '<preserveFixedJoint>true</preserveFixedJoint></gazebo>')
        cols = ''.join(f'<collision>{escape(c)}</collision>'
                       for c in collision_names(desc, link))
        blocks.append(f'<gazebo reference="{escape(link)}"><sensor name="{escape(link)}_contact" '
                      f'type="contact"><always_on>true</always_on>'
                      f"<update_rate>{rates['contacts_rate']:g}</update_rate>"
                      f'<contact>{cols}<topic>/{robot}/contacts/{escape(link)}</topic></contact>'
                      '</sensor></gazebo>')
    return '\n'.join(blocks)


def with_gazebo_blocks(urdf: str, blocks: str) -> str:
    """The URDF text with ``blocks`` appended inside ``<robot>``."""
    head, sep, tail = urdf.rpartition('</robot>')
    if not sep:
        raise ValueError('URDF text has no </robot> end tag')
    return f'{head}{blocks}\n{sep}{tail}'


def _plugin(system: str, cls: str, body: str) -> str:
    return (f'<plugin filename="gz-sim-{system}-system" name="gz::sim::systems::{cls}">{body}'
            '</plugin>')
