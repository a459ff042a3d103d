"""rclpy.time: a point in time of one clock type, in integer nanoseconds."""
from __future__ import annotations

from ._msgs import message
from .clock_type import ClockType
from .duration import Duration

_S_TO_NS = 1_000_000_000


class Time:
    __slots__ = ('_nanoseconds', '_clock_type')

    def __init__(self, *, seconds: float = 0, nanoseconds: int = 0,
                 clock_type: ClockType = ClockType.SYSTEM_TIME):
        if not isinstance(clock_type, ClockType):
            raise TypeError(f'Time: clock_type must be a ClockType, got {clock_type!r}')
        if seconds < 0:
            raise ValueError(f'Time: seconds must not be negative, got {seconds}')
        if nanoseconds < 0:
            raise ValueError(f'Time: nanoseconds must not be negative, got {nanoseconds}')
        total = round(seconds * _S_TO_NS) + int(nanoseconds)
        if total >= 2 ** 63:
            raise OverflowError(f'Time of {total} ns does not fit a signed 64-bit integer')
        self._nanoseconds = total
        self._clock_type = clock_type

    @classmethod
    def _from_ns(cls, ns: int, clock_type: ClockType) -> Time:
        t = cls.__new__(cls)
        t._nanoseconds = ns
        t._clock_type = clock_type
        return t

    @property
    def nanoseconds(self) -> int:
        return self._nanoseconds

    @property
    def clock_type(self) -> ClockType:
        return self._clock_type

    def seconds_nanoseconds(self) -> tuple[int, int]:
        return divmod(self._nanoseconds, _S_TO_NS)

    def __repr__(self) -> str:
        return f'Time(nanoseconds={self._nanoseconds}, clock_type={self._clock_type.name})'

    def __hash__(self) -> int:
        return hash((self._nanoseconds, self._clock_type))

    def __add__(self, other):
        if isinstance(other, Duration):
            ns = self._nanoseconds + other.nanoseconds
            if ns < 0:
                raise OverflowError(f'{self!r} + {other!r} would be negative')
            return Time._from_ns(ns, self._clock_type)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, Time):
            if other._clock_type != self._clock_type:
                raise TypeError("Can't subtract times with different clock types: "
                                f'{self._clock_type.name} - {other._clock_type.name}')
            return Duration(nanoseconds=self._nanoseconds - other._nanoseconds)
        if isinstance(other, Duration):
            ns = self._nanoseconds - other.nanoseconds
            if ns < 0:
                raise ValueError(f'{self!r} - {other!r} would be negative')
            return Time._from_ns(ns, self._clock_type)
        return NotImplemented

    def _check(self, other) -> None:
        if not isinstance(other, Time):
            raise TypeError("Can't compare Time with object of type: " + type(other).__name__)
        if other._clock_type != self._clock_type:
            raise TypeError("Can't compare times with different clock types: "
                            f'{self._clock_type.name} and {other._clock_type.name}')

    def __eq__(self, other) -> bool:
        if not isinstance(other, Time):
            return NotImplemented
        self._check(other)
        return self._nanoseconds == other._nanoseconds

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __lt__(self, other) -> bool:
        self._check(other)
        return self._nanoseconds < other._nanoseconds

    def __le__(self, other) -> bool:
        self._check(other)
        return self._nanoseconds <= other._nanoseconds

    def __gt__(self, other) -> bool:
        self._check(other)
        return self._nanoseconds > other._nanoseconds

    def __ge__(self, other) -> bool:
        self._check(other)
        return self._nanoseconds >= other._nanoseconds

    def to_msg(self):
        sec, nanosec = divmod(self._nanoseconds, _S_TO_NS)
        return message('builtin_interfaces/msg/Time')(sec=sec, nanosec=nanosec)

    @classmethod
    def from_msg(cls, msg, clock_type: ClockType = ClockType.ROS_TIME) -> Time:
        if not isinstance(clock_type, ClockType):
            raise TypeError(f'Time.from_msg: clock_type must be a ClockType, got {clock_type!r}')
        return cls(seconds=msg.sec, nanoseconds=msg.nanosec, clock_type=clock_type)
