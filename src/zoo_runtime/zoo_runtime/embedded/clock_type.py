"""Clock types, numbered as rcl's ``rcl_clock_type_t``."""
from enum import IntEnum


class ClockType(IntEnum):
    UNINITIALIZED = 0
    ROS_TIME = 1
    SYSTEM_TIME = 2
    STEADY_TIME = 3
