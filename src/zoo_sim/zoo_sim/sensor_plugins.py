"""Importing this module registers zoo_sim's sensor plug-ins (``sensors.register_sensor``):
``gpu_lidar``/``ray`` as IR ray bundles (``ir_sensor``) and ``camera`` (``camera_sensor``)."""
from . import camera_sensor, ir_sensor  # noqa: F401
