"""A recording stand-in for Gazebo Harmonic's Python bindings, for tests where gz.sim8 is absent.

It has the names and call shapes of gazebosim/gz-sim gz-sim8 python/src/gz/sim/*.cc that
zoo_sim.gazebo.gazebo_backend uses, and no physics. What a model is made of comes from real
libsdformat: each included URDF is converted with ``ign sdf -p``, so links merged by the
fixed-joint reduction are absent, as in Gazebo. Kept links sit at their model's include pose.

Reset behaves as gz-sim8's (gazebosim/gz-sim gz-sim8 b81e26da): ``Server.reset_all`` only queues
a rewind (src/Server.cc ResetAll -> SimulationRunner::Reset pushes a WorldControl); the iteration
that processes it still runs the systems on the old state (Step -> UpdateSystems, then
ProcessMessages sets requestedRewind); the next iteration restores the ECM to its load-time copy
(SimulationRunner::Run: ``entityCompMgr.ResetTo(initialEntityCompMgr)``, the copy taken in
CreateEntities) and calls the systems' Reset instead of their updates (UpdateSystems returns
after ``systemMgr->Reset``). So every component added after load is gone: the JointPosition,
JointVelocity, JointPositionReset, JointVelocityCmd, JointForceCmd and world velocity components
that ``enable_*_check``, ``reset_position`` and the commands create; joints are back at their
load-time position (0) and ``position`` / ``velocity`` / ``world_linear_velocity`` give None.
And SystemManager::Reset does not reload a system made in memory that lacks ISystemReset, which
TestFixture's HelperSystem is (src/SystemManager.cc "In-memory without ISystemReset detected",
src/TestFixture.cc): its pre-update callbacks never run again. Its post-update callbacks go on
(measured with the real gz-sim 8.14.0 bindings: 10 steps, reset_all, 20 steps gave 11 pre-update
and 29 post-update calls), and so they do here.
"""
from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

K_NULL_ENTITY = 0
LAST: list['TestFixture'] = []  # the fixtures made, for the tests' assertions


@dataclass
class _Model:
    name: str
    pose: list[float]
    links: dict[str, int] = field(default_factory=dict)
    joints: dict[str, int] = field(default_factory=dict)
    world_joint: bool = False
    pose0: list[float] = field(default_factory=list)  # the load-time (include) pose


class _V:
    def __init__(self, *v):
        self.v = v

    def x(self):
        return self.v[0]

    def y(self):
        return self.v[1]

    def z(self):
        return self.v[2]

    def w(self):
        return self.v[3]


class _Pose:
    def __init__(self, xyz):
        self._p = _V(*xyz)

    def pos(self):
        return self._p

    def rot(self):
        return _Q()


class _Q:  # identity
    def w(self):
        return 1.0

    def x(self):
        return 0.0

    def y(self):
        return 0.0

    def z(self):
        return 0.0


class TestFixture:
    __test__ = False

    def __init__(self, path: str):
        self.path = path
        self.models: dict[str, _Model] = {}
        self.entities: dict[int, tuple[str, str, str]] = {}  # id -> (kind, model, name)
        self.resets: dict[tuple[str, str], float] = {}
        self.velocity_cmds: dict[tuple[str, str], float] = {}
        self.force_cmds: dict[tuple[str, str], float] = {}
        self.pre, self.post = [], []
        self.components: set[tuple] = set()  # (entity, component) added after load
        self.rewind_requested = self.rewinding = False
        self.iterations = 0
        world = ET.parse(path).getroot().find('world')
        for inc in world.findall('include'):
            name = inc.findtext('name')
            if not (inc.findtext('uri') or '').startswith('file://'):
                continue  # the world's own models (ground plane): not robots
            sdf = subprocess.run(['ign', 'sdf', '-p', inc.findtext('uri')[len('file://'):]],
                                 capture_output=True, text=True, check=True).stdout
            model_el = ET.fromstring(sdf).find('model')
            pose = [float(v) for v in inc.findtext('pose').split()]
            m = _Model(name, pose, pose0=list(pose))
            for link in model_el.findall('link'):
                m.links[link.get('name')] = self._new('link', name, link.get('name'))
            for joint in model_el.findall('joint'):
                m.joints[joint.get('name')] = self._new('joint', name, joint.get('name'))
                m.world_joint |= joint.findtext('parent') == 'world'
            self.models[name] = m
        LAST.append(self)

    def _new(self, kind, model, name) -> int:
        e = len(self.entities) + 1
        self.entities[e] = (kind, model, name)
        return e

    def on_pre_update(self, cb):
        self.pre.append(cb)

    def on_post_update(self, cb):
        self.post.append(cb)

    def finalize(self):
        pass

    def server(self):
        return _Server(self)


class _Server:
    def __init__(self, fixture):
        self.f = fixture

    def run(self, blocking, iterations, paused):
        f = self.f
        for _ in range(iterations):
            if f.rewinding:  # UpdateCurrentInfo rewinds; ResetTo(initial); systems' Reset only
                f.components.clear()
                f.resets.clear()
                f.velocity_cmds.clear()
                f.force_cmds.clear()
                for m in f.models.values():
                    m.pose = list(m.pose0)
                f.rewinding = False
                f.pre.clear()  # HelperSystem has no ISystemReset: pre-update is gone for good
                f.iterations = 0
                continue
            f.iterations += 1
            for cb in f.pre:
                cb(None, f)
            for cb in f.post:
                cb(None, f)
            if f.rewind_requested:  # ProcessMessages, after the systems ran
                f.rewind_requested, f.rewinding = False, True
        return True

    def reset_all(self):
        self.f.rewind_requested = True


def world_entity(ecm) -> int:
    return -1


class World:
    def __init__(self, entity):
        pass

    def model_by_name(self, ecm, name):
        return name if name in ecm.models else K_NULL_ENTITY


class Model:
    def __init__(self, entity):
        self.name = entity

    def joint_by_name(self, ecm, name):
        return ecm.models[self.name].joints.get(name, K_NULL_ENTITY)

    def link_by_name(self, ecm, name):
        return ecm.models[self.name].links.get(name, K_NULL_ENTITY)

    def set_world_pose_cmd(self, ecm, pose):
        ecm.models[self.name].pose[:3] = pose.xyz


class Joint:
    def __init__(self, entity):
        self.e = entity

    def _key(self, ecm):
        _, model, name = ecm.entities[self.e]
        return model, name

    def enable_position_check(self, ecm, on):
        (ecm.components.add if on else ecm.components.discard)((self.e, 'JointPosition'))

    def enable_velocity_check(self, ecm, on):
        (ecm.components.add if on else ecm.components.discard)((self.e, 'JointVelocity'))

    def reset_position(self, ecm, q):
        ecm.resets[self._key(ecm)] = q[0]

    def set_velocity(self, ecm, v):
        ecm.velocity_cmds[self._key(ecm)] = v[0]

    def set_force(self, ecm, f):
        ecm.force_cmds[self._key(ecm)] = f[0]

    def position(self, ecm):
        if (self.e, 'JointPosition') not in ecm.components:
            return None
        return [ecm.resets.get(self._key(ecm), 0.0)]

    def velocity(self, ecm):
        if (self.e, 'JointVelocity') not in ecm.components:
            return None
        return [ecm.velocity_cmds.get(self._key(ecm), 0.0)]


class Link:
    def __init__(self, entity):
        self.e = entity

    def world_pose(self, ecm):
        if self.e == K_NULL_ENTITY:
            return None
        return _Pose(ecm.models[ecm.entities[self.e][1]].pose[:3])

    def enable_velocity_checks(self, ecm, on):
        (ecm.components.add if on else ecm.components.discard)((self.e, 'WorldVelocity'))

    def world_linear_velocity(self, ecm):
        return _V(0.0, 0.0, 0.0) if (self.e, 'WorldVelocity') in ecm.components else None

    def world_angular_velocity(self, ecm):
        return _V(0.0, 0.0, 0.0) if (self.e, 'WorldVelocity') in ecm.components else None
