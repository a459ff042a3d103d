"""pytest plugin (entry point ``pytest11``): the workspace's tests run the embedded runtime.

In a shell where ROS 2 is sourced, ``rclpy`` imports and ``ZOO_RUNTIME=auto`` would pick it, but
the tests build embedded Contexts and lockstep executors around the nodes; a test that means the
real rclpy says ``ZOO_RUNTIME=ros``. Set on import: pytest loads entry-point plugins before the
initial conftest files, which may import zoo_runtime (pytest_configure would come too late); a
module of its own, as importing zoo_runtime.<anything> would choose the runtime first.
"""
from __future__ import annotations

import os

os.environ.setdefault('ZOO_RUNTIME', 'embedded')
