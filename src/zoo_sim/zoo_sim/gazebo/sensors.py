"""IMU and contact readings from gz-sim8's own sensor systems (gz-sim-imu-system,
gz-sim-contact-system, loaded by every world of this workspace), read over gz-transport in this
process: the topics :func:`.plugins.sensor_topics` names. gz-transport calls a subscriber of the
same process from inside ``Publish`` (no network, no other thread's delay), so once
``Server.run`` returns every message of those steps has arrived: a reading is the last sample the
sensor published, at the sensor's own rate, as on a real robot.

A contact message lists each contact of the sensor's collision with its two wrenches; the
sensor publishes every step in contact and nothing without one, so a link whose last message is
older than the last step touches nothing.
"""
from __future__ import annotations

import threading

import numpy as np
from zoo_description_tools.physics import STANDARD_GRAVITY


class GzSensors:
    def __init__(self, robot: str, imu_topic: str, contact_topics: dict[str, str]):
        from gz.msgs10.contacts_pb2 import Contacts
        from gz.msgs10.imu_pb2 import IMU
        from gz.transport13 import Node
        self.robot = robot
        self.links = list(contact_topics)
        self._lock = threading.Lock()
        self._imu = None
        self._contacts: dict[str, tuple[int, np.ndarray]] = {}
        self._node = Node()
        ok = self._node.subscribe(IMU, imu_topic, self._on_imu)
        for link, topic in contact_topics.items():
            ok &= self._node.subscribe(Contacts, topic, lambda m, ln=link: self._on_contacts(ln, m))
        if not ok:
            raise RuntimeError(f'{robot}: gz-transport refused a subscription to {imu_topic} or '
                               f'{", ".join(contact_topics.values())}')

    def _on_imu(self, msg) -> None:
        o, w, a = msg.orientation, msg.angular_velocity, msg.linear_acceleration
        with self._lock:
            self._imu = (np.array([o.w, o.x, o.y, o.z]), np.array([w.x, w.y, w.z]),
                         np.array([a.x, a.y, a.z]))

    def _on_contacts(self, link: str, msg) -> None:
        force = np.zeros(3)
        mine = f'::{link}::'
        for c in msg.contact:  # one per touching pair, a JointWrench per contact point
            ours_first = mine in c.collision1.name
            for jw in c.wrench:  # the wrench on this sensor's body: body 1 when collision1 is ours
                f = (jw.body_1_wrench if ours_first else jw.body_2_wrench).force
                force += (f.x, f.y, f.z)
        stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nsec
        with self._lock:
            self._contacts[link] = (stamp, force)

    def clear(self) -> None:
        """Forget every reading (the world was loaded again)."""
        with self._lock:
            self._imu = None
            self._contacts.clear()

    def imu(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(orientation wxyz in the world, angular velocity, linear acceleration incl. gravity
        reaction, both in the sensor frame); level and at rest until the first sample."""
        with self._lock:
            if self._imu is None:
                return np.array([1.0, 0, 0, 0]), np.zeros(3), np.array([0, 0, STANDARD_GRAVITY])
            return tuple(v.copy() for v in self._imu)

    def contacts(self, since_ns: int) -> tuple[np.ndarray, np.ndarray]:
        """(in contact, total contact force on the link in the world frame) per contact link;
        a link whose last message is stamped before ``since_ns`` (server time) touches nothing."""
        touching = np.zeros(len(self.links), dtype=bool)
        forces = np.zeros((len(self.links), 3))
        with self._lock:
            for k, link in enumerate(self.links):
                stamp, force = self._contacts.get(link, (-1, None))
                if stamp >= since_ns:
                    touching[k], forces[k] = True, force
        return touching, forces
