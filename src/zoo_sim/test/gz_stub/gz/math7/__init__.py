"""Test stand-in for gz.math7 (only Pose3d, as the gz.sim8 stand-in needs)."""


class Pose3d:
    def __init__(self, x=0.0, y=0.0, z=0.0, qw=1.0, qx=0.0, qy=0.0, qz=0.0):
        self.xyz, self.q = (x, y, z), (qw, qx, qy, qz)
