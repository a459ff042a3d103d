"""Gazebo sensors for one robot, as URDF ``<gazebo>`` blocks (libsdformat copies them into the
SDF it makes from the URDF).

No model systems: the simulator node drives the joints and reads joint states, odometry and link
poses through the gz.sim8 ECM itself (:mod:`.gazebo_backend`), so both backends publish the same
topics and one TF tree. A JointController would write its own JointVelocityCmd every step, and an
ApplyJointForce a JointForceCmd every step, which gz-sim8's Physics system applies in preference
to any velocity command (gazebosim/gz-sim gz-sim8: src/systems/physics/Physics.cc "Only set joint
velocity if joint force is not set", src/systems/apply_joint_force/ApplyJointForce.cc): velocity
commands were ignored and the robots went limp.

gz topics, for what the bindings cannot read (:mod:`.sensors` reads them; ros_gz_bridge can map them
to ROS instead, see :mod:`.bridge`):
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


def sensor_topics(robot: str, contact_links: list[str]) -> tuple[str, dict[str, str]]:
    """The gz topics the backend reads: the IMU's, and each contact link's."""
    return f'/{robot}/imu', {link: f'/{robot}/contacts/{link}' for link in contact_links}


def robot_gazebo_blocks(robot: str, desc: RobotDescription, *, base_link: str, imu_link: str,
                        contact_links: list[str], rates: dict[str, float]) -> str:
    """URDF ``<gazebo>`` sensor blocks for ``robot``'s IMU and contacts that the description
    lacks (``rates``: the node's ``imu_rate`` and ``contacts_rate``, Hz). A description's own
    sensor on the link is kept as written (libsdformat refuses two sensors of one name):
    :func:`with_sensor_topics` gives it the topic the backend reads. ``base_link`` is kept for
    callers."""
    imu_topic, contact_topics = sensor_topics(robot, contact_links)
    have = {(link, kind) for link, kind, _, _ in desc.sensors}
    # bullet-featherstone puts a model at rest to sleep (~2 s), and a sleeping model ignores
    # joint commands: a Robobo left standing never drove again
    blocks = ['<gazebo><allow_auto_disable>false</allow_auto_disable></gazebo>']
    if (imu_link, 'imu') not in have:
        blocks.append(f'<gazebo reference="{escape(imu_link)}"><sensor name="{robot}_imu" '
                      f"type=\"imu\"><always_on>true</always_on><update_rate>{rates['imu_rate']:g}"
                      f'</update_rate><topic>{imu_topic}</topic></sensor></gazebo>')
    fixed = {j.child: j.name for j in desc.joints if j.type == 'fixed'}
    for link in contact_links:
        if link in fixed:
            blocks.append(f'<gazebo reference="{escape(fixed[link])}">'
                          '<preserveFixedJoint>true</preserveFixedJoint></gazebo>')
        if (link, 'contact') in have:
            continue
        cols = ''.join(f'<collision>{escape(c)}</collision>'
                       for c in collision_names(desc, link))
        blocks.append(f'<gazebo reference="{escape(link)}"><sensor name="{escape(link)}_contact" '
                      f'type="contact"><always_on>true</always_on>'
                      f"<update_rate>{rates['contacts_rate']:g}</update_rate>"
                      f'<contact>{cols}<topic>{contact_topics[link]}</topic></contact>'
                      '</sensor></gazebo>')
    return '\n'.join(blocks)


def with_sensor_topics(urdf: str, robot: str, imu_link: str, contact_links: list[str]) -> str:
    """The URDF with a ``<topic>`` on the description's own IMU sensor of ``imu_link`` and
    contact sensors of ``contact_links`` (gz-sim would publish them under scoped names)."""
    import xml.etree.ElementTree as ET
    imu_topic, contact_topics = sensor_topics(robot, contact_links)
    root = ET.fromstring(urdf)
    for block in root.findall('gazebo'):
        link = block.get('reference')
        for sensor in block.findall('sensor'):
            kind = sensor.get('type')
            topic = imu_topic if (kind, link) == ('imu', imu_link) else \
                contact_topics.get(link) if kind == 'contact' else None
            if topic is None:
                continue
            # gz-sim8's Contact system reads <contact><topic>, the Imu system <sensor><topic>
            parent = sensor if kind == 'imu' else sensor.find('contact')
            if parent is None:
                parent = ET.SubElement(sensor, 'contact')
            el = parent.find('topic')
            if el is None:
                el = ET.SubElement(parent, 'topic')
            el.text = topic
    return ET.tostring(root, encoding='unicode')


# SDF sensor types gz-sensors draws with a rendering engine (gz-sim8's Sensors system)
RENDERING_SENSORS = frozenset({
    'camera', 'depth', 'depth_camera', 'rgbd', 'rgbd_camera', 'gpu_lidar', 'gpu_ray', 'lidar',
    'ray', 'thermal', 'thermal_camera', 'segmentation', 'segmentation_camera',
    'boundingbox_camera', 'bounding_box_camera', 'wideanglecamera', 'wide_angle_camera'})


def _engine_plugins(env: str, folder: str, prefix: str, suffix: str) -> list[str]:
    """Engine names of the plugin files ``<prefix><engine><suffix>`` on the path ``env`` and in
    the Gazebo tree's own ``lib/<folder>/engine-plugins``."""
    import os
    from pathlib import Path
    dirs = [p for p in os.environ.get(env, '').split(os.pathsep) if p]
    root = os.environ.get('GZ_HARMONIC_ROOT')
    if root:
        dirs.append(str(Path(root) / 'lib' / folder / 'engine-plugins'))
    found = set()
    for d in dirs:
        for f in Path(d).glob(f'{prefix}*{suffix}*') if Path(d).is_dir() else ():
            found.add(f.name[len(prefix):].split(suffix, 1)[0])
    return sorted(found)


def rendering_engines() -> list[str]:
    """The gz-rendering 8 engines found (``ogre2``, ``ogre``...). The shared headless build has
    none."""
    return _engine_plugins('GZ_RENDERING_PLUGIN_PATH', 'gz-rendering-8', 'libgz-rendering-',
                           '.so')


def physics_engines() -> list[str]:
    """The gz-physics 7 engines found (``dartsim``, ``bullet-featherstone``, ``tpe``). The
    shared build has bullet-featherstone alone."""
    return _engine_plugins('GZ_SIM_PHYSICS_ENGINE_PATH', 'gz-physics-7', 'libgz-physics-',
                           '-plugin.so')


def without_rendering_sensors(urdf: str, robot: str) -> tuple[str, list[str]]:
    """The URDF without the sensors that need a rendering engine, and one line for each."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(urdf)
    lines = []
    for block in root.findall('gazebo'):
        for sensor in block.findall('sensor'):
            if sensor.get('type') in RENDERING_SENSORS:
                block.remove(sensor)
                lines.append(f"{robot}: sensor {sensor.get('name')} ({sensor.get('type')} on "
                             f"{block.get('reference')}): not available under this Gazebo build "
                             '(no gz-rendering engine to draw it): not published')
    return (ET.tostring(root, encoding='unicode'), lines) if lines else (urdf, [])


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
