"""Gazebo sensors for one robot, as URDF ``<gazebo>`` blocks (libsdformat copies them into the
SDF it makes from the URDF).

No model systems: the simulator node drives the joints and reads joint states, odometry and link
poses through the gz.sim8 ECM itself (:mod:`.gazebo_backend`), so both backends publish the same
topics and one TF tree. A JointController would write its own JointVelocityCmd every step, and an
ApplyJointForce a JointForceCmd every step, which gz-sim8's Physics system applies in preference
to any velocity command (gazebosim/gz-sim gz-sim8: src/systems/physics/Physics.cc "Only set joint
velocity if joint force is not set", src/systems/apply_joint_force/ApplyJointForce.cc): velocity
commands were ignored and the robots went limp.

gz topics (ros_gz_bridge maps them to ROS, see :mod:`.bridge`), for what the bindings cannot read:
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
    """URDF ``<gazebo>`` sensor blocks for ``robot``'s IMU and contacts. ``rates`` holds the
    node's ``imu_rate`` and ``contacts_rate`` (Hz); ``base_link`` is kept for callers."""
    blocks = [f'<gazebo reference="{escape(imu_link)}"><sensor name="{robot}_imu" type="imu">'
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



def weld_to_world(urdf: str, base_link: str) -> str:
    """The URDF with ``base_link`` fixed to the world (a scenario's ``fixed_base``): a URDF
    joint whose parent is the link ``world`` becomes a joint to the world in SDF."""
    weld = ('<link name="world"/><joint name="zoo_world_weld" type="fixed">'
            f'<parent link="world"/><child link="{escape(base_link)}"/></joint>')
    return with_gazebo_blocks(urdf, weld)
