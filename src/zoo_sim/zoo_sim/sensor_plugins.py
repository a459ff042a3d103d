"""Importing this module registers zoo_sim's sensor plug-ins (``sensors.register_sensor``):
``gpu_lidar``/``ray`` as IR ray bundles (``ir_sensor``), ``camera`` (``camera_sensor``) and the
SDF 1.9 ``custom`` sensor ``joint_encoders`` (the noise and resolution of ``joint_states``
positions, applied by the backend: ``noise.encoder_noise``)."""
from . import SimConfigError, camera_sensor, ir_sensor  # noqa: F401
from .noise import ENCODER_SENSOR
from .sensors import Sensor, register_sensor


@register_sensor('custom')
class JointEncoders(Sensor):
    """``<sensor name="joint_encoders" type="custom"><noise .../></sensor>``: no MuJoCo element
    and no topic of its own; the backend reads its ``<noise>`` for ``joint_states``."""

    publishes = False

    def __init__(self, spec, prefix):
        if spec.name != ENCODER_SENSOR:
            raise SimConfigError(f"gazebo[{spec.link}]/sensor[{spec.name}]: custom sensors: "
                                 f"zoo_sim knows only '{ENCODER_SENSOR}'")
        super().__init__(spec, prefix)

    def add_to_spec(self, spec, body) -> None:
        pass
