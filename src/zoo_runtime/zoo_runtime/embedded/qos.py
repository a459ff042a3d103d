"""rclpy.qos: QoS profiles, policies, presets, and the publisher/subscription compatibility rule.

In-process delivery honours history (KEEP_LAST depth bounds a subscription's queue), durability
(TRANSIENT_LOCAL publishers replay their last ``depth`` messages to late TRANSIENT_LOCAL
subscriptions) and reliability for matching: a BEST_EFFORT publisher does not connect to a RELIABLE
subscription, nor a VOLATILE publisher to a TRANSIENT_LOCAL one, exactly as in DDS. Deadline,
lifespan and liveliness are stored but not enforced.
"""
from __future__ import annotations

from enum import Enum, IntEnum

from .duration import Duration

__all__ = ['QoSProfile', 'HistoryPolicy', 'ReliabilityPolicy', 'DurabilityPolicy',
           'LivelinessPolicy', 'QoSHistoryPolicy', 'QoSReliabilityPolicy',
           'QoSDurabilityPolicy', 'QoSLivelinessPolicy', 'QoSPresetProfiles',
           'QoSCompatibility', 'InvalidQoSProfileException', 'qos_check_compatible',
           'qos_profile_default', 'qos_profile_system_default', 'qos_profile_sensor_data',
           'qos_profile_services_default', 'qos_profile_parameters',
           'qos_profile_parameter_events', 'qos_profile_action_status_default',
           'qos_profile_unknown', 'qos_profile_best_available']


class InvalidQoSProfileException(Exception):
    def __init__(self, *args):
        super().__init__('Invalid QoSProfile', *args)


class HistoryPolicy(IntEnum):
    SYSTEM_DEFAULT = 0
    KEEP_LAST = 1
    KEEP_ALL = 2
    UNKNOWN = 3


class ReliabilityPolicy(IntEnum):
    SYSTEM_DEFAULT = 0
    RELIABLE = 1
    BEST_EFFORT = 2
    UNKNOWN = 3
    BEST_AVAILABLE = 4


class DurabilityPolicy(IntEnum):
    SYSTEM_DEFAULT = 0
    TRANSIENT_LOCAL = 1
    VOLATILE = 2
    UNKNOWN = 3
    BEST_AVAILABLE = 4


class LivelinessPolicy(IntEnum):
    SYSTEM_DEFAULT = 0
    AUTOMATIC = 1
    MANUAL_BY_TOPIC = 3
    UNKNOWN = 4
    BEST_AVAILABLE = 5


QoSHistoryPolicy = HistoryPolicy
QoSReliabilityPolicy = ReliabilityPolicy
QoSDurabilityPolicy = DurabilityPolicy
QoSLivelinessPolicy = LivelinessPolicy

_POLICIES = {'history': HistoryPolicy, 'reliability': ReliabilityPolicy,
             'durability': DurabilityPolicy, 'liveliness': LivelinessPolicy}
_DURATIONS = ('lifespan', 'deadline', 'liveliness_lease_duration')
# rmw_qos_profile_default, which rclpy uses for every setting not given.
_DEFAULTS = {'history': HistoryPolicy.KEEP_LAST,
             'reliability': ReliabilityPolicy.RELIABLE,
             'durability': DurabilityPolicy.VOLATILE,
             'liveliness': LivelinessPolicy.SYSTEM_DEFAULT}


class QoSProfile:
    __slots__ = ('history', 'depth', 'reliability', 'durability', 'lifespan', 'deadline',
                 'liveliness', 'liveliness_lease_duration', 'avoid_ros_namespace_conventions')

    def __init__(self, **kwargs):
        unknown = [k for k in kwargs if k not in self.__slots__]
        if unknown:
            raise TypeError(f'QoSProfile: unknown settings {unknown}; expected some of '
                            f'{list(self.__slots__)}')
        if 'history' not in kwargs:
            if 'depth' not in kwargs:
                raise InvalidQoSProfileException('History and/or depth settings are required.')
            kwargs['history'] = HistoryPolicy.KEEP_LAST
        for name, enum in _POLICIES.items():
            setattr(self, name, enum(kwargs.get(name, _DEFAULTS[name])))
        depth = kwargs.get('depth', 0)
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
            raise InvalidQoSProfileException(f'depth must be an int >= 0, got {depth!r}')
        self.depth = depth
        for name in _DURATIONS:
            value = kwargs.get(name, Duration())
            if not isinstance(value, Duration):
                raise TypeError(f'QoSProfile: {name} must be a Duration, got {value!r}')
            setattr(self, name, value)
        self.avoid_ros_namespace_conventions = bool(
            kwargs.get('avoid_ros_namespace_conventions', False))

    def __eq__(self, other) -> bool:
        return isinstance(other, QoSProfile) and all(
            getattr(self, s) == getattr(other, s) for s in self.__slots__)

    def __repr__(self) -> str:
        return (f'QoSProfile(history={self.history.name}, depth={self.depth}, '
                f'reliability={self.reliability.name}, durability={self.durability.name})')

    # Effective values in-process (SYSTEM_DEFAULT resolved as the DDS defaults).
    @property
    def _keep_all(self) -> bool:
        return self.history == HistoryPolicy.KEEP_ALL

    @property
    def _queue_depth(self) -> int:
        return max(self.depth, 1)

    @property
    def _transient_local(self) -> bool:
        return self.durability == DurabilityPolicy.TRANSIENT_LOCAL


class QoSCompatibility(IntEnum):
    OK = 0
    WARNING = 1
    ERROR = 2


def qos_check_compatible(publisher_qos: QoSProfile, subscription_qos: QoSProfile
                         ) -> tuple[QoSCompatibility, str]:
    """Whether a publisher and a subscription with these profiles connect, and why not."""
    if (publisher_qos.reliability == ReliabilityPolicy.BEST_EFFORT and
            subscription_qos.reliability == ReliabilityPolicy.RELIABLE):
        return (QoSCompatibility.ERROR,
                'ERROR: Best effort publisher and reliable subscription;')
    if (publisher_qos.durability == DurabilityPolicy.VOLATILE and
            subscription_qos.durability == DurabilityPolicy.TRANSIENT_LOCAL):
        return (QoSCompatibility.ERROR,
                'ERROR: Volatile publisher and transient local subscription;')
    return QoSCompatibility.OK, ''


def _incompatible_policy(publisher_qos: QoSProfile, subscription_qos: QoSProfile) -> str | None:
    level, reason = qos_check_compatible(publisher_qos, subscription_qos)
    if level != QoSCompatibility.ERROR:
        return None
    return 'RELIABILITY' if 'effort' in reason else 'DURABILITY'


qos_profile_default = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                                 durability=DurabilityPolicy.VOLATILE)
qos_profile_system_default = QoSProfile(history=HistoryPolicy.SYSTEM_DEFAULT, depth=0,
                                        reliability=ReliabilityPolicy.SYSTEM_DEFAULT,
                                        durability=DurabilityPolicy.SYSTEM_DEFAULT)
qos_profile_sensor_data = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT,
                                     durability=DurabilityPolicy.VOLATILE)
qos_profile_services_default = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                                          durability=DurabilityPolicy.VOLATILE)
qos_profile_parameters = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                                    durability=DurabilityPolicy.VOLATILE)
qos_profile_parameter_events = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                                          durability=DurabilityPolicy.VOLATILE)
qos_profile_action_status_default = QoSProfile(
    depth=1, reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.TRANSIENT_LOCAL)
qos_profile_unknown = QoSProfile(history=HistoryPolicy.UNKNOWN, depth=0,
                                 reliability=ReliabilityPolicy.UNKNOWN,
                                 durability=DurabilityPolicy.UNKNOWN,
                                 liveliness=LivelinessPolicy.UNKNOWN)
qos_profile_best_available = QoSProfile(depth=10,
                                        reliability=ReliabilityPolicy.BEST_AVAILABLE,
                                        durability=DurabilityPolicy.BEST_AVAILABLE,
                                        liveliness=LivelinessPolicy.BEST_AVAILABLE)


class QoSPresetProfiles(Enum):
    UNKNOWN = qos_profile_unknown
    SYSTEM_DEFAULT = qos_profile_system_default
    DEFAULT = qos_profile_default
    SERVICES_DEFAULT = qos_profile_services_default
    PARAMETERS = qos_profile_parameters
    PARAMETER_EVENTS = qos_profile_parameter_events
    SENSOR_DATA = qos_profile_sensor_data
    ACTION_STATUS_DEFAULT = qos_profile_action_status_default
    BEST_AVAILABLE = qos_profile_best_available

    @classmethod
    def short_keys(cls) -> list[str]:
        return [m.name.lower() for m in cls]

    @classmethod
    def get_from_short_key(cls, name: str) -> QoSProfile:
        try:
            return cls[name.upper()].value
        except KeyError:
            raise KeyError(f'unknown QoS preset {name!r}: expected one of {cls.short_keys()}'
                           ) from None


def as_profile(qos_or_depth, what: str) -> QoSProfile:
    """rclpy's rule for the ``qos_profile`` argument: a QoSProfile or a KEEP_LAST depth."""
    if isinstance(qos_or_depth, QoSProfile):
        return qos_or_depth
    if isinstance(qos_or_depth, int) and not isinstance(qos_or_depth, bool):
        if qos_or_depth < 0:
            raise ValueError(f'{what}: history depth must be >= 0, got {qos_or_depth}')
        return QoSProfile(depth=qos_or_depth)
    raise TypeError(f'{what}: qos_profile must be a QoSProfile or an int depth, got '
                    f'{qos_or_depth!r}')
